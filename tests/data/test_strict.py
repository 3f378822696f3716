"""--strict: warnings fail, except a workbook's recorded errata (errors.ACKNOWLEDGED), which are still printed."""

from __future__ import annotations

from pipeline.core.errors import Report, SourceRef
from tests.conftest import run_cli

WHERE = SourceRef("sheets/nba.xlsx", "durations", 3, "E", "source_pile_cards")


def test_an_erratum_does_not_fail_strict_and_any_other_warning_does():
    report = Report()
    report.warning(WHERE, "erratum (AMB-01): the engine plays 20", "erratum")
    assert not report.failed(strict=True) and report.exit_code(strict=True) == 0
    report.warning(WHERE, "an unknown column", "columns")
    assert report.failed(strict=True) and not report.failed(strict=False)


def test_nba_validates_strictly_and_still_prints_its_erratum():
    done = run_cli("validate", "nba", "--strict")
    assert done.returncode == 0, done.stderr
    assert "warning sheets/nba.xlsx › durations › E3 (source_pile_cards): erratum (AMB-01)" in done.stderr
