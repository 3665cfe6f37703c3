"""Tournaments in the browser (issue 51), on a real server whose minute lasts a few
seconds (``--tournament-minute``): four players — on a laptop and on a phone, each in
English and in Russian — join a friend's tournament by its code from the lobby, see the
countdown, play deal 1 with the standings beside the board (above it on a phone), move
on to deal 2 from the end panel, and get the podium at the end. A tournament made from
the lobby gets its code and link; a friend invited from the Friends page opens it from
the inbox. With ``PASYANS_SHOTS=DIR`` each step's screenshot goes to DIR (docs/web.md
shows them: ``PASYANS_SHOTS=docs/img``); without it none is taken.

Ratings (issue 51) in the browser, in both languages: a player's per-game rating
(its value, "?" while provisional) on the stats page, on the friends page, and on a
game's rating board (the leaderboard's "ratings from races"), from real races between
accounts of different addresses (tests/support/ratings.py). With ``PASYANS_SHOTS=DIR``
screenshots at phone and laptop size go to DIR (web-ratings-*.png: docs/web.md shows
them, ``PASYANS_SHOTS=docs/img``).

(One module, one browser: issue 51 in the browser, each part on a server of its own.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from server.services.ratings import PROVISIONAL_RACES
from tests.support import GUARD, RedisProcess, ServerProcess, connect
from tests.support.ratings import RATED_SERVER_ARGS, rated_players
from tests.web.pages import DESKTOP, PHONE, Audit, base, opened, shot
from tests.web.test_accessibility import in_thread
from tools.browser import press, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

#: seconds a tournament's minute lasts: a 5-minute one runs in 15 s (the four pages
#: take about 3 s to see the start, give deal 1 up and open deal 2: on a machine at a
#: load of 6, 2026-12-07)
MINUTE = 3.0
#: seconds from the tournament's making to its start: time for four pages to enter it
#: (1 s at that load) and for its first deals to be certified
LEAD = 3 * MINUTE


@pytest.fixture(scope="module")
def tour_server(redis_server: RedisProcess) -> Iterator[ServerProcess]:
    prefix = {"PASYANS_KEY_PREFIX": f"webt{uuid.uuid4().hex[:8]}:"}
    with ServerProcess(
        "--tournament-lead",
        "0",
        "--tournament-minute",
        str(MINUTE),
        redis_url=redis_server.url,
        env=prefix,
    ) as server:
        yield server


async def a_friends_tournament(url: str, lead: float) -> tuple[str, str]:
    """A player's tournament of Crescent starting ``lead`` seconds from now: its code,
    and the player."""
    async with connect(url) as c:
        name = f"Глеб{uuid.uuid4().int % 100_000}"
        await c.register(name)
        starts = int((time.time() + lead) * 1000)
        made = await c.call("tournament_create", game="crescent", starts_at=starts, minutes=5)
        return str(made["tournament"]["code"]), name


def join_by_code(page: Any, code: str) -> None:
    page.goto(f"{page.url.split('#')[0]}#tournaments")
    page.wait_for_selector("[data-field=tour-code]")
    page.fill("[data-field=tour-code]", code.lower())
    page.click("[data-do=tour-join]")
    page.wait_for_selector(f"section.tournament[data-tournament='{code}']")


#: the four pages of the tournament: a laptop and a phone, each in English and in
#: Russian (one tournament: its lead and its minutes are waited for once)
PAGES = [("laptop", "en"), ("phone", "ru"), ("laptop", "ru"), ("phone", "en")]


def test_lobby_countdown_deals_and_podium(browser: Any, tour_server: ServerProcess) -> None:
    locales = {"en": "en-GB", "ru": "ru-RU"}
    sizes = {"laptop": DESKTOP, "phone": PHONE}
    with contextlib.ExitStack() as stack:
        pages = {
            f"{size}-{lang}": stack.enter_context(
                opened(browser, tour_server, viewport=sizes[size], locale=locales[lang])
            )
            for size, lang in PAGES
        }
        names = [sign_in(page, "Аня") for page in pages.values()]
        for page in pages.values():
            page.on("dialog", lambda d: d.accept())
            page.goto(f"{base(tour_server)}#tournaments")
        for tag, page in pages.items():
            page.wait_for_selector("section.tournaments [data-do=tour-create]")
            shot(page, f"web-tournament-lobby-{tag}")
        code, creator = in_thread(a_friends_tournament(tour_server.url, lead=LEAD))
        for page in pages.values():
            join_by_code(page, code)
        for tag, page in pages.items():
            page.wait_for_selector("[data-countdown='1']")
            page.wait_for_selector("[data-entered='1']")
            shot(page, f"web-tournament-countdown-{tag}")
        # the start: deal 1 on the board, the standings beside it (above, on a phone)
        for page in pages.values():
            page.wait_for_selector("section.game.has-side[data-status=playing] .table")
            page.wait_for_selector(".tour-panel [data-deal='1']")
        for name in names:
            for tag in ("laptop-en", "laptop-ru"):
                pages[tag].wait_for_selector(f".tour-panel .standings [data-player='{name}']")
        for tag, page in pages.items():
            side = page.eval_on_selector(".side", "(el) => el.getBoundingClientRect()")
            board = page.eval_on_selector(".board-wrap", "(el) => el.getBoundingClientRect()")
            if tag.startswith("phone"):
                assert side["bottom"] <= board["top"] + 1, tag  # the standings above the board
            else:
                assert side["left"] >= board["right"] - 1, tag  # beside it on a laptop
            shot(page, f"web-tournament-board-{tag}")
        # deal 1 given up; deal 2 from the end panel
        for page in pages.values():
            first = page.get_attribute("section.game", "data-game-id")
            press(page, "resign")
            page.wait_for_selector("aside.end [data-do=next]")
            page.click("aside.end [data-do=next]")
            page.wait_for_selector(
                f"section.game[data-status=playing]:not([data-game-id='{first}']) .table"
            )
            page.wait_for_selector(".tour-panel [data-deal='2']")
        # the end: the podium, and each page's place
        for tag, page in pages.items():
            page.wait_for_selector(f"[data-podium='{code}']", timeout=int(20 * MINUTE * 1000))
            page.wait_for_selector("[data-my-rank]")
            shot(page, f"web-tournament-podium-{tag}")
        places = sorted(
            int(p.get_attribute("[data-my-rank]", "data-my-rank")) for p in pages.values()
        )
        # five entrants (the friend who made it too), each in a place of their own
        assert creator
        assert len(set(places)) == len(pages) and all(1 <= p <= 5 for p in places), places
        for tag, page in pages.items():  # the history on a phone, the stats on a laptop
            page.goto(f"{base(tour_server)}#{'history' if tag.startswith('phone') else 'stats'}")
        for tag, page in pages.items():
            if tag.startswith("phone"):
                page.wait_for_selector("section.history")
                continue
            # the podium shows by the clock; an entrant's stats count it once the end is
            # written (the next tick of the server's, within a second): a page opened
            # between the two shows it when loaded again
            page.wait_for_selector("section.stats")  # drawn with the answer
            for _ in range(int(GUARD / MINUTE)):
                if page.locator("[data-tournament-stats='1']").count():
                    break
                page.wait_for_timeout(MINUTE * 100)
                page.reload()
                page.wait_for_selector("section.stats")
            page.wait_for_selector("[data-tournament-stats='1']")


def test_made_from_the_lobby_and_sent_to_a_friend(browser: Any, tour_server: ServerProcess) -> None:
    with (
        opened(browser, tour_server) as ann,
        opened(browser, tour_server, viewport=PHONE, locale="ru-RU") as bo,
    ):
        an, bn = sign_in(ann, "Аня"), sign_in(bo, "Боря")
        ann.goto(f"{base(tour_server)}#tournaments")
        ann.select_option("[data-field=tour-starts]", "15")
        ann.select_option("[data-field=tour-minutes]", "45")
        ann.click("[data-do=tour-create]")
        ann.wait_for_selector(
            "section.tournament[data-tournament-status=upcoming] [data-tour-link]"
        )
        audit = Audit(ann)  # axe-core on the tournament's page and the lobby
        audit("tournament", "[data-countdown]")
        t = ann.evaluate("() => window.pasyans.app.tournament")
        assert t["minutes"] == 45 and t["creator"] == an
        assert 14 * 60_000 < t["starts_at"] - time.time() * 1000 <= 15 * 60_000
        link = ann.get_attribute("[data-tour-link]", "data-tour-link")
        assert link.endswith(f"#tournament/{t['code']}")
        assert "14:" in ann.inner_text("[data-countdown]")
        ann.goto(f"{base(tour_server)}#tournaments")
        ann.wait_for_selector(f"[data-tournament='{t['code']}'][data-status=upcoming]")
        shot(ann, "web-tournament-lobby-list-laptop-en")
        audit("lobby", f"[data-tournament='{t['code']}']")
        assert not audit.bad, "\n".join(audit.bad)
        # sent to a friend from the Friends page; the friend opens it from the inbox
        ann.goto(f"{base(tour_server)}#friends")
        ann.fill("[data-field=friend]", bn)
        ann.click("[data-do=friend-add]")
        ann.click(f"[data-friend='{bn}'] [data-do=invite-tournament]")
        ann.wait_for_selector(f"text={t['code']}")
        bo.wait_for_selector("[data-news='1']")
        bo.goto(f"{base(tour_server)}#inbox")
        bo.click("[data-item=invite] [data-do=accept]")
        bo.wait_for_selector(
            f"section.tournament[data-tournament='{t['code']}'] [data-do=tour-enter]"
        )
        bo.click("[data-do=tour-enter]")
        bo.wait_for_selector("[data-entered='1']")
        assert bo.evaluate("() => window.pasyans.app.tournament.entrants") == 2
        bo.goto(f"{base(tour_server)}#tournaments")
        bo.wait_for_selector(f"[data-tournament='{t['code']}'][data-status=upcoming]")
        shot(bo, "web-tournament-lobby-list-phone-ru")


# -- ratings from races ---------------------------------------------------------


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
