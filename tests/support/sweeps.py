"""How far the tests' seeded sweeps go (issue 45, the 3-minute suite).

Every run takes the short form: the seed ranges, hypothesis examples and sample
sizes that still find the bugs those tests were written for (each test keeps the
fixed seeds that once showed one). The long form, the ranges the tests had before or
larger, runs with ``PASYANS_LONG_SWEEPS=1``::

    PASYANS_LONG_SWEEPS=1 .venv/bin/python -m pytest -q -n 2 tests/server

Run it after changing the rules of a game or the solver (tests/README.md, "Long
sweeps" lists the tests that have one).
"""

from __future__ import annotations

import os

__all__ = ["LONG", "sweep"]

#: whether this run takes the long form
LONG = os.environ.get("PASYANS_LONG_SWEEPS", "") not in ("", "0")


def sweep(short: int, long: int) -> int:
    """``long`` under ``PASYANS_LONG_SWEEPS=1``, else ``short``."""
    return long if LONG else short
