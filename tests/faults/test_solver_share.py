"""Ten accounts of one address crowd the solver (issue 46, item 3): each keeps a hint
in flight, as an attacker behind one address would (registrations are under the
address's 20 an hour). The address holds ``--solver-per-address`` places, no more —
the others are told ``unavailable`` — and an honest player of another address gets the
next free solver worker, before the flooding address's waiting searches.

The searches are a stand-in for ``jobs.find_line``: the attackers' run until the test
releases them one at a time, the honest player's answers at once; so nothing here
depends on the machine's speed (``python -m bench.solver_flood`` measures the real
searches' times)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from server.net import App
from server.solver import jobs
from tests.support import GUARD, TestClient, connect, eventually, running_app
from tests.support.fixtures import redis_server, redis_url, unique_name

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here

ATTACKERS = 10
#: the game the attackers ask hints on (held); the honest player's answers at once
HELD_GAME, HONEST_GAME = "crescent", "short"


class Held:
    """``jobs.find_line``'s stand-in: a search of :data:`HELD_GAME` runs until the
    test releases one (:meth:`release`); any other answers "no win found" at once."""

    def __init__(self) -> None:
        self.gate = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.entered = 0

    def __call__(self, slug: str, state: bytes, nodes: int, seconds: float) -> jobs.Found:
        if slug == HELD_GAME:
            with self.lock:
                self.entered += 1
            self.gate.acquire(timeout=4 * GUARD)  # a hang guard only
        return jobs.Found(None, nodes, "unknown")

    def release(self, n: int = 1) -> None:
        self.gate.release(n)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    stand_in = Held()
    monkeypatch.setattr(jobs, "find_line", stand_in)
    yield stand_in
    stand_in.release(100)  # never leave a thread blocked behind a failed test


@pytest.fixture
async def app(redis_url: str) -> AsyncIterator[App]:
    # behind a balancer on this machine: each player's address is the one it forwards
    async with running_app(redis_url, trusted_proxies="127.0.0.1") as app:
        yield app


def client(app: App, address: str) -> contextlib.AbstractAsyncContextManager[TestClient]:
    """A player whose address (the balancer forwards it) is ``address``."""
    url = f"ws://127.0.0.1:{app.port}/ws"
    return connect(url, additional_headers={"X-Forwarded-For": address})


@contextlib.asynccontextmanager
async def clients(app: App, address: str, n: int) -> AsyncIterator[list[TestClient]]:
    """``n`` players of one address."""
    async with contextlib.AsyncExitStack() as stack:
        yield [await stack.enter_async_context(client(app, address)) for _ in range(n)]


async def hint_on(c: TestClient, game: str) -> str:
    await c.register(unique_name("sq"))
    state = await c.start(game, "deal", seed=3)
    return str(state["game_id"])


async def test_ten_accounts_of_one_address_leave_an_honest_hint_its_place(
    app: App, held: Held
) -> None:
    assert app.pool is not None
    pool, share = app.pool, app.settings.solver_per_address
    async with clients(app, "198.51.100.66", ATTACKERS) as bad:
        games = [await hint_on(c, HELD_GAME) for c in bad]
        asking = [
            asyncio.create_task(c.request("hint", game_id=g))
            for c, g in zip(bad, games, strict=True)
        ]
        # the address holds its share of places, running or waiting; the rest are told
        # to come back
        await eventually(lambda: sum(t.done() for t in asking) == ATTACKERS - share)
        refused = [t.result() for t in asking if t.done()]
        for reply in refused:
            assert reply["ok"] is False and reply["error"]["code"] == "unavailable", reply
            assert reply["error"]["retry_after"] >= 1 and "address" in reply["error"]["message"]
        await eventually(lambda: held.entered == pool.size, what="every worker busy")
        assert pool.snapshot().queued["player"] == share - pool.size
        async with client(app, "203.0.113.9") as honest:
            game = await hint_on(honest, HONEST_GAME)
            hint = asyncio.create_task(honest.request("hint", game_id=game))
            await eventually(lambda: pool.snapshot().queued["player"] == share - pool.size + 1)
            held.release()  # one worker comes free: it is the honest player's
            reply = await hint
            assert reply["ok"] is True, reply
            assert reply["move"] is None and reply["message"] == "no win found from here"
            # answered before the flooding address's waiting searches ran
            answered = [t for t in asking if t.done() and t.result()["ok"]]
            assert len(answered) == 1
        held.release(ATTACKERS)
        for task in asking:
            await task
