"""Reading and typing a game's data: workbooks and CSVs into Records that remember their cell.

The sheet reader with its bounds on untrusted files (sheets), the typed columns and stage 1–2 checks
(schema), the `rules` sheet's parameters (params), the component manifest (manifest), the `balance` sheet's
columns (balance), the workbook writer (workbook), and the game-facing specs every game imports: the game
record GameModule and the components it prints, FaceSpec, CardDeck, BoardSpec, PageSpec, DiceSpec,
RulebookSpec (specs).

May import: core."""
