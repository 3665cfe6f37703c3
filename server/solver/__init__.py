"""The solver: can a deal be won, and how (see :mod:`.search`).

``solve`` searches a position for a certified winning line within a budget; ``hint``
gives the first move of one; ``certify`` replays a line through the rules;
``certify_daily`` scans a daily's candidate deals for the first certified one;
:mod:`.tuning` holds each game's solver settings.
"""

from __future__ import annotations

from .daily import Daily, certify_daily, daily_seeds
from .search import Outcome, Result, certify, cut_line, hint, solve
from .tuning import TUNING, Tuning, candidate_nodes, tuning

__all__ = [
    "TUNING",
    "Daily",
    "Outcome",
    "Result",
    "Tuning",
    "candidate_nodes",
    "certify",
    "certify_daily",
    "cut_line",
    "daily_seeds",
    "hint",
    "solve",
    "tuning",
]
