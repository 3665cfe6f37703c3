"""What the fault tests read from outside a server process: its children (the
embedded redis-server), its resident memory, its ``/metrics`` counters."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux: every thread's ``children``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found += [int(x) for x in text.split()]
    return found


def command(pid: int) -> str:
    """The process's command name (``comm``), '' once it is gone."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def rss_kib(pid: int) -> int:
    """The process's resident set size (``VmRSS``) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def open_fds(pid: int) -> int:
    return sum(1 for _ in Path(f"/proc/{pid}/fd").iterdir())


def op_counts(port: int) -> dict[tuple[str, str], float]:
    """``pasyans_ops_total`` of a server on loopback: (op, result) → count."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        body = r.read().decode()
    counts: dict[tuple[str, str], float] = {}
    pattern = r'^pasyans_ops_total\{op="([^"]*)",result="([^"]*)"\} (\S+)$'
    for op, result, value in re.findall(pattern, body, re.MULTILINE):
        counts[op, result] = float(value)
    return counts
