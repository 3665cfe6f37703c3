"""The web client in a real headless Chromium against a real server process.

Kept short (the whole file runs in well under a minute): test_boards.py plays one
move of every game, bench/web.py plays long. The page is found by its stable hooks:
``data-pile``, ``data-card``, ``data-game`` (home rows), ``data-game-id`` and
``data-status`` (the board), ``data-do`` (buttons)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import uuid
from typing import Any

import pytest
import redis

from tests.support import RedisProcess, ServerProcess, connect
from tests.web.pages import PHONE, STEP, base, opened, past_dailies
from tools.browser import NO_HOWTO, a_card_move, board_at, click_move, held, press, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


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
            "() => !window.pasyans.app.game.inflight"
            " && document.querySelector('.message').textContent"
        )
        if page.locator("section.game[data-status=won]").count():
            break
        page.click("[data-do=home]")
    page.wait_for_selector("section.game[data-status=won]")
    assert "won" in page.inner_text("pre.share")
    assert page.inner_text("aside.end h2") == "You won!"
    page.wait_for_selector("aside.end.moment .burst .bit")  # a win's moment: suits thrown up
    assert page.locator("[data-pile] [data-card='?']").count() == 0


def test_yesterdays_commitments_verify_in_the_browser_with_exact_seeds(
    page: Any, web_server: ServerProcess
) -> None:
    past = past_dailies(web_server, days_back=1)
    page.reload()  # the home reads the day before once: now that it is chosen
    sign_in(page, "Оля")
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
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(NO_HOWTO)
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
            press(p, "resign")
            p.wait_for_selector("section.game[data-status=lost]")
        for p in (page, friend):
            p.wait_for_selector(".race-panel[data-race-status=finished]")
            # ratings (issue 51): a fresh deal is rated; both play from this machine
            # (one address), so neither rating moves: 1500, provisional, not counted
            p.wait_for_selector(".race-panel [data-provisional]")
            shown = p.locator(".race-panel .rating[data-rating='1500'][data-rating-change='']")
            assert shown.count() == 2
    finally:
        context.close()
    page.goto(base(web_server) + "#history")
    page.locator("[data-history] button", has_text="replay").first.click()
    page.wait_for_selector(".replay[data-moves]")
    moves = int(page.get_attribute(".replay", "data-moves") or "0")
    page.wait_for_selector(".replay[data-step='0'] [data-status=playing]")  # opens at move 0
    page.click("[data-do=last]")
    page.wait_for_selector(f".replay[data-step='{moves}'] [data-status=lost]")
    page.click("[data-do=first]")
    page.wait_for_selector(".replay[data-step='0'] [data-status=playing]")
    page.click("[data-do=play]")  # plays by itself to the end
    page.wait_for_selector(f".replay[data-step='{moves}'] [data-status=lost]")
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
    press(page, "resign")
    page.wait_for_selector("section.game[data-status=lost]")
    page.goto(f"{base(web_server)}#challenge/{code}")
    page.wait_for_selector(f"[data-challenge='{code}'] tr[data-player]")


def test_a_challenge_link_opened_before_signing_in_says_so_and_plays_right_after(
    page: Any, web_server: ServerProcess
) -> None:
    """Issue 48: a newcomer opens a challenge's link: the sign-in page says it is a
    challenge (its code), shows what it is (its game, its creator, how many played it),
    and once a name is picked the challenge's game opens by itself, on its deal."""
    creator_name = f"Зоя{uuid.uuid4().int % 100_000}"

    async def make() -> str:
        async with connect(web_server.url) as creator:
            await creator.register(creator_name)
            made = await creator.call("challenge_create", game="crescent")
            return str(made["challenge"]["code"])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code = pool.submit(asyncio.run, make()).result()
    page.goto(f"{base(web_server)}#challenge/{code}")
    page.wait_for_selector(f"[data-invited='{code}']")
    assert code in page.inner_text("[data-invited]")
    preview = page.wait_for_selector(f"[data-preview='{code}']").inner_text()
    assert creator_name in preview and "Полумесяц" in preview, preview
    page.fill("[data-field=name]", f"Новичок{uuid.uuid4().int % 100_000}")
    page.click("[data-do=register]")
    page.wait_for_selector("section.game[data-status=playing]")
    state = page.evaluate("() => window.pasyans.app.game.state")
    assert state["mode"] == "challenge" and state["game"] == "crescent"


