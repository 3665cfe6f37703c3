"""The solver: can a deal be won, and how (see :mod:`.search`).

``solve`` searches a position for a certified winning line within a budget; ``hint``
gives the first move of one; ``certify`` replays a line through the rules.
"""

from __future__ import annotations

from .search import Outcome, Result, certify, hint, solve

__all__ = ["Outcome", "Result", "certify", "hint", "solve"]
