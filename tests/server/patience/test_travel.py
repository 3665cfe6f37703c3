"""The Travellers family's shared machinery (server/patience/travel.py): the counting
deal and the journey of seed 004, with the seed's own examples; plus the helpers the
five games' tests share."""

from __future__ import annotations

import random
import signal
from collections import Counter
from collections.abc import Callable, Container, Iterator, Mapping
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.winrate import Greedy, wilson
from server.patience.cards import KING, QUEEN, RANKS, code, parse, rank
from server.patience.engine import AnyGame, AnyState, State
from server.patience.rules import step
from server.patience.travel import (
    DOWN_FROM_ACE,
    UP_FROM_KING,
    Count,
    TravelGame,
    TravelVars,
    count_deal,
    direction,
    journey,
)

MAIN = Count((1, 13, *range(12, 1, -1)))
COTILLION = Count(MAIN.ranks, bases=KING)
CLASSIC = Count(tuple(range(1, 14)), reserve_at=12)
LITTLE = Count(tuple(range(1, 14)))


# -- helpers for the games' tests ---------------------------------------------------------


def cards(text: str) -> list[int]:
    """Card ids of space-separated codes, deck 0 (the journey does not care)."""
    return [parse(t) for t in text.split()]


def codes(game: AnyGame, state: AnyState, pid: str) -> str:
    return " ".join(code(c) for c in game.pile(state, pid))


def build(
    game: TravelGame,
    table: Mapping[str, str],
    found: Mapping[str, tuple[str, int]] | None = None,
    *,
    rest: str | None = None,
    vars: TravelVars | None = None,
) -> State[TravelVars]:
    """A hand-built position: ``table`` gives piles as codes bottom→top; ``found`` gives
    a foundation's suit and height (its cards follow the pile's direction); with
    ``rest`` every card not yet placed goes under that pile, so no card is lost."""
    pool = set(range(104))

    def take(text: str) -> int:
        c = parse(text)
        if c not in pool:
            c += 52
        pool.remove(c)
        return c

    piles: dict[str, list[int]] = {
        pid: [take(t) for t in text.split()] for pid, text in table.items()
    }
    for fid, (s, n) in (found or {}).items():
        rule = game.f_rule[game.at[fid]]
        r, pile = rule.first, []
        for _ in range(n):
            pile.append(take(RANKS[r - 1] + s))
            r = step(r, rule.by, rule.wrap)
        piles[fid] = pile
    if rest is not None:
        piles[rest] = sorted(pool) + piles.get(rest, [])
    return game.new_state(piles, vars)


def rederive(
    pack: list[int],
    ranks: tuple[int, ...],
    *,
    reserve_at: int = -1,
    bases: int = 0,
    row: bool = False,
) -> tuple[list[list[int]], list[int], list[int], list[int], int]:
    """The counting deal as RULES.md §5.1 writes it, re-derived independently of
    travel.count_deal: (piles, travellers, reserve, bases, cards used)."""
    piles: list[list[int]] = [[] for _ in ranks]
    trav: list[int] = []
    res: list[int] = []
    base: list[int] = []
    pos = 0
    for k, c in enumerate(pack):
        if c % 13 + 1 == bases:
            base.append(c)
        elif pos == reserve_at:
            res.append(c)
            pos += 1
        elif c % 13 + 1 == ranks[pos]:
            trav.append(c)
        else:
            piles[pos].append(c)
            pos += 1
        if pos == len(ranks):
            pos = 0
            if row:
                return piles, trav, res, base, k + 1
    return piles, trav, res, base, len(pack)


def auto(game: AnyGame, state: AnyState, limit: int = 10_000) -> AnyState:
    """Play the forced actions until a card move (a choice or a play) is legal."""
    for _ in range(limit):
        move = game.forced_move(state)
        if move is None:
            return state
        state = game.apply(state, move)
    raise AssertionError("forced steps never ended")


# -- the counting deal ------------------------------------------------------------------


def test_a_match_is_set_aside_and_the_count_stays() -> None:
    """Seed (а): saying "king" the player lays a real king: it goes aside and the next
    card goes on the same place, again with "king"."""
    dealt = count_deal(cards("5S KH KS 9D QC 2H"), MAIN)
    assert dealt.piles[0] == cards("5S")  # "ace"
    assert dealt.travellers == cards("KH KS QC")  # "king", "king"; later "queen"
    assert dealt.piles[1] == cards("9D")  # still "king"
    assert dealt.piles[2] == cards("2H")  # "queen" again after QC
    assert dealt.used == 6


