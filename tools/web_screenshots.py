"""Screenshots of the web client for docs/web.md: every main screen at 1280×800
(desktop) and 390×844 (phone), light and dark, taken in Debian's headless Chromium
from a real server on this machine.

    python -m tools.web_screenshots [DIR]   # default: docs/img (web-*.png)

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
from tools.browser import CHROMIUM

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SCHEMES = ("light", "dark")


async def some_results(url: str) -> None:
    """A few players finish today's Crescent, so its leaderboard has rows."""
    for i, stem in enumerate(("Аня", "Борис", "Вера", "Глеб")):
        async with Connection(url) as conn:
            await conn.register(f"{stem}{uuid.uuid4().int % 1000}")
            state = await conn.start("crescent", Mode.DAILY)
            for _ in range(i):
                state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
            await conn.resign(state["game_id"])


def shoot(page: Any, out: Path, name: str) -> None:
    page.wait_for_timeout(300)  # let the last render and any brief animation settle
    page.screenshot(path=str(out / f"web-{name}.png"))
    print(f"wrote {out / f'web-{name}.png'}")


def screens(browser: Any, base: str, out: Path, size: str, scheme: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(base)
    page.wait_for_selector("[data-field=name]")
    shoot(page, out, f"signin-{size}-{scheme}")
    page.fill("[data-field=name]", f"Маша{uuid.uuid4().int % 1000}")
    page.click("[data-do=register]")
    page.wait_for_selector("[data-game=crescent]")
    shoot(page, out, f"home-{size}-{scheme}")
    for slug in ("crescent", "st_helena"):
        page.click(f"[data-game={slug}] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing]")
        shoot(page, out, f"board-{slug}-{size}-{scheme}")
        page.click("text=← home")
        page.wait_for_selector("[data-game=crescent]")
    page.goto(f"{base}#leaderboard/crescent")
    page.wait_for_timeout(800)
    shoot(page, out, f"leaderboard-{size}-{scheme}")
    context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.web_screenshots", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("dir", nargs="?", default=str(ROOT / "docs" / "img"))
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print("needs Debian's chromium: apt-get install chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    with RedisProcess() as redis, ServerProcess(redis_url=redis.url) as server:
        asyncio.run(some_results(server.url))
        base = f"http://127.0.0.1:{server.port}/"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM)
            for size in SIZES:
                for scheme in SCHEMES:
                    screens(browser, base, out, size, scheme)
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