def test_the_creator_closes_a_challenge_whose_seed_she_knew(
    page: Any, web_server: ServerProcess
) -> None:
    """Issue 36: a practice game's challenge says on its page that its creator could
    see the deal's number (her mark ranks apart, no rank); she closes it there (asked
    first), and it shows closed, with its deal."""
    sign_in(page, "Лена")
    token = page.evaluate("() => window.pasyans.app.account.token")

    async def make() -> str:
        async with connect(web_server.url) as c:
            await c.call("auth", token=token)
            state = await c.start("crescent", "practice")
            await c.call("resign", game_id=state["game_id"])
            made = await c.call("challenge_create", game_id=state["game_id"])
            return str(made["challenge"]["code"])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code = pool.submit(asyncio.run, make()).result()
    page.goto(f"{base(web_server)}#challenge/{code}")
    page.wait_for_selector(f"[data-challenge='{code}'][data-closed='0'] [data-seed-known]")
    assert "seed known: not ranked" in page.inner_text(f"[data-challenge='{code}'] tr[data-player]")
    page.on("dialog", lambda d: d.accept())
    page.click("[data-do=challenge-close]")
    page.wait_for_selector(f"[data-challenge='{code}'][data-closed='1']")
    assert "closed: its results are final" in page.inner_text(f"[data-challenge='{code}']")
    assert page.locator("[data-do=challenge-close]").count() == 0


def test_a_race_is_watched_by_link(page: Any, web_server: ServerProcess) -> None:
    """Issue 27: `#watch/CODE` shows each member's progress live, and (issue 36) each
    member's board once every game is over, with no hidden card shown and no seed."""

    async def race() -> tuple[str, str, str, str, str]:
        async with connect(web_server.url) as a, connect(web_server.url) as b:
            token = await a.register(f"Аня{uuid.uuid4().int % 100_000}")
            other = await b.register(f"Боря{uuid.uuid4().int % 100_000}")
            made = (await a.call("race_create", game="crescent"))["race"]
            await b.call("race_join", code=made["code"])
            await a.call("race_start", race_id=made["race_id"])
            state = (await a.next_event("race_started"))["state"]
            theirs = (await b.next_event("race_started"))["state"]
            gids = str(state["game_id"]), str(theirs["game_id"])
            return str(made["code"]), token, gids[0], other, gids[1]

    async def move(token: str, gid: str, *, resign: bool = False) -> None:
        async with connect(web_server.url) as a:
            await a.call("auth", token=token)
            state = (await a.call("resume", game_id=gid))["state"]
            if resign:
                await a.call("resign", game_id=gid)
            else:
                await a.move(state, state["legal"][0])

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code, token, gid, other, theirs = pool.submit(asyncio.run, race()).result()
        sign_in(page, "Зритель")
        page.goto(f"{base(web_server)}#watch/{code}")
        page.wait_for_selector(f"[data-watch='{code}'] [data-member-board] [data-held-back]")
        assert page.locator("[data-member-board]").count() == 2
        assert page.locator("[data-member-board] [data-card]").count() == 0
        pool.submit(asyncio.run, move(token, gid)).result()
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-member-board] h2')]"
            ".some(e => /1 move/.test(e.textContent))"
        )
        assert page.locator("[data-member-board] [data-card]").count() == 0
        pool.submit(asyncio.run, move(token, gid, resign=True)).result()
        pool.submit(asyncio.run, move(other, theirs, resign=True)).result()
    page.wait_for_selector(f"[data-watch='{code}'] [data-member-board] [data-pile='T1']")
    # both resigned, and both have a place (issue 48): the first, and the second or a tie
    page.wait_for_selector(f"[data-watch='{code}'] [data-race-status=finished]")
    places = page.eval_on_selector_all(
        "[data-member][data-place]", "(rows) => rows.map((r) => Number(r.dataset.place))"
    )
    assert len(places) == 2 and places[0] == 1 and places[1] in (1, 2), places
    assert "place" in page.inner_text("[data-member]")
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
    asked: list[str] = []
    page.on("dialog", lambda d: asked.append(d.message))
    page.click("[data-do=race-end]")
    page.wait_for_selector(".race-panel[data-race-status=finished]")
    assert any("ended" in t for t in page.locator("[data-member]").all_inner_texts())
    assert any(a.startswith("End the race now?") for a in asked)


