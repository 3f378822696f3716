"""`pnp`: the one typer app and main(). Each command lives in the module of its group and registers here, in
the order `pnp --help` lists them: build.py (list, validate, build, watch), clean.py, simulate.py, sweep.py,
release.py, diff.py (diff, textconv), preflight.py. A command parses its options, calls one function below, and maps
the Report to an
exit code (0 clean, 1 problems, 2 usage). main() makes sure a user's mistake never prints a traceback and that
SIGTERM, like Ctrl-C, leaves no half-written file."""

from __future__ import annotations

import signal
import sys

import typer

from pipeline.cli import build, clean, diff, preflight, release, simulate, sweep
from pipeline.cli.shared import err
from pipeline.core.errors import PipelineError

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Print-and-play pipeline: validate game workbooks and build print-ready PDFs.")

app.command("list")(build.list_games)
app.command()(build.validate)
app.command()(build.build)
app.command()(build.watch)
app.command()(clean.clean)
app.command()(simulate.simulate)
app.command("sweep")(sweep.sweep)
app.command("release")(release.release)
app.command()(diff.diff)
app.command()(diff.textconv)
app.command()(preflight.preflight)


class Terminated(BaseException):
    """SIGTERM, raised wherever the program is (like KeyboardInterrupt for Ctrl-C), so every write on the
    way out removes its temporaries (pipeline/core/output.py)."""


def _terminate(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)      # a second SIGTERM must not cut the clean-up short
    raise Terminated()


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()                       # typer turns Ctrl-C (KeyboardInterrupt) into exit 130 itself
    except PipelineError as exc:
        from rich.text import Text

        for problem in exc.problems:
            err(Text(f"error {problem}"))
        sys.exit(1)
    except KeyboardInterrupt:
        err("interrupted")
        sys.exit(130)
    except Terminated:
        err("terminated (no half-written file was left)")
        sys.exit(143)
    except OSError as exc:          # a write no command turned into its line: still one line, never a traceback
        from pipeline.core.write_failures import ENVIRONMENT, in_plain_words

        if exc.errno not in ENVIRONMENT:
            raise
        err(in_plain_words(exc), markup=False)
        sys.exit(1)