def test_the_count_runs_on_through_the_whole_deck() -> None:
    """Little Packs counts A, 2, …, K round and round: the 14th card is counted "ace"."""
    dealt = count_deal(cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AH 2H KC"), LITTLE)
    assert dealt.travellers == cards("AH")
    assert dealt.piles[0] == cards("2S 2H")
    assert dealt.piles[1] == cards("3S KC")
    assert dealt.piles[12] == cards("AS")
    assert [len(p) for p in dealt.piles] == [2, 2] + [1] * 11


def test_cotillion_kings_go_to_the_bases_and_the_king_slot_to_the_kings_pile() -> None:
    """Seed: kings «которых в процессе раскладки выкладывают в базовый ряд»; the cards
    dealt at the call "king" form «стопка «королей»», the table pile P2."""
    deck = cards("4S KH 7D KC 9C 3H QS")
    dealt = count_deal(deck, COTILLION)
    assert dealt.bases == cards("KH KC")  # kings wherever they come, count stays
    assert dealt.piles[0] == cards("4S")
    assert dealt.piles[1] == cards("7D")  # the card at "king", whatever it is
    assert dealt.reserve == []
    assert dealt.piles[2] == cards("9C")  # "queen"
    assert dealt.piles[3] == cards("3H")  # "jack"
    assert dealt.piles[4] == cards("QS")  # "ten"


def test_classic_rows_end_at_the_king() -> None:
    """Seed (б): at "queen" a real queen goes to the left pile and the next card is
    again "queen"; at "king" the card goes to the right pile and the row ends."""
    deck = cards("5S 3D 3H 4C 9S 6D 2C 8H 4H TD 5C 2H QH QS 7C 5H 6H")
    dealt = count_deal(deck, CLASSIC, [[] for _ in range(12)], one_row=True)
    assert dealt.travellers == cards("3H QH QS")
    assert [p[0] for p in dealt.piles] == cards("5S 3D 4C 9S 6D 2C 8H 4H TD 5C 2H 7C")
    assert dealt.reserve == cards("5H")
    assert dealt.used == 16  # 6H waits for the next row
    assert rederive(deck, CLASSIC.ranks, reserve_at=12, row=True)[4] == 16


@settings(max_examples=40, deadline=None)
@given(
    walk=st.randoms(use_true_random=False),
    which=st.sampled_from([MAIN, COTILLION, CLASSIC, LITTLE]),
)
def test_count_deal_matches_the_written_procedure(walk: random.Random, which: Count) -> None:
    deck = list(range(104))
    walk.shuffle(deck)
    dealt = count_deal(deck, which)
    piles, trav, res, base, used = rederive(
        deck, which.ranks, reserve_at=which.reserve_at, bases=which.bases
    )
    assert (dealt.piles, dealt.travellers, dealt.reserve, dealt.bases, dealt.used) == (
        piles,
        trav,
        res,
        base,
        used,
    )
    for i, pile in enumerate(dealt.piles):
        assert all(rank(c) != which.ranks[i] for c in pile)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail (rather than hang) when the block runs longer than ``seconds``."""

    def stop(signum: int, frame: object) -> None:
        raise AssertionError("the journey does not end")

    old = signal.signal(signal.SIGALRM, stop)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, outer)  # an enclosing deadline goes on
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(autouse=True)
def no_test_hangs() -> Iterator[None]:
    with deadline(60.0):
        yield


# -- the journey ------------------------------------------------------------------------

LABELS = tuple(range(1, 13))  # the Classic's piles A, 2, …, Q


def walk(
    piles: list[list[int]],
    labels: tuple[int, ...],
    card: int,
    fits: Callable[[int], bool],
    spread: Container[int] = (),
) -> int:
    """:func:`journey`, failing instead of hanging if it never ends (a journey takes
    microseconds: the guard is generous so that only a hang trips it)."""
    with deadline(30.0):
        return journey(piles, labels, card, fits, spread)


def table(**piles: str) -> list[list[int]]:
    """Twelve piles A..Q; keyword ``p1``…``p12`` gives a pile's codes."""
    return [cards(piles.get(f"p{i}", "")) for i in range(1, 13)]


def test_seed_example_ace_under_a_pile_whose_top_is_an_ace() -> None:
    """Seed (б): the queen goes under pile Q; its top, an ace, goes under pile A; pile
    A already shows an ace on top: the journey stops."""
    piles = table(p12="3C AH", p1="7D AD")
    steps = walk(piles, LABELS, parse("QS"), lambda c: False)
    assert piles[11] == cards("QS 3C")
    assert piles[0] == cards("AH 7D AD")
    assert steps == 2


def test_the_journey_goes_on_until_a_playable_card_is_uncovered() -> None:
    """Seed (б): the ace goes under pile A, from whose top the next card travels, …;
    it stops when a card that fits a foundation comes to the top (rule a)."""
    piles = table(p12="3C AH", p1="7D 5H", p5="8S 9C", p9="4C JD")
    playable = parse("8S")
    steps = walk(piles, LABELS, parse("QD"), lambda c: c == playable)
    assert piles[11] == cards("QD 3C")
    assert piles[0] == cards("AH 7D")
    assert piles[4] == cards("5H 8S")  # 9C left, uncovering 8S: stop
    assert piles[8] == cards("9C 4C JD")
    assert steps == 4


def test_a_traveller_under_an_empty_pile_stays_on_top() -> None:
    piles = table(p7="")
    assert walk(piles, LABELS, parse("7H"), lambda c: False) == 1
    assert piles[6] == cards("7H")


def test_a_card_fed_to_an_empty_pile_ends_the_journey() -> None:
    piles = table(p3="5D", p5="2C JS")
    assert walk(piles, LABELS, parse("3S"), lambda c: False) == 3
    # 3S under pile 3 → its top 5D under pile 5 → JS under the empty pile J, where it
    # is its own top: stop (rule b)
    assert piles[2] == cards("3S")
    assert piles[4] == cards("5D 2C")
    assert piles[10] == cards("JS")


def test_a_card_reaching_a_spread_pile_stays_there() -> None:
    labels = tuple(range(1, 14))
    piles: list[list[int]] = [[] for _ in range(13)]
    piles[2] = cards("KD")
    piles[12] = cards("6H 9H")
    walk(piles, labels, parse("3C"), lambda c: False, spread={12})
    assert piles[2] == cards("3C")
    assert piles[12] == cards("6H 9H KD")  # added on top, playable by itself
    piles[12] = cards("6H")
    assert walk(piles, labels, parse("KS"), lambda c: False, spread={12}) == 1
    assert piles[12] == cards("6H KS")


@settings(max_examples=60, deadline=None)
@given(
    rnd=st.randoms(use_true_random=False),
    which=st.sampled_from([MAIN, CLASSIC, LITTLE]),
    playable=st.floats(min_value=0.0, max_value=0.3),
)
def test_every_journey_ends(rnd: random.Random, which: Count, playable: float) -> None:
    """Over random deals and random foundations, each traveller's journey ends within
    one move per card, keeps every card, and ends by one of its stop rules."""
    deck = [c for c in range(104) if not (which is CLASSIC and rank(c) == KING)]
    rnd.shuffle(deck)
    n = 12 if which is CLASSIC else 13
    dealt = count_deal(deck, which, [[] for _ in range(n)])
    labels = which.ranks[:n]
    spread = {12} if which is LITTLE else set()
    fit = {c for c in deck if rnd.random() < playable}

    def fits(c: int) -> bool:
        return c in fit

    piles = [list(p) for p in dealt.piles]
    everything = Counter(c for p in piles for c in p) + Counter(dealt.travellers)
    for t in reversed(dealt.travellers):
        if which is CLASSIC and rank(t) == KING:
            continue
        steps = walk(piles, labels, t, fits, spread)
        assert 1 <= steps <= len(deck)
    assert Counter(c for p in piles for c in p) == everything
    for i, pile in enumerate(piles):
        if i not in spread:
            # only cards of its rank are ever put under a pile
            wrong = [rank(c) != labels[i] for c in pile]
            assert wrong == sorted(wrong), "a pile's own-rank cards lie at its bottom"


def test_direction_names() -> None:
    assert direction(DOWN_FROM_ACE) == "A→2"
    assert direction(UP_FROM_KING) == "K→Q"


@pytest.mark.parametrize("count", [MAIN, COTILLION, CLASSIC, LITTLE])
def test_count_lists_have_thirteen_places(count: Count) -> None:
    assert len(count.ranks) == 13 and QUEEN in count.ranks


# -- bench/winrate.py ---------------------------------------------------------------------


def test_wilson_interval() -> None:
    low, high = wilson(0, 200)
    assert low == 0 and high == pytest.approx(0.0188, abs=1e-4)
    assert wilson(50, 50)[1] == 1
    low, high = wilson(113, 200)
    assert low == pytest.approx(0.4957, abs=1e-4) and high == pytest.approx(0.6318, abs=1e-4)


def test_winrate_plays_a_deal_greedily_to_its_end() -> None:
    from server.patience import registry

    game = registry.get("travellers_classic")
    played = Greedy(game).play(0)
    assert played.end in ("won", "lost", "resigned")
    assert 0 < played.moves < 2000 and 8 <= played.founded <= 104
    assert (played.end == "won") == (played.founded == 104)
