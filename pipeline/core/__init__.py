"""The ground floor: what every other room stands on, with no knowledge of games, sheets or drawing.

Errors and problem reports located at a cell (errors), units and paper sizes (units), the one vocabulary of
printing (printing: papers, backs, formats, PrintOptions) and a build's options (config), safe paths and
YAML for untrusted inputs (paths, safe_yaml), atomic writes under output/ (output), progress callbacks
(progress), edition ids and versions (edition), and every call to git (git).

May import: the standard library, third-party packages and the package root (pipeline.PROJECT_ROOT); no
other room of pipeline/."""
