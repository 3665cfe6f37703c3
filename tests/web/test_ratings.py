"""Ratings (issue 51) in the browser, in both languages: a player's per-game rating
(its value, "?" while provisional) on the stats page, on the friends page, and on a
game's rating board (the leaderboard's "ratings from races"), from real races between
accounts of different addresses (tests/support/ratings.py). With ``PASYANS_SHOTS=DIR``
screenshots at phone and laptop size go to DIR (web-ratings-*.png: docs/web.md shows
them, ``PASYANS_SHOTS=docs/img``)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from server.services.ratings import PROVISIONAL_RACES
from tests.support import RedisProcess, ServerProcess, connect
from tests.support.ratings import RATED_SERVER_ARGS, rated_players
from tests.web.pages import DESKTOP, PHONE, base, opened, shot

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

Players = dict[str, tuple[str, str]]
T = TypeVar("T")


def off_the_page(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run to its end in a thread of its own (Playwright's sync API holds an
    event loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


@pytest.fixture(scope="module")
def rated(redis_server: RedisProcess) -> Iterator[tuple[ServerProcess, Players, dict[str, Any]]]:
    """A server with ann past provisional at crescent (races against bob) and cid
    provisional (one race against ann), ann following cid: the server, the players
    and their crescent ratings as the server says them."""
    prefix = {"PASYANS_KEY_PREFIX": f"wrated{uuid.uuid4().hex[:8]}:"}
    with ServerProcess(*RATED_SERVER_ARGS, redis_url=redis_server.url, env=prefix) as server:
        stem = uuid.uuid4().hex[:6]
        names = {f"ann{stem}": 0, f"bob{stem}": PROVISIONAL_RACES, f"cid{stem}": 1}
        players = off_the_page(rated_players(server.url, names))

        async def ratings() -> dict[str, Any]:
            (_ann, token), _, (cid, _) = players.values()
            async with connect(server.url) as c:
                await c.call("auth", token=token)
                await c.call("friend_add", name=cid)
                return {
                    who: (await c.call("stats", player=who))["ratings"]["crescent"]
                    for who, _ in players.values()
                }

        yield server, players, off_the_page(ratings())


def shown(rating: dict[str, Any]) -> str:
    return f"{rating['value']}{'?' if rating['provisional'] else ''}"


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("ru", PHONE)])
def test_ratings_on_stats_friends_and_the_rating_board(
    browser: Any,
    rated: tuple[ServerProcess, Players, dict[str, Any]],
    lang: str,
    viewport: dict[str, int],
) -> None:
    server, players, ratings = rated
    (ann, token), (bob, _), (cid, _) = players.values()
    size = "phone" if viewport is PHONE else "laptop"
    account = json.dumps({"player": ann, "token": token})
    with opened(browser, server, viewport=viewport) as page:
        page.evaluate(
            "([account, lang]) => { localStorage.setItem('pasyans.account', account);"
            " localStorage.setItem('pasyans.lang', lang); }",
            [account, lang],
        )
        page.goto(f"{base(server)}#stats")
        page.reload()
        assert page.evaluate("() => document.documentElement.lang") == lang
        page.wait_for_selector(
            f"section.stats tr[data-game=crescent] [data-rating='{shown(ratings[ann])}']"
        )
        assert "?" not in shown(ratings[ann])
        page.wait_for_selector("[data-legend=rating]")
        shot(page, f"web-ratings-stats-{lang}-{size}", full_page=True)
        page.goto(f"{base(server)}#friends")
        mark = f"[data-friend='{cid}'] [data-rating='crescent {shown(ratings[cid])}']"
        page.wait_for_selector(mark)
        assert shown(ratings[cid]).endswith("?")
        said = page.inner_text(mark)
        assert ("рейтинг" if lang == "ru" else "rating") in said and shown(ratings[cid]) in said
        shot(page, f"web-ratings-friends-{lang}-{size}", full_page=True)
        page.goto(f"{base(server)}#leaderboard/crescent")
        page.wait_for_selector("section.leaderboard [data-field=board]")
        page.select_option("[data-field=board]", "rating")
        page.wait_for_selector(
            f"table.ratings tr[data-player='{ann}'][data-rating='{ratings[ann]['value']}']"
        )
        page.wait_for_selector(f"table.ratings tr[data-player='{bob}']")
        assert not page.query_selector(f"table.ratings tr[data-player='{cid}']")  # provisional
        heads = page.inner_text("table.ratings thead")
        assert ("рейтинг" if lang == "ru" else "rating") in heads
        shot(page, f"web-ratings-board-{lang}-{size}", full_page=True)
