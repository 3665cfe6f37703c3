"""Screenshots of the web client for docs/web.md: the board of every game at a phone's
390×844 and a laptop's 1280×800, in English and in Russian (a few moves in, so
foundations and fans show: ``web-board-SLUG-SIZE[-ru].png``), and
the other screens (sign-in, home, a win, replay, leaderboard, account) light and dark,
taken in Debian's headless Chromium from a real server on this machine.

    python -m tools.web_screenshots [DIR]          # default: docs/img (web-*.png)
    python -m tools.web_screenshots --langs        # docs/img/{en,ru}-*.png: both languages
    python -m tools.web_screenshots --icons        # web/icon-192.png, web/icon-512.png

``--langs`` takes a few screens (sign-in, home, a board, the end of a game, a game's
how-to, rules,
account with its language setting) at a phone's size in English and in Russian (the
browser asking for each), side by side in docs/web.md.

Needs ``chromium`` (``apt-get install chromium``) and the dev extras' ``playwright``
(its driver only: the browser is Debian's, never downloaded). Starts its own
redis-server and pasyans server on free loopback ports and stops them after.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import uuid
from pathlib import Path
from typing import Any

from client.connection import Connection
from deploy.procs import ROOT, RedisProcess, ServerProcess
from protocol.messages import Mode
from server.patience import registry
from tools.browser import CHROMIUM, NO_HOWTO, press

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: the locale the browser asks for, by the page's language
LOCALES = {"en": "en-GB", "ru": "ru-RU"}
#: moves played before a board is taken: foundations started, fans grown
MOVES = 6
#: the board laid out for the room it has (web/board.mjs writes data-room)
SETTLED = """() => { const b = document.querySelector('section.game .board');
  const t = b && b.querySelector('.table');
  return Boolean(t) && t.dataset.room === `${b.clientWidth}x${b.clientHeight}`; }"""
#: a few moves, foundations first (played through the page's own queue)
PLAY = """async (n) => {
  const game = window.pasyans.app.game;
  for (let i = 0; i < n && game.playing; i++) {
    const kind = (id) => (game.pile(id) || {}).kind;
    const cards = game.legal.filter((m) => 'from' in m);
    const move = cards.find((m) => kind(m.to) === 'foundation') || cards[0] || game.legal[0];
    if (!move) break;
    await game.play(move);
  }
}"""


async def some_results(url: str) -> None:
    """A few players finish today's Crescent, so its leaderboard has rows."""
    for i, stem in enumerate(("Аня", "Борис", "Вера", "Глеб")):
        async with Connection(url) as conn:
            await conn.register(f"{stem}{uuid.uuid4().int % 1000}")
            state = await conn.start("crescent", Mode.DAILY)
            for _ in range(i):
                state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
            await conn.resign(state["game_id"])


def shoot(page: Any, out: Path, name: str, prefix: str = "web") -> None:
    page.wait_for_timeout(250)  # the last frame of a move's glide
    path = out / f"{prefix}-{name}.png"
    page.screenshot(path=str(path))
    print(f"wrote {path}")


