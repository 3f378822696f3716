"""What a playtester reads beside the PDFs: output/<game>/report.{json,md} (report), the French print guide
per paper (print_guide) with its stock, sleeve and assembly data (data), the paper bill: sheets and ink per
file (paperbill), and the edition ids a card is named by, ids.md (ids).

May import: core, data, render, cache and kinds; never a game's rules."""
