"""bench/redis_memory.py's pieces that decide its figures: which family a key is
counted in, and the greedy player's line (a legal line that ends)."""

from __future__ import annotations

import pytest

from bench.redis_memory import PREFIX, family, greedy_line, parser
from server.patience import registry


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (f"{PREFIX}g:{{abc}}", "g:{…}"),
        (f"{PREFIX}g:{{abc}}:packed", "g:{…}:packed"),
        (f"{PREFIX}lb:{{crescent:2026-03-14}}", "lb:{…}"),
        (f"{PREFIX}lb:crescent:2026-03-14:who", "lb:SLUG:DATE:who"),
        (f"{PREFIX}rt:{{short}}:race:Ab_9-x", "rt:{…}:race:ID"),
        (f"{PREFIX}pl:{{ann}}:invites:491", "pl:{…}:invites:N"),
    ],
)
def test_keys_are_counted_by_family(key: str, expected: str) -> None:
    assert family(key) == expected


@pytest.mark.parametrize("slug", ["crescent", "short", "fifteen"])
def test_the_greedy_line_is_legal_and_ends(slug: str) -> None:
    game = registry.get(slug)
    state = game.deal(1)
    line = greedy_line(game, state)
    assert line
    for move in line:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


def test_help_names_every_figure_it_takes() -> None:
    text = parser().format_help()
    for option in ("--players", "--practice", "--races", "--year-games", "--json", "--save"):
        assert option in text