def test_a_race_ended_by_its_creator_reaches_a_members_board_at_once(
    page: Any, web_server: ServerProcess
) -> None:
    """Issue 36, point 6: the page is a member, not the creator; when the creator ends
    the race, the page's board shows the game over (no undo or resign left) without
    a move being tried."""
    sign_in(page, "Боря")
    token = page.evaluate("() => window.pasyans.app.account.token")

    async def made() -> tuple[str, str, str]:
        async with connect(web_server.url) as a:
            creator = await a.register(f"Аня{uuid.uuid4().int % 100_000}")
            race = (await a.call("race_create", game="crescent"))["race"]
            return str(race["code"]), str(race["race_id"]), creator

    async def start(rid: str, creator: str) -> None:
        async with connect(web_server.url) as a:
            await a.call("auth", token=creator)
            await a.call("race_start", race_id=rid)

    async def end(rid: str, creator: str) -> None:
        async with connect(web_server.url) as a:
            await a.call("auth", token=creator)
            await a.call("race_end", race_id=rid)

    assert token
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the page's loop runs here
        code, rid, creator = pool.submit(asyncio.run, made()).result()
        page.goto(f"{base(web_server)}#race/{code}")
        page.wait_for_function("() => document.querySelectorAll('[data-member]').length === 2")
        pool.submit(asyncio.run, start(rid, creator)).result()
        page.wait_for_selector("section.game[data-status=playing] [data-do=undo]")
        pool.submit(asyncio.run, end(rid, creator)).result()
    page.wait_for_selector("section.game[data-status=lost]")
    assert page.locator("[data-do=resign]").count() == 0
    assert page.locator("[data-do=undo]").count() == 0


def test_an_assisted_game_says_so_on_every_screen(page: Any) -> None:
    """Issue 36, point 5: after a hint, the board's title, the end panel and its share
    text, the history and the replay say "assisted" in words. Today's daily offers no
    hint at all while the day lasts (its line would be everyone's)."""
    sign_in(page, "Гриша")
    page.on("dialog", lambda d: d.accept())
    page.click("[data-game=travellers_classic] [data-do=daily]")
    page.wait_for_selector("section.game[data-status=playing] .mode[data-assisted='0']")
    assert page.locator("[data-do=hint]").count() == 0
    page.click("[data-do=home]")
    page.click("[data-game=travellers_classic] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .mode[data-assisted='0']")
    page.click("[data-do=hint]")
    page.wait_for_selector(".mode[data-assisted='1']")
    assert "assisted (not ranked)" in page.inner_text(".game-head .mode")
    press(page, "resign")
    page.wait_for_selector("aside.end [data-assisted='1']")
    assert "assisted (the solver helped: not ranked)" in page.inner_text("aside.end pre.share")
    gid = page.get_attribute("section.game", "data-game-id")
    page.goto(page.url.split("#")[0] + "#history")
    cell = page.wait_for_selector(f"[data-history='{gid}'] [data-assisted='1']")
    assert "assisted" in cell.inner_text()
    page.goto(page.url.split("#")[0] + f"#replay/{gid}")
    line = page.wait_for_selector("section.replay [data-assisted='1']")
    assert "assisted" in line.inner_text()


