"""Several build processes of one output/ (a build's workers, a release's games side by side) take and leave
scratch folders in output/.pnp-tmp/ at once: one removing the empty area never fails another taking a folder
there (pipeline/core/output.py scratch_folder)."""

from __future__ import annotations

import pytest

from pipeline.core import pool
from pipeline.core.output import TEMP_AREA, scratch_folder


@pytest.mark.skipif(not pool.can_fork(), reason="this system cannot fork")
def test_processes_taking_and_leaving_scratch_folders_at_once_never_fail(tmp_path):
    def churn() -> int:
        for _ in range(1500):
            with scratch_folder(tmp_path) as folder:
                (folder / "print.pdf").write_bytes(b"%PDF")
        return 1500

    assert pool.run_all([churn] * 4, 4) == [1500] * 4
    assert not (tmp_path / TEMP_AREA).exists()          # the last one out removed the area
