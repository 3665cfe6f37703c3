"""Conformance: every opening deal, derived independently from the shared specs.

Nothing here imports the project's generator or dealing helpers: the generator, the
shuffle and the set-aside are written again in :mod:`tests.conformance.reference`,
every game's dealing order, pile kinds and redeal in its module of
:mod:`tests.conformance.games`, and compared pile by pile with
``registry.get(slug).deal(seed)``. The other checks here, on every game: pile ids and
kinds, action names on the wire, what a view of the opening may show (PROTOCOL.md pile
objects) and redeals; the carpets' and the travellers' own rules are in test_carpet.py
and test_travellers.py.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from server.patience import registry

from .games import GAMES
from .games.travellers import FAMILY as TRAVEL_FAMILY
from .reference import MASK, SEEDS, SplitMix64, code, generator_after

#: every registered game, in the catalogue's order: each needs its Reference
SLUGS = registry.CATALOGUE


def test_generator_anchor() -> None:
    """Our own SplitMix64 against the published reference outputs for seed 0."""
    g = SplitMix64(0)
    assert [g.draw() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    g = SplitMix64(MASK)  # wraps mod 2**64
    g.draw()
    assert g.state == (MASK + 0x9E3779B97F4A7C15) & MASK


# -- each game's opening, from RULES.md (tests/conformance/games) --------------------


def test_every_game_is_covered() -> None:
    """Every registered game has its deal written again (a Reference in
    tests/conformance/games), and every Reference is of a registered game."""
    missing = [slug for slug in SLUGS if slug not in GAMES]
    assert not missing, f"no Reference in tests/conformance/games for {missing}"
    assert set(GAMES) <= set(SLUGS), sorted(set(GAMES) - set(SLUGS))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", SLUGS)
def test_opening_deal(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    want = GAMES[slug].deal(seed)
    assert sorted(game.ids) == sorted(want), "pile ids"
    for pid in game.ids:
        assert list(game.pile(state, pid)) == want[pid], f"{slug} seed {seed} pile {pid}"
    every = sorted(c for p in want.values() for c in p)
    assert every == list(range(52 * game.decks))  # Decision 11: every card in a pile


# -- pile ids and kinds (Decision 10, each game's components table) -------------------

PROTOCOL_KINDS = {"foundation", "tableau", "stock", "waste", "reserve", "cell", "grid", "discard"}


@pytest.mark.parametrize("slug", SLUGS)
def test_pile_ids_and_kinds(slug: str) -> None:
    game = registry.get(slug)
    view = game.view(game.deal(0))
    got = {p["id"]: p["kind"] for p in view["piles"]}
    assert list(got) == list(game.ids)
    assert got == GAMES[slug].kinds
    assert set(got.values()) <= PROTOCOL_KINDS


# -- the view of the opening: what is hidden (PROTOCOL.md, Decisions 1, 7, 11) -------


@pytest.mark.parametrize("seed", (0, 2**64 - 1))
@pytest.mark.parametrize("slug", SLUGS)
def test_opening_view(slug: str, seed: int) -> None:
    game = registry.get(slug)
    state = game.deal(seed)
    view = game.view(state)
    assert set(view) >= {"piles", "info"}
    total = 0
    for pile in view["piles"]:
        pid = pile["id"]
        assert {"id", "kind", "label", "cards", "x", "y", "fan"} <= set(pile), pid
        assert set(pile) <= {
            "id",
            "kind",
            "label",
            "name",
            "n",
            "cards",
            "x",
            "y",
            "fan",
            "orient",
            "base",
        }
        assert isinstance(pile["label"], str)
        assert isinstance(pile["x"], int) and isinstance(pile["y"], int)
        assert pile["fan"] in {"none", "down", "right"}
        cards = list(game.pile(state, pid))
        total += len(pile["cards"])
        assert len(pile["cards"]) == len(cards), pid
        if pid in GAMES[slug].hidden:
            want: list[str | None] = [None] * len(cards)
        elif pid in GAMES[slug].squared:
            want = [None] * (len(cards) - 1) + [code(cards[-1])] if cards else []
        else:
            want = [code(c) for c in cards]
        assert pile["cards"] == want, f"{slug} {pid}"
        if pile["kind"] == "grid":  # Decision 5: vertical where (row+col) is even
            r, c = int(pid[1]), int(pid[2])
            assert pile["orient"] == ("v" if (r + c) % 2 == 0 else "h")
        if pile.get("orient") is not None:
            assert pile["orient"] in {"v", "h"}
    assert total == 52 * game.decks  # Decision 11


# -- action names (Decision 8) and the wire form of moves -----------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_action_names(slug: str) -> None:
    game = registry.get(slug)
    actions = GAMES[slug].actions
    assert set(game.actions) == actions
    for name in {
        "deal",
        "redeal",
        "shift",
        "swap",
        "grace",
        "travel",
        "spread",
        "next_row",
        "pick_up",
        "nextRow",
        "pickUp",
        "draw",
    } - actions:
        with pytest.raises(ValueError):
            game.parse_move({"action": name})


@pytest.mark.parametrize("seed", (0, 1, 2))
@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_speaks_the_wire(slug: str, seed: int) -> None:
    """Random playouts: every legal move is a PROTOCOL.md move on this game's pile ids
    and action names, and survives the wire round trip."""
    game = registry.get(slug)
    spread_sources = GAMES[slug].spread_sources
    rnd = random.Random(f"{slug}:{seed}")
    state = game.deal(seed)
    seen: set[str] = set()
    for _ in range(400):
        legal = game.legal_moves(state)
        if not legal:
            break
        for move in legal:
            wire = move.to_wire()
            if "action" in wire:
                assert wire["action"] in GAMES[slug].actions, wire
                seen.add(wire["action"])
            else:
                assert set(wire) <= {"from", "to", "index"}, wire
                assert wire["from"] in game.ids and wire["to"] in game.ids, wire
                if "index" in wire:
                    assert wire["from"] in spread_sources, wire
                else:
                    assert wire["from"] not in spread_sources, wire
            assert game.parse_move(wire) == move
        state = game.apply(state, rnd.choice(legal))
        assert sum(len(p) for p in state.piles) == 52 * game.decks
        check_hidden(slug, game, state)


def check_hidden(slug: str, game: Any, state: Any) -> None:
    """During play: the stock never shows (Decision 7), Crescent's piles stay squared
    (Decision 1), the travellers show at most their turned-up top card, the kings'
    reserve nothing until it is spread (Part B §5.4), and the encoded view never
    carries the generator state (DESIGN.md)."""
    view = game.view(state)
    info = view["info"]
    for pile in view["piles"]:
        pid, cards = pile["id"], pile["cards"]
        if pile["kind"] == "stock":
            assert set(cards) <= {None}, (slug, pid)
        if slug == "crescent" and pid.startswith("T"):
            assert set(cards[:-1]) <= {None}, pid
        if slug in TRAVEL_FAMILY:
            if pid == "T":
                assert set(cards[:-1]) <= {None}
                if cards and cards[-1] is not None:
                    assert info.get("drawn") is True
            if pid == "R" and not info.get("reserve_spread"):
                assert set(cards) <= {None}
    blob = msgpack.packb(view)
    assert b"\xcf" + state.rng.to_bytes(8, "big") not in blob or state.rng < 2**32


# -- redeals and shifts: the gathered order and the continuing generator --------------

#: the games that redeal (or shift), in the catalogue's order
REDEALING = tuple(slug for slug, game in GAMES.items() if game.redeal is not None)


@pytest.mark.parametrize("seed", (0, 1, 7, 2**64 - 1))
@pytest.mark.parametrize("slug", REDEALING)
def test_redeals_follow_the_rules(slug: str, seed: int) -> None:
    game = registry.get(slug)
    after_redeal = GAMES[slug].redeal
    assert after_redeal is not None
    g = generator_after(game.decks, seed, GAMES[slug].aside)
    rnd = random.Random(f"redeal:{slug}:{seed}")
    state = game.deal(seed)
    done = 0
    for _ in range(3000):
        legal = game.legal_moves(state)
        if not legal:
            break
        special = [m for m in legal if m.action in {"redeal", "shift"}]
        others = [m for m in legal if m.action not in {"redeal", "shift"}]
        if special and (not others or rnd.random() < 0.05):
            before = {pid: list(game.pile(state, pid)) for pid in game.ids}
            state = game.apply(state, special[0])
            want = after_redeal(before, g)
            for pid in game.ids:
                assert list(game.pile(state, pid)) == want[pid], (slug, seed, done, pid)
            done += 1
        else:
            state = game.apply(state, rnd.choice(others))
    assert done, f"{slug} seed {seed}: no redeal reached"
