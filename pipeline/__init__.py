"""pnp: a print-and-play production pipeline (workbook -> validated records -> print-ready PDFs)."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
