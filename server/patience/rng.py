"""The portable deal generator: SplitMix64 and a Fisher–Yates shuffle.

Exactly as docs/architecture.md (Deals) specifies, so that a client in any language
can reproduce a deal from its seed. The generator state is a plain int, kept inside the game state
(hidden, persisted) so that shuffles during play continue the same sequence.
"""

from __future__ import annotations

from typing import TypeVar

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def next64(state: int) -> tuple[int, int]:
    """One SplitMix64 draw: returns ``(new_state, value)``."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def uniform(state: int, m: int) -> tuple[int, int]:
    """An unbiased draw in ``[0, m)`` by rejection: returns ``(new_state, value)``."""
    if m <= 0:
        raise ValueError("m must be positive")
    limit = (1 << 64) - ((1 << 64) % m)
    while True:
        state, x = next64(state)
        if x < limit:
            return state, x % m


def shuffle(items: list[T], state: int) -> int:
    """Shuffle ``items`` in place (Fisher–Yates from the end); return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = uniform(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def check_seed(seed: int) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK:
        raise ValueError(f"seed must be an int in [0, 2**64), not {seed!r}")
    return seed
