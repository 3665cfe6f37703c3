"""Where the suite's CPU goes: a pytest plugin that notes each test's CPU (its own
process's and its reaped children's: servers, browsers, pip), and a report by file
and by directory.

The suite is CPU-bound on a 2-core machine (issue 45): its wall time is about its CPU
over two, so the CPU, not the seconds a test waits, is what to cut. CPU time also
varies less than wall time with the machine's load.

    PASYANS_SUITE_CPU=/tmp/cpu .venv/bin/python -m pytest -n 4 --dist loadfile \
        --no-loadscope-reorder -p tools.suite_cpu
    .venv/bin/python -m tools.suite_cpu /tmp/cpu [--top 40] [--durations tests/durations.json]

``--durations`` writes each file's wall time (its tests' sum) for the suite's schedule:
tests/conftest.py hands the workers the longest files first.

A child's CPU is counted when it is reaped: a server of a module's fixture is counted
in that module's last test, so read files and directories rather than single tests.
A process that leaves the tree is never counted: Chromium's renderers (its zygote's
children, in a namespace of their own) are most of them. So the run also notes the
whole machine's CPU (``/proc/stat``, from the session's start to its end): on a quiet
machine that is the suite's true cost (issue 45: 470–510 s where the tests' count said
about 360).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

OUT = "PASYANS_SUITE_CPU"
#: the file of the machine's CPU over the run, beside the workers' files
MACHINE = "machine.json"

#: (test id, own CPU s, children's CPU s, wall s) of the tests this process ran
_rows: list[tuple[str, float, float, float]] = []


#: the machine's CPU seconds busy and idle at the session's start (the controller's)
_machine: list[float] = []


def machine() -> tuple[float, float]:
    """The whole machine's CPU seconds so far, busy (user, nice, system, irq, softirq,
    steal) and idle (idle, iowait), from /proc/stat; (0, 0) where there is none."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(v) for v in stat.readline().split()[1:9]]
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / tick, (idle + iowait) / tick


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get(OUT) and "PYTEST_XDIST_WORKER" not in os.environ:
        _machine[:] = [*machine(), time.perf_counter()]


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    own, children = _cpu()
    began = time.perf_counter()
    yield
    own2, children2 = _cpu()
    _rows.append((item.nodeid, own2 - own, children2 - children, time.perf_counter() - began))


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(OUT)
    if folder and _machine:
        busy, idle = machine()
        Path(folder).mkdir(parents=True, exist_ok=True)
        whole = {
            "busy": busy - _machine[0],
            "idle": idle - _machine[1],
            "wall": time.perf_counter() - _machine[2],
        }
        (Path(folder) / MACHINE).write_text(json.dumps(whole), encoding="utf-8")
    if not folder or not _rows:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(folder) / f"{worker}-{os.getpid()}.json"
    path.write_text(json.dumps({"rows": _rows, "total": _cpu()}), encoding="utf-8")


def rows(folder: Path) -> Iterator[tuple[str, float, float, float]]:
    for path in sorted(folder.glob("*.json")):
        if path.name == MACHINE:
            continue
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for nodeid, own, children, wall in data["rows"]:
            yield str(nodeid), float(own), float(children), float(wall)


def report(folder: Path, top: int) -> str:
    by_file: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    by_dir: dict[str, float] = collections.defaultdict(float)
    for nodeid, own, children, wall in rows(folder):
        name = nodeid.split("::")[0]
        sums = by_file[name]
        sums[0] += own
        sums[1] += children
        sums[2] += wall
        sums[3] += 1
        by_dir["/".join(name.split("/")[:2])] += own + children
    total = sum(by_dir.values())
    lines = [f"CPU of the tests: {total:.0f} s (over two cores: at least {total / 2:.0f} s)"]
    if (folder / MACHINE).exists():
        whole = json.loads((folder / MACHINE).read_text(encoding="utf-8"))
        busy, idle, wall = whole["busy"], whole["idle"], whole["wall"]
        share = busy / (busy + idle) if busy + idle else 0.0
        lines.append(
            f"The machine's CPU over the run: {busy:.0f} s busy in {wall:.0f} s "
            f"({share:.0%} of its cores), counting what left the tests' tree (Chromium's "
            "renderers) and anything else the machine ran"
        )
    lines.append("")
    lines += ["| directory | CPU s |", "|---|---:|"]
    lines += [f"| {d} | {s:.1f} |" for d, s in sorted(by_dir.items(), key=lambda kv: -kv[1])]
    lines += [
        "",
        "| file | CPU s | own | children | wall s | tests |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    ranked = sorted(by_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]
    for name, (own, children, wall, n) in ranked:
        lines.append(
            f"| {name} | {own + children:.1f} | {own:.1f} | {children:.1f} | {wall:.1f} | {n:.0f} |"
        )
    return "\n".join(lines)


def durations(folder: Path) -> dict[str, float]:
    """Each test file's wall time: its tests' sum, in seconds (one decimal)."""
    walls: dict[str, float] = collections.defaultdict(float)
    for nodeid, _own, _children, wall in rows(folder):
        walls[nodeid.split("::")[0]] += wall
    return {name: round(wall, 1) for name, wall in sorted(walls.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.suite_cpu", description="The suite's CPU by directory and file."
    )
    parser.add_argument("folder", type=Path, help=f"where the plugin wrote (${OUT})")
    parser.add_argument("--top", type=int, default=40, help="files shown (the dearest first)")
    parser.add_argument(
        "--durations",
        type=Path,
        metavar="PATH",
        help="also write each file's wall time there (tests/durations.json: the schedule)",
    )
    args = parser.parse_args(argv)
    print(report(args.folder, args.top))
    if args.durations:
        text = json.dumps(durations(args.folder), indent=1, ensure_ascii=False)
        args.durations.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
