"""The web client in a real headless Chromium against a real server process.

Kept short (the whole file runs in well under a minute): one move of each game, not
whole games; bench/web.py plays long. The page is found by its stable hooks:
``data-pile``, ``data-card``, ``data-game`` (home rows), ``data-game-id`` and
``data-status`` (the board), ``data-do`` (buttons)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from server.patience import registry
from tests.support import GUARD, ServerProcess, connect
from tools.browser import a_card_move, board_at, click_move, held, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

#: milliseconds any one step of the page may take before the test fails: a hang guard
#: (tests/support/wait.py's GUARD), far beyond a loaded machine or a fresh daily
STEP = int(GUARD * 1000)


@pytest.fixture
def page(browser: Any, web_server: ServerProcess) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(STEP)
    page.goto(base(web_server))
    yield page
    context.close()
    assert not errors, errors


def base(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}/"


def test_sign_in_with_a_cyrillic_name_and_move_by_click_in_every_daily(page: Any) -> None:
    name = sign_in(page)
    assert page.get_attribute("[data-player]", "data-player") == name
    for slug in registry.slugs():
        page.click(f"[data-game={slug}] [data-do=daily]")
        page.wait_for_selector("section.game[data-status=playing]")
        state = held(page)
        assert page.get_attribute("section.game", "data-game-id") == state["game_id"]
        for pid, cards in state["piles"].items():  # every pile and card has its hook
            pile = page.locator(f"[data-pile='{pid}']")
            assert pile.count() == 1, (slug, pid)
            if cards and cards[-1] is not None:
                assert pile.locator(f"[data-card='{cards[-1]}']").count() >= 1, (slug, pid)
            elif cards:
                assert pile.locator("[data-card='?']").count() >= 1, (slug, pid)
        move = a_card_move(state["legal"])
        click_move(page, move, state)
        after = board_at(page, state["seq"] + 1)
        assert after["game_id"] == state["game_id"], slug
        page.click("text=← home")
        page.wait_for_selector(f"[data-game={slug}]")


def drag(page: Any, source: Any, target: Any) -> None:
    a = source.bounding_box()
    b = target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + 10)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 20, a["y"] + 30, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()


def test_a_move_by_drag_then_undo_then_reload_resumes(page: Any) -> None:
    sign_in(page, "Дима")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing]")
    state = held(page)
    move = next(m for m in state["legal"] if "from" in m)
    drag(
        page,
        page.locator(f"[data-pile='{move['from']}'] [data-index]").last,
        page.locator(f"[data-pile='{move['to']}']"),
    )
    moved = board_at(page, state["seq"] + 1)
    assert len(moved["piles"][move["from"]]) == len(state["piles"][move["from"]]) - 1
    top = state["piles"][move["from"]][-1]
    assert moved["piles"][move["to"]][-1] == top
    assert page.locator(f"[data-pile='{move['to']}'] [data-card='{top}']").count() == 1
    page.click("[data-do=undo]")
    undone = board_at(page, state["seq"] + 2)
    assert undone["piles"] == state["piles"]
    page.reload()
    page.wait_for_selector(
        f"section.game[data-game-id='{state['game_id']}'][data-seq='{undone['seq']}']"
    )
    assert held(page)["piles"] == state["piles"]


def test_a_practice_of_travellers_classic_is_won(page: Any) -> None:
    sign_in(page, "Пётр")
    for _ in range(3):  # a deal the finish's short search cannot win: another deal
        page.click("[data-game=travellers_classic] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing]")
        page.click("[data-do=finish]")
        page.wait_for_function(
            "() => !window.pasyans.app.game.busy && document.querySelector('.message').textContent"
        )
        if page.locator("section.game[data-status=won]").count():
            break
        page.click("text=← home")
    page.wait_for_selector("section.game[data-status=won]")
    assert "won" in page.inner_text("pre.share")
    assert page.locator("[data-pile] [data-card='?']").count() == 0


def test_yesterdays_commitments_verify_in_the_browser_with_exact_seeds(
    page: Any, web_server: ServerProcess
) -> None:
    sign_in(page, "Оля")

    async def yesterday() -> dict[str, Any]:
        async with connect(web_server.url) as c:
            today = datetime.date.fromisoformat((await c.call("daily"))["date"])
            date = (today - datetime.timedelta(days=1)).isoformat()
            reply: dict[str, Any] = await c.call("daily", date=date)
            return reply

    # Playwright's sync API runs an event loop in this thread: ask from another one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        past = pool.submit(asyncio.run, yesterday()).result()
    page.click("[data-do=verify-all]")
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-verified]').length === {len(past['games'])}"
    )
    assert page.locator("[data-verified=no]").count() == 0
    big = 0
    for slug, entry in past["games"].items():
        assert page.inner_text(f"[data-past={slug}] td:nth-child(2)") == str(entry["seed"])
        big += entry["seed"] >= 2**53
    assert big  # the seeds a Number would round


def test_two_players_race_by_link_to_the_end_and_a_replay_steps_to_the_final_board(
    page: Any, browser: Any, web_server: ServerProcess
) -> None:
    sign_in(page, "Аня")
    page.on("dialog", lambda d: d.accept())
    page.click("[data-game=crescent] [data-do=race]")
    link = page.get_attribute("[data-race-link]", "data-race-link")
    assert link and "#race/" in link
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        friend = context.new_page()
        friend.set_default_timeout(STEP)
        friend.on("dialog", lambda d: d.accept())
        friend.goto(base(web_server))
        sign_in(friend, "Боря")
        friend.goto(link)
        friend.wait_for_selector("[data-race-status=lobby]")
        page.wait_for_function("() => document.querySelectorAll('[data-member]').length === 2")
        page.click("[data-do=race-start]")
        for p in (page, friend):
            p.wait_for_selector("section.game[data-status=playing]")
        state = held(page)
        click_move(page, a_card_move(state["legal"]), state)
        board_at(page, state["seq"] + 1)
        friend.wait_for_function(
            "() => [...document.querySelectorAll('[data-member]')]"
            ".some(e => /1 move/.test(e.textContent))"
        )
        for p in (page, friend):
            p.click("[data-do=resign]")
            p.wait_for_selector("section.game[data-status=lost]")
        for p in (page, friend):
            p.wait_for_selector(".race-panel[data-race-status=finished]")
    finally:
        context.close()
    page.goto(base(web_server) + "#history")
    page.locator("[data-history] button", has_text="replay").first.click()
    page.wait_for_selector(".replay[data-moves]")
    moves = int(page.get_attribute(".replay", "data-moves") or "0")
    page.wait_for_selector(f".replay[data-step='{moves}'] [data-status=lost]")
    page.click("[data-do=first]")
    page.wait_for_selector(".replay[data-step='0'] [data-status=playing]")
    page.click("[data-do=last]")
    page.wait_for_selector(f".replay[data-step='{moves}'] [data-status=lost]")


def test_the_page_reconnects_after_a_server_restart_and_plays_on(
    page: Any, web_server: ServerProcess
) -> None:
    sign_in(page, "Ваня")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing]")
    state = held(page)
    click_move(page, a_card_move(state["legal"]), state)
    state = board_at(page, state["seq"] + 1)
    web_server.terminate()
    page.wait_for_selector("[data-banner]")
    web_server.start(port=web_server.port)
    page.wait_for_selector("[data-banner]", state="detached")
    page.wait_for_function(
        "() => document.querySelector('.message').textContent.includes('reconnected')"
    )
    assert held(page)["seq"] == state["seq"]
    click_move(page, a_card_move(state["legal"]), state)
    board_at(page, state["seq"] + 1)


def test_a_challenge_link_opens_and_plays_the_same_deal(
    page: Any, web_server: ServerProcess
) -> None:
    """Issue 27: `#challenge/CODE` shows the challenge and plays its deal (the seed
    hidden while the game is in play), its result then on the challenge's page."""

    async def make() -> str:
        async with connect(web_server.url) as creator:
            await creator.register(f"Вера{uuid.uuid4().int % 100_000}")
            made = await creator.call("challenge_create", game="crescent")
            return str(made["challenge"]["code"])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code = pool.submit(asyncio.run, make()).result()
    sign_in(page, "Гена")
    page.goto(f"{base(web_server)}#challenge/{code}")
    page.wait_for_selector(f"[data-challenge='{code}']")
    page.click("[data-do=challenge-play]")
    page.wait_for_selector("section.game[data-status=playing]")
    state = page.evaluate("() => window.pasyans.app.game.state")
    assert state["mode"] == "challenge" and state["deal"]["seed"] is None
    page.on("dialog", lambda d: d.accept())
    page.click("[data-do=resign]")
    page.wait_for_selector("section.game[data-status=lost]")
    page.goto(f"{base(web_server)}#challenge/{code}")
    page.wait_for_selector(f"[data-challenge='{code}'] tr[data-player]")


