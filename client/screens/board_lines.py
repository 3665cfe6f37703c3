"""The board's title line: a game's titles, its mode and deal, and what a narrow
terminal cuts first when they do not fit (:func:`fit_heading`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

from ..lang import N_, _
from ..text import Titles, game_name, title, title_in

#: the start of an unproven daily's label ("unproven" in a narrow title; the end screen
#: and the home screen say it whole)
UNPROVEN_WORD = N_("not proven winnable")
#: what the title adds to "assisted" where there is room
NOT_RANKED = N_("(not ranked)")
#: the board's layouts (client.drawing's densities) in words
LAYOUT_WORDS = {
    "full": N_("full"),
    "tight": N_("tight"),
    "narrow": N_("narrow"),
    "compact": N_("compact"),
    "cramped": N_("cramped"),
    "dense": N_("dense"),
    "densest": N_("densest"),
    "tightest": N_("tightest"),
}


def fit_heading(slug: str, titles: Titles, rest: Sequence[str], layout: str, width: int) -> str:
    """``Title · rest… · LAYOUT layout`` in ``width`` cells if it can be: the game's
    title as :func:`title` gives it (in English the Russian after it), else its name
    in the player's language alone, else the layout's name without the word
    ``layout``, else no layout's name, else the shorter of its two titles — never its
    slug; at each step an unproven daily's label may shrink to "unproven" and
    "assisted (not ranked)" to "assisted" (the mode, the deal and its commitment are
    never the part cut)."""
    name = game_name(slug, titles)
    shorter = min(title_in(slug, titles, "ru"), title_in(slug, titles, "en"), key=cell_len)
    layout = _(LAYOUT_WORDS[layout]) if layout in LAYOUT_WORDS else layout
    tail = [_("{layout} layout", layout=layout)] if layout else []
    short = [layout] if layout else []
    line = ""
    tries: list[tuple[str, list[str]]] = [
        (title(slug, titles), tail),
        (name, tail),
        (name, short),
        (shorter, short),
        (shorter, []),
    ]
    # A daily not proven winnable says so in a word when its label does not fit, and
    # then the board's layout (a narrow terminal shows it) gives way before the title.
    compact = [
        _("unproven") if r.startswith(_(UNPROVEN_WORD)) else r.replace(f" {_(NOT_RANKED)}", "")
        for r in rest
    ]
    tries[3:3] = [(name, [])]
    for name, end in tries:
        for parts in (rest, compact):
            line = " · ".join([name, *parts, *end])
            if cell_len(line) <= width:
                return line
    return line
