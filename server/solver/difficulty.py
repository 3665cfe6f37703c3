"""How hard a certified daily is, 1 (easy) to 3 (hard), from what the solver learned
choosing it: the length of its par line against the game's median par, and the nodes
its search spent against the nodes a candidate may spend (docs/solver.md,
"Difficulty"). Nothing but the stored choice goes in, so a day's difficulty is the
same on every instance and every time it is asked.
"""

from __future__ import annotations

from .daily import Choice

#: each game's median par of the certified deals 0–499 at 20,000 nodes
#: (docs/winnability.md, "500 deals a game"; St Helena's with its estimate)
MEDIAN_PAR: dict[str, float] = {
    "crescent": 136,
    "picture_gallery": 248,
    "first_and_last": 268,
    "short": 112,
    "st_helena": 235,
    "fifteen": 151,
    "hemispheres": 220,
    "hand_reserve": 59,
    "carpet": 131,
    "squaring_circle": 133,
    "parade": 104,
    "travellers": 118,
    "travellers_aces": 129,
    "cotillion": 121.5,
    "travellers_classic": 126,
    "little_packs": 137,
}


def difficulty(choice: Choice, slug: str, candidate_nodes: int) -> int:
    """1–3 for the daily ``choice`` of ``slug``; ``candidate_nodes`` the nodes a
    candidate of the game may spend (the scan's budget). Not certified: 3."""
    if not choice.certified or choice.par is None:
        return 3
    ratio = choice.par / MEDIAN_PAR.get(slug, choice.par)
    by_length = 0 if ratio < 0.9 else 1 if ratio <= 1.1 else 2
    if choice.win_nodes <= 0:  # chosen before the nodes were noted: the middle
        by_search = 1
    else:
        spent = choice.win_nodes / max(1, candidate_nodes)
        by_search = 0 if spent < 0.25 else 1 if spent < 0.75 else 2
    score = by_length + by_search
    return 1 if score <= 1 else 2 if score == 2 else 3
