"""pnp: a print-and-play production pipeline (workbook -> validated records -> print-ready PDFs)."""

import os
from pathlib import Path

# The project folder holding sheets/, templates/, fonts/ and output/. PNP_ROOT points the tool at
# another project (tests use it to work on a scratch copy).
PROJECT_ROOT = Path(os.environ.get("PNP_ROOT") or Path(__file__).resolve().parent.parent).resolve()
