"""axe-core (vendored for the tests: tests/web/vendor) on every screen of the web client
but the boards (test_boards.py audits each game's): sign-in, home, a game's end, rules,
leaderboards, replay, stats, history, friends, inbox, calendar, account, a race's lobby
and its board, a race watched, a challenge. Not one critical or serious violation, in
light and (colour contrast) dark. Its rule of a name that holds the visible text
(label-content-name-mismatch, off by default in axe 4) is on: the piles are buttons
named by what they show."""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid
from typing import Any

import pytest

from tests.support import ServerProcess, connect
from tests.web.pages import CONTRAST, Audit, base, opened
from tools.browser import press, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


#: the text in Russian under ``root`` with no lang="ru" around it (the page is English:
#: a screen reader would read Russian with English sounds)
UNMARKED_RUSSIAN = """(root) => { const out = [];
  const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    if (/[\u0400-\u04ff]/.test(n.textContent) && !n.parentElement.closest('[lang=ru]'))
      out.push(n.textContent.trim().slice(0, 60));
  return out; }"""


def in_thread(coroutine: Any) -> Any:
    """Run ``coroutine`` on its own event loop (Playwright's runs in this thread)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def a_race_to_watch(url: str) -> tuple[str, str]:
    """Two players race on Crescent; the race's code, and one of them."""
    async with connect(url) as a, connect(url) as b:
        name = f"Аня{uuid.uuid4().int % 100_000}"
        await a.register(name)
        await b.register(f"Боря{uuid.uuid4().int % 100_000}")
        race = (await a.call("race_create", game="crescent"))["race"]
        await b.call("race_join", code=race["code"])
        await a.call("race_start", race_id=race["race_id"])
        await a.next_event("race_started")
        return str(race["code"]), name


async def join(url: str, code: str) -> str:
    async with connect(url) as b:
        name = f"Гость{uuid.uuid4().int % 100_000}"
        await b.register(name)
        await b.call("race_join", code=code)
        return name


def test_every_screen_has_no_critical_or_serious_violation(
    browser: Any, web_server: ServerProcess
) -> None:
    watched, racer = in_thread(a_race_to_watch(web_server.url))
    with opened(browser, web_server) as page:
        audit = Audit(page)
        page.on("dialog", lambda d: d.accept())
        audit("sign-in", "[data-field=name]")
        sign_in(page, "Доступ")
        audit("home", "[data-game=crescent] .cert:not(:empty)")
        page.click("[data-game=crescent] [data-do=daily]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        press(page, "rules")
        audit("rules", "dialog[open] .rules[data-loaded='1']")
        assert page.evaluate(UNMARKED_RUSSIAN, "dialog[open] .rules") == []
        assert page.evaluate(UNMARKED_RUSSIAN, "section.game header.game-head") == []
        page.keyboard.press("Escape")
        press(page, "resign")
        page.click("aside.end [data-do=challenge-make]")
        audit("the end of a game", "aside.end [data-challenge-link]")
        gid = page.get_attribute("section.game", "data-game-id")
        code = page.get_attribute("aside.end [data-challenge-link]", "data-challenge-link")
        assert code
        page.goto(base(web_server) + "#" + code.split("#", 1)[1])
        audit("challenge", "[data-challenge]")
        page.goto(f"{base(web_server)}#leaderboard/crescent")
        audit("leaderboard", "table.entries tr[data-player]")
        page.goto(f"{base(web_server)}#replay/{gid}")
        audit("replay", ".replay[data-step='0'] .table")
        page.goto(f"{base(web_server)}#stats")
        audit("stats", "section.stats table")
        page.goto(f"{base(web_server)}#history")
        audit("history", "[data-history]")
        page.goto(f"{base(web_server)}#friends")
        page.fill("[data-field=friend]", racer)
        page.click("[data-do=friend-add]")
        audit("friends", "[data-friend]")
        page.goto(f"{base(web_server)}#inbox")
        audit("inbox", "section.inbox")
        page.goto(f"{base(web_server)}#calendar/crescent")
        audit("calendar", "section.calendar .month-grid [data-day]")
        page.goto(f"{base(web_server)}#account")
        audit("account", "section.account")
        page.goto(f"{base(web_server)}#watch/{watched}")
        audit("a race watched", "[data-watch] [data-member-board]")
        page.goto(f"{base(web_server)}#home")
        page.click("[data-game=crescent] [data-do=race]")
        audit("a race's lobby", "[data-race-link]")
        link = page.get_attribute("[data-race-link]", "data-race-link") or ""
        in_thread(join(web_server.url, link.rsplit("/", 1)[1]))
        page.wait_for_function("() => document.querySelectorAll('[data-member]').length === 2")
        page.click("[data-do=race-start]")
        audit("a race's board", "section.game[data-status=playing] .race-panel")
    assert audit.screens == 16
    assert not audit.bad, "\n".join(audit.bad)


def test_colour_contrast_in_the_dark(browser: Any, web_server: ServerProcess) -> None:
    with opened(browser, web_server, color_scheme="dark") as page:
        audit = Audit(page, CONTRAST)
        page.on("dialog", lambda d: d.accept())
        audit("sign-in", "[data-field=name]")
        sign_in(page, "Тьма")
        audit("home", "[data-game=crescent] .cert:not(:empty)")
        for slug in ("crescent", "travellers", "hand_reserve"):
            page.click(f"[data-game={slug}] [data-do=practice]")
            audit(f"the board of {slug}", "section.game[data-status=playing] .table")
            page.click("[data-do=home]")
        page.click("[data-game=short] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        press(page, "resign")
        audit("the end of a game", "aside.end")
        page.goto(f"{base(web_server)}#leaderboard/crescent")
        audit("leaderboard", "table.entries")
    assert not audit.bad, "\n".join(audit.bad)
