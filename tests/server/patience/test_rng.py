"""Published test vectors for the portable generator, so any client can check itself."""

from server.patience import cards
from server.patience.engine import shuffled
from server.patience.rng import MASK, next64, shuffle, uniform

# SplitMix64 from state 0: the reference sequence of Vigna's splitmix64.c.
SPLITMIX_FROM_0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
SPLITMIX_FROM_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


def draws(seed: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        seed, value = next64(seed)
        out.append(value)
    return out


def test_splitmix64_reference_vectors() -> None:
    assert draws(0, 3) == SPLITMIX_FROM_0
    assert draws(1234567, 5) == SPLITMIX_FROM_1234567


def test_state_wraps_mod_2_64() -> None:
    state, _ = next64(MASK)
    assert state == (MASK + 0x9E3779B97F4A7C15) & MASK


def test_uniform_rejects_the_biased_tail() -> None:
    # m = 3: 2**64 % 3 == 1, so the single value 2**64 - 1 would be rejected;
    # every accepted value maps to x % m.
    state = 42
    for _ in range(100):
        new_state, x = uniform(state, 3)
        _, raw = next64(state)
        assert 0 <= x < 3
        if raw < (1 << 64) - 1:
            assert x == raw % 3
        state = new_state


def test_shuffle_is_fisher_yates_from_the_end() -> None:
    items = list(range(5))
    state = shuffle(items, 7)
    expected = list(range(5))
    s = 7
    for i in range(4, 0, -1):
        s, j = uniform(s, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and state == s


# The first 13 cards of a one-deck shuffle of seed 0 and of seed 2**64 - 1, as wire
# codes: a vector for other implementations of the deal.
def test_one_deck_shuffle_vectors() -> None:
    _, pack0, _ = shuffled(1, 0)
    _, pack_max, _ = shuffled(1, MASK)
    assert sorted(pack0) == list(range(52))
    assert [cards.code(c) for c in pack0[:13]] == SHUFFLE_SEED_0
    assert [cards.code(c) for c in pack_max[:13]] == SHUFFLE_SEED_MAX


def test_set_aside_takes_the_lowest_ids_in_order() -> None:
    aside, pack, _ = shuffled(2, 5, set_aside=[(1, 0), (1, 0), (13, 3)])
    assert aside == [0, 52, 51]
    assert len(pack) == 101 and not set(aside) & set(pack)


SHUFFLE_SEED_0 = ["8C", "JD", "9S", "2C", "2H", "QH", "6C", "TS", "3H", "AS", "JS", "7S", "9D"]
SHUFFLE_SEED_MAX = ["JS", "KC", "7C", "4S", "AH", "JD", "5H", "2D", "AD", "7H", "6H", "6C", "4H"]