def test_a_daily_being_certified_shows_its_progress_and_opens_when_ready(
    browser: Any, redis_server: RedisProcess
) -> None:
    """Issue 35: a daily still being certified says so, with its progress and an
    estimate; "Play when ready" opens it by itself once it is — no dead button, no
    alert. Another instance's lease holds the choice (as on a deployment of several
    servers) until the test lets go of it."""
    prefix = f"cert{uuid.uuid4().hex[:8]}:"
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    store = redis.Redis.from_url(redis_server.url)
    lease = f"{prefix}daily:{{{today}}}:lease:short"
    store.set(lease, "another-instance", px=600_000)
    started = int(datetime.datetime.now(datetime.UTC).timestamp() * 1000) - 20_000
    store.hset(f"{prefix}daily:{{{today}}}", "progress:short", f"3:{started}:600:1200")
    env = {"PASYANS_KEY_PREFIX": prefix, "PASYANS_DAILY_WAIT": "0.1"}
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(NO_HOWTO)
    try:
        with ServerProcess(redis_url=redis_server.url, env=env) as server:
            page = context.new_page()
            page.set_default_timeout(STEP)
            page.goto(base(server))
            sign_in(page, "Лена")
            row = "[data-game=short]"
            page.wait_for_selector(f"{row} .cert:has-text('certifying')")
            state = page.inner_text(f"{row} .cert")
            assert "3 deals tried" in state and "ready in about" in state, state
            assert page.inner_text(f"{row} [data-do=daily]") == "Play when ready"
            page.click(f"{row} [data-do=daily]")
            page.wait_for_selector(f"{row} [data-do=daily][aria-pressed=true]")
            assert page.locator("[data-notice]").count() == 0
            store.delete(lease)  # the other instance is gone: this server chooses it
            page.wait_for_selector("section.game[data-status=playing]")
            game = page.evaluate("() => window.pasyans.app.game.state")
            assert game["game"] == "short" and game["mode"] == "daily"
    finally:
        context.close()
        store.close()


def test_a_visitor_not_signed_in_is_reconnected_without_a_banner(
    browser: Any, redis_server: RedisProcess
) -> None:
    """Issue 46: a connection open ``--auth-timeout`` seconds without signing in is
    closed with 4001 (a visitor on the welcome page); the page comes back quietly —
    no "connection lost" banner — and signing in then works."""
    prefix = {"PASYANS_KEY_PREFIX": f"web{uuid.uuid4().hex[:8]}:"}
    # long enough for the sign-in below to be through before the next close
    args = ("--auth-timeout", "3", "--no-prepare-dailies")
    with (
        ServerProcess(*args, redis_url=redis_server.url, env=prefix) as server,
        opened(browser, server) as page,
    ):
        # (the page's modules may still be loading: no window.pasyans yet)
        page.wait_for_function("() => window.pasyans && window.pasyans.app.opens >= 1")
        page.evaluate(
            """() => { window.bannerSeen = false;
               new MutationObserver(() => {
                 if (document.querySelector('[data-banner]')) window.bannerSeen = true;
               }).observe(document.body, {childList: true, subtree: true}); }"""
        )
        # closed for not signing in, and reconnected
        page.wait_for_function("() => window.pasyans.app.opens >= 2")
        assert page.evaluate("() => window.bannerSeen") is False
        sign_in(page, "Тоня")
        assert page.evaluate("() => window.bannerSeen") is False


def test_a_screen_that_fails_to_load_says_so_and_loads_on_a_try_again(page: Any) -> None:
    """A screen's module is fetched when first shown (web/app.mjs ``later``): when the
    fetch fails, the page says so in words with a button to try again, never a
    "loading…" for ever; the button loads the page again, and the screen shows."""
    page.route("**/screens/account.mjs", lambda route: route.abort("connectionfailed"))
    try:
        page.reload()  # the screens are fetched ahead once the first shows: this one fails
        sign_in(page, "Сбой")
        page.click("a[href='#account']")
        page.wait_for_selector("[data-load-failed]")
        assert "did not load" in page.inner_text("[data-load-failed]")
        assert not page.locator("p.loading").count()
    finally:
        page.unroute("**/screens/account.mjs")
    page.click("[data-do=load-again]")
    page.wait_for_selector("section.account [data-field=lang]")
