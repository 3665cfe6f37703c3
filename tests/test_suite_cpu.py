"""tools/suite_cpu.py, the suite's CPU report (issue 45): the workers' rows summed by
file and directory, each file's wall time for the schedule (tests/durations.json), and
the whole machine's CPU beside the tests' count."""

from __future__ import annotations

import json
from pathlib import Path

from tools import suite_cpu


def written(folder: Path) -> None:
    rows = {
        "gw0-1.json": [
            ["tests/web/test_a.py::test_one", 0.5, 2.0, 4.0],
            ["tests/web/test_a.py::test_two", 0.25, 0.0, 1.0],
        ],
        "gw1-2.json": [["tests/server/test_b.py::test_three", 3.0, 0.0, 3.5]],
    }
    for name, data in rows.items():
        (folder / name).write_text(json.dumps({"rows": data, "total": [0, 0]}), "utf-8")


def test_the_report_sums_by_directory_and_file_the_dearest_first(tmp_path: Path) -> None:
    written(tmp_path)
    text = suite_cpu.report(tmp_path, top=10)
    assert text.startswith("CPU of the tests: 6 s")
    assert "| tests/server | 3.0 |" in text
    assert "| tests/web | 2.8 |" in text
    assert text.index("| tests/server/test_b.py") < text.index("| tests/web/test_a.py")
    assert "| tests/web/test_a.py | 2.8 | 0.8 | 2.0 | 5.0 | 2 |" in text
    assert "machine" not in text  # no machine.json: no such line


def test_the_machines_cpu_is_reported_beside_and_never_read_as_a_worker(
    tmp_path: Path,
) -> None:
    written(tmp_path)
    (tmp_path / suite_cpu.MACHINE).write_text(
        json.dumps({"busy": 470.0, "idle": 30.0, "wall": 250.0}), "utf-8"
    )
    text = suite_cpu.report(tmp_path, top=10)
    assert "The machine's CPU over the run: 470 s busy in 250 s (94% of its cores)" in text
    assert text.startswith("CPU of the tests: 6 s")  # machine.json is no worker's rows
    assert suite_cpu.durations(tmp_path) == {
        "tests/server/test_b.py": 3.5,
        "tests/web/test_a.py": 5.0,
    }


def test_the_machines_cpu_grows_and_splits_busy_from_idle() -> None:
    busy, idle = suite_cpu.machine()
    assert busy > 0 and idle >= 0
    later_busy, later_idle = suite_cpu.machine()
    assert later_busy >= busy and later_idle >= idle
