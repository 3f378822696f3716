"""`pnp sweep`: every combination of some rule parameters' values played on the same seeds, and what it
writes: the run with its value checks and paired differences (run), the Markdown and CSV tables (report),
and the PDF with its line charts and heat maps (pdf).

May import: core, data, render (charts and fonts), play and simulation."""