def test_a_race_is_watched_by_link(page: Any, web_server: ServerProcess) -> None:
    """Issue 27: `#watch/CODE` shows each member's board, live, with no hidden card
    shown and no seed."""

    async def race() -> tuple[str, str, str]:
        async with connect(web_server.url) as a, connect(web_server.url) as b:
            token = await a.register(f"Аня{uuid.uuid4().int % 100_000}")
            await b.register(f"Боря{uuid.uuid4().int % 100_000}")
            made = (await a.call("race_create", game="crescent"))["race"]
            await b.call("race_join", code=made["code"])
            await a.call("race_start", race_id=made["race_id"])
            state = (await a.next_event("race_started"))["state"]
            return str(made["code"]), token, str(state["game_id"])

    async def move(token: str, gid: str) -> None:
        async with connect(web_server.url) as a:
            await a.call("auth", token=token)
            state = (await a.call("resume", game_id=gid))["state"]
            await a.move(state, state["legal"][0])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code, token, gid = pool.submit(asyncio.run, race()).result()
        sign_in(page, "Зритель")
        page.goto(f"{base(web_server)}#watch/{code}")
        page.wait_for_selector(f"[data-watch='{code}'] [data-member-board] [data-pile='T1']")
        assert page.locator("[data-member-board]").count() == 2
        pool.submit(asyncio.run, move(token, gid)).result()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-member-board] h3')]"
        ".some(e => /1 move/.test(e.textContent))"
    )
    watching = page.evaluate("() => window.pasyans.app.watching")
    for state in watching["boards"].values():
        assert state["deal"]["seed"] is None


def test_the_creator_ends_a_race_from_the_page(page: Any, web_server: ServerProcess) -> None:
    """Issue 26: the race panel gives its creator End race (and Drop for a member
    away); the others' games are given up, `out: ended`."""

    async def join(code: str) -> None:
        async with connect(web_server.url) as b:
            await b.register(f"Боря{uuid.uuid4().int % 100_000}")
            await b.call("race_join", code=code)

    sign_in(page, "Аня")
    page.on("dialog", lambda d: d.accept())
    page.click("[data-game=crescent] [data-do=race]")
    link = page.get_attribute("[data-race-link]", "data-race-link")
    assert link
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        pool.submit(asyncio.run, join(link.rsplit("/", 1)[1])).result()
    page.wait_for_function("() => document.querySelectorAll('[data-member]').length === 2")
    page.click("[data-do=race-start]")
    page.wait_for_selector("section.game[data-status=playing]")
    page.click("[data-do=race-end]")
    page.wait_for_selector(".race-panel[data-race-status=finished]")
    assert any("ended" in t for t in page.locator("[data-member]").all_inner_texts())