def boards(browser: Any, base: str, out: Path, lang: str = "en") -> None:
    """Every game's board at both sizes, light, a few moves in, in ``lang``."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, color_scheme="light", locale=LOCALES[lang]
    )
    context.add_init_script(NO_HOWTO)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(base)
    page.fill("[data-field=name]", f"Маша{uuid.uuid4().int % 1000}")
    page.click("[data-do=register]")
    for slug in registry.slugs():
        page.wait_for_selector(f"[data-game={slug}]")
        page.set_viewport_size({"width": 390, "height": 844})
        page.click(f"[data-game={slug}] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        page.evaluate(PLAY, MOVES)
        page.evaluate("() => window.pasyans.app.game.say('')")
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(SETTLED)
            shoot(page, out, f"board-{slug}-{size}{'' if lang == 'en' else '-' + lang}")
        page.click("[data-do=home]")
    context.close()


def screens(browser: Any, base: str, out: Path, size: str, scheme: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    context.add_init_script(NO_HOWTO)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda d: d.accept())
    page.goto(base)
    page.wait_for_selector("[data-field=name]")
    shoot(page, out, f"signin-{size}-{scheme}")
    page.fill("[data-field=name]", f"Маша{uuid.uuid4().int % 1000}")
    page.click("[data-do=register]")
    page.wait_for_selector("[data-game=crescent] .cert:not(:empty)")
    shoot(page, out, f"home-{size}-{scheme}")
    # a win: Travellers (classic) practice, finished by the server when it can
    for _ in range(5):
        page.click("[data-game=travellers_classic] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        page.click("[data-do=finish]")
        page.wait_for_function("() => !window.pasyans.app.game.inflight")
        if page.locator("section.game[data-status=won]").count():
            break
        page.click("[data-do=home]")
    if page.locator("section.game[data-status=won]").count():
        page.wait_for_timeout(1200)  # the win's moment
        shoot(page, out, f"won-{size}-{scheme}")
        gid = page.get_attribute("section.game", "data-game-id")
        page.goto(f"{base}#replay/{gid}")
        page.wait_for_selector(".replay[data-step='0'] .table")
        for _ in range(12):
            page.click("[data-do=forward]")
        page.wait_for_selector(".replay[data-step='12'] .table")
        shoot(page, out, f"replay-{size}-{scheme}")
    page.goto(f"{base}#home")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    press(page, "rules")
    page.wait_for_selector("dialog[open] .rules[data-loaded='1']")
    shoot(page, out, f"rules-{size}-{scheme}")
    page.goto(f"{base}#leaderboard/crescent")
    page.wait_for_selector("table.entries tr[data-player]")
    shoot(page, out, f"leaderboard-{size}-{scheme}")
    page.goto(f"{base}#account")
    page.wait_for_selector("section.account")
    shoot(page, out, f"account-{size}-{scheme}")
    context.close()


def languages(browser: Any, base: str, out: Path, lang: str) -> None:
    """A few screens at a phone's size in ``lang`` (``LANG-NAME.png``)."""
    width, height = SIZES["phone"]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[lang])
    context.add_init_script(NO_HOWTO)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("dialog", lambda d: d.accept())
    page.goto(base)
    page.wait_for_selector("[data-field=name]")
    shoot(page, out, "signin", lang)
    page.fill("[data-field=name]", f"Маша{uuid.uuid4().int % 1000}")
    page.click("[data-do=register]")
    page.wait_for_selector("[data-game=crescent] .cert:not(:empty)")
    shoot(page, out, "home", lang)
    page.click("[data-game=hand_reserve] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    page.evaluate(PLAY, MOVES)
    page.wait_for_function(SETTLED)
    shoot(page, out, "board", lang)
    press(page, "resign")
    page.wait_for_selector("aside.end")
    page.wait_for_timeout(600)
    shoot(page, out, "end", lang)
    # a game's how-to, as a player sees it the first time (how-tos on)
    page.evaluate("() => localStorage.setItem('pasyans.howTo', '1')")
    page.goto(f"{base}#home")
    page.click("[data-game=st_helena] [data-do=practice]")
    page.wait_for_selector("[data-howto] ol li")
    shoot(page, out, "howto", lang)
    page.click("[data-do=howto-skip]")
    page.goto(f"{base}#home")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    press(page, "rules")
    page.wait_for_selector("dialog[open] .rules[data-loaded='1']")
    shoot(page, out, "rules", lang)
    page.goto(f"{base}#account")
    page.wait_for_selector("section.account [data-field=lang]")
    shoot(page, out, "account", lang)
    context.close()


def icons(browser: Any) -> None:
    """web/icon.svg drawn at the sizes the manifest lists as PNG."""
    svg = (ROOT / "web" / "icon.svg").read_text(encoding="utf-8")
    for size in (192, 512):
        page = browser.new_page(viewport={"width": size, "height": size})
        sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
        page.set_content(f"<body style='margin:0'>{sized}</body>")
        path = ROOT / "web" / f"icon-{size}.png"
        page.screenshot(path=str(path), omit_background=True)
        page.close()
        print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.web_screenshots", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("dir", nargs="?", default=str(ROOT / "docs" / "img"))
    parser.add_argument("--icons", action="store_true", help="draw the app's PNG icons")
    parser.add_argument(
        "--langs", action="store_true", help="a few phone screens in English and in Russian"
    )
    parser.add_argument(
        "--boards", action="store_true", help="only the boards, in English and in Russian"
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    if args.icons:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM)
            icons(browser)
            browser.close()
        return 0
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    with RedisProcess() as redis, ServerProcess(redis_url=redis.url) as server:
        asyncio.run(some_results(server.url))
        base = f"http://127.0.0.1:{server.port}/"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM)
            if args.langs:
                for lang in LOCALES:
                    languages(browser, base, out, lang)
            else:
                for lang in LOCALES:
                    boards(browser, base, out, lang)
            if not args.langs and not args.boards:
                for size, scheme in (("desktop", "light"), ("phone", "dark")):
                    screens(browser, base, out, size, scheme)
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
