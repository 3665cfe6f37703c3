"""Fair daily challenges (DESIGN.md): one seeded deal per patience per UTC day.

The seed of candidate ``k`` is ``uint64(HMAC-SHA256(secret, f"{date}:{slug}:{k}")[:8])``
(big-endian); the daily takes the smallest ``k`` that the solver does not prove
unwinnable. The commitment shown before and during the day is
``sha256(seed as 8 big-endian bytes + f"{date}:{slug}")`` in hex; after the day the
seed itself is shown, so anyone can check both.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from protocol import ErrorCode, ProtocolError

from .. import solver
from ..patience import registry
from ..patience.engine import Game
from ..store import Store
from .clock import Clock, utc_date

MAX_CANDIDATES = 64
SOLVER_BUDGET = 200_000  # nodes per candidate
Winnable = Callable[[Game, int, int], bool | None]


def candidate_seed(secret: bytes, date: str, slug: str, k: int) -> int:
    mac = hmac.new(secret, f"{date}:{slug}:{k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:8], "big")


def commitment(seed: int, date: str, slug: str) -> str:
    return hashlib.sha256(seed.to_bytes(8, "big") + f"{date}:{slug}".encode()).hexdigest()


def choose_seed(
    game: Game,
    secret: bytes,
    date: str,
    *,
    winnable: Winnable = solver.winnable,
    budget: int = SOLVER_BUDGET,
) -> tuple[int, int]:
    """``(seed, k)`` of the daily: the first candidate not proved unwinnable (an
    unknown verdict is accepted); candidate 0 if every one is refuted."""
    for k in range(MAX_CANDIDATES):
        seed = candidate_seed(secret, date, game.slug, k)
        if winnable(game, seed, budget) is not False:
            return seed, k
    return candidate_seed(secret, date, game.slug, 0), 0


class Dailies:
    def __init__(self, store: Store, clock: Clock, *, winnable: Winnable = solver.winnable):
        self.store = store
        self.clock = clock
        self.winnable = winnable
        self._secret: bytes | None = None
        self._cache: dict[tuple[str, str], tuple[int, str]] = {}

    def today(self) -> str:
        return utc_date(self.clock.now_ms())

    def revealed(self, date: str) -> bool:
        """Whether the day is over (its seeds may be shown)."""
        return date < self.today()

    async def secret(self) -> bytes:
        if self._secret is None:
            self._secret = await self.store.secret()
        return self._secret

    async def deal(self, date: str, slug: str, *, keep: bool = True) -> tuple[int, str]:
        """``(seed, commitment)`` of a daily; chosen once and kept in Redis (the first
        instance to choose wins) unless ``keep`` is false."""
        cached = self._cache.get((date, slug))
        if cached is not None:
            return cached
        stored = await self.store.daily(date)
        if f"seed:{slug}" not in stored:
            game = registry.get(slug)
            seed, k = choose_seed(game, await self.secret(), date, winnable=self.winnable)
            fields: dict[str, int | str] = {
                f"seed:{slug}": seed,
                f"k:{slug}": k,
                f"commitment:{slug}": commitment(seed, date, slug),
            }
            if not keep:
                return seed, commitment(seed, date, slug)
            await self.store.put_daily(date, fields)
            stored = await self.store.daily(date)
        result = int(stored[f"seed:{slug}"]), stored[f"commitment:{slug}"].decode()
        self._cache[(date, slug)] = result
        if len(self._cache) > 4096:
            self._cache.clear()
        return result

    def check_date(self, date: str | None) -> str:
        today = self.today()
        if date is None:
            return today
        if date > today:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no daily for {date} yet (today is {today})")
        return date
