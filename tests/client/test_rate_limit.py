"""The client keeps to the server's rate limit: it paces itself by the ``limits``
that ``register``/``auth`` give, and sends a ``rate_limited`` request again after
its ``retry_after``, so a script of any length completes."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import time

import pytest

from client import config
from client.cli import EXIT_OK, main
from client.connection import Connection, Pacer, ServerError
from tests.support import GUARD, running_app

from .conftest import LIMITED_BURST, LIMITED_RATE, fresh_name

#: lines of the long script: forty times the burst, so that all but the first few wait
#: for the bucket to refill (at the test server's 50 a second, about 4 s). The script's
#: length changes nothing in how it is paced: ``PASYANS_SCRIPT_LINES=1000`` runs the
#: thousand lines this test ran before (20 s).
SCRIPT_LINES = int(os.environ.get("PASYANS_SCRIPT_LINES", "200")) // 2 * 2


def test_a_long_script_completes_at_the_servers_pace(
    limited_server_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """200 lines of deal/undo against a burst of five: none refused, rc 0."""
    assert SCRIPT_LINES >= 20 * LIMITED_BURST  # far more than the bucket holds
    pairs = SCRIPT_LINES // 2
    monkeypatch.setenv(config.SERVER_ENV, limited_server_url)
    assert main(["register", fresh_name()]) == EXIT_OK
    monkeypatch.setattr(sys, "stdin", io.StringIO("deal\nundo\n" * pairs))
    capsys.readouterr()
    code = main(["play", "short", "--deal", "5", "--script"])
    out = capsys.readouterr().out
    assert "rate_limited" not in out
    assert code == EXIT_OK
    assert out.count("\n> deal") == pairs and out.count("\n> undo") == pairs
    assert f"moves {SCRIPT_LINES} · " in out


async def test_a_refused_request_is_sent_again_after_retry_after(limited_server_url: str) -> None:
    """Without the limits (no auth: the pacer knows nothing), a volley of requests
    overruns the bucket; each refused one is retried and every reply arrives."""
    async with Connection(limited_server_url) as conn:
        assert not conn.pacer.known
        replies = await asyncio.gather(*(conn.games() for _ in range(4 * LIMITED_BURST)))
    assert all(replies)


async def test_a_limit_per_address_is_told_not_waited_out(redis_url: str) -> None:
    """A ``rate_limited`` whose ``retry_after`` is a limit per address (the rest of an
    hour) is raised at once, saying so, not slept through."""
    async with running_app(redis_url, address_limits=True, address_registrations=1) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with Connection(url) as conn:
            await conn.register(fresh_name())
            with pytest.raises(ServerError) as refused:
                # slept through, it would be an hour: the guard fails it long before
                await asyncio.wait_for(conn.register(fresh_name()), GUARD)
    assert refused.value.code == "rate_limited"
    said = str(refused.value)  # in words, never the code nor a float of seconds
    assert said.startswith("Too many registrations from your address: try again in "), said
    assert re.search(r"try again in \d+ (seconds|minutes|minute|hour|hours)\.$", said), said
    assert "rate_limited" not in said


async def test_auth_tells_the_pace(limited_server_url: str) -> None:
    async with Connection(limited_server_url) as conn:
        await conn.register(fresh_name())
        assert conn.pacer.rate == LIMITED_RATE
        assert conn.pacer.capacity == LIMITED_BURST - 1


def test_the_pacer_books_slots_at_the_rate() -> None:
    pacer = Pacer()
    assert pacer.book(0.0) == 0.0  # unknown limits: no wait, but counted
    pacer.configure({"rate": 10, "burst": 3}, 0.0)
    assert pacer.tokens == 1.0  # two of three minus the one already sent
    waits = [pacer.book(0.0) for _ in range(3)]
    assert waits == [0.0, pytest.approx(0.1), pytest.approx(0.2)]
    assert pacer.book(10.0) == 0.0  # refilled, up to the capacity
    assert pacer.tokens == pytest.approx(1.0)


def test_limits_that_make_no_sense_leave_it_unpaced() -> None:
    pacer = Pacer()
    for limits in (None, {}, {"rate": 0, "burst": 5}, {"rate": "x", "burst": 5}):
        pacer.configure(limits, time.monotonic())
        assert not pacer.known
