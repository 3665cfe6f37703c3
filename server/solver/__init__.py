"""The solver: can a deal be won, and how (see :mod:`.search`).

``solve`` searches a position for a certified winning line within a budget; ``hint``
gives the first move of one; ``certify`` replays a line through the rules;
:mod:`.daily` chooses a daily: its candidate deals scanned for the first certified one;
:mod:`.tuning` holds each game's solver settings.
"""

from __future__ import annotations

from .daily import Budget, Choice, choose
from .search import Outcome, Result, certify, cut_line, hint, solve
from .tuning import TUNING, Tuning, candidate_nodes, tuning

__all__ = [
    "TUNING",
    "Budget",
    "Choice",
    "Outcome",
    "Result",
    "Tuning",
    "candidate_nodes",
    "certify",
    "choose",
    "cut_line",
    "hint",
    "solve",
    "tuning",
]
