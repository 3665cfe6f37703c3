"""The web client's targets (issue 26), in Debian's headless Chromium on loopback:

- first load of ``/``: bytes transferred (gzip) ≤ 150 KB, interactive (the sign-in
  form drawn) ≤ 1 s;
- a click to its move drawn (before the server's answer: ``window.pasyansDrawn``) and
  to the board drawn after the answer (``window.pasyansTimings``), ≤ 50 ms median (the
  page measures both with ``performance.now()``);
- ``--moves`` moves of every game played by clicks, the page's board compared with a
  ``resume`` of the game after each: 0 mismatches.

    python -m bench.web [--moves 60] [--games crescent,parade] [--json]

Long by design: the browser tests (tests/web) play one move a game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from typing import Any

from deploy.procs import RedisProcess, ServerProcess
from server.patience import registry
from tools.browser import CHROMIUM, a_card_move, board_at, click_move, held

LOAD_BYTES = 150_000
LOAD_SECONDS = 1.0
CLICK_MS = 50.0


def resumed(page: Any, game_id: str) -> dict[str, Any]:
    """The game as the server has it, asked by the page's own connection."""
    state: dict[str, Any] = page.evaluate(
        """async (id) => { const r = await window.pasyans.conn.call("resume", {game_id: id});
             return {seq: r.state.seq, piles: Object.fromEntries(
               r.state.view.piles.map(p => [p.id, p.cards]))}; }""",
        game_id,
    )
    return state


def run(moves: int, slugs: list[str]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with (
        RedisProcess() as redis,
        ServerProcess(redis_url=redis.url) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(10_000)
        transferred = 0

        def count(response: Any) -> None:
            nonlocal transferred
            sizes = response.request.sizes()
            transferred += sizes["responseBodySize"] + sizes["responseHeadersSize"]

        page.on("response", count)
        began = time.perf_counter()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("[data-field=name]")
        interactive = time.perf_counter() - began
        page.remove_listener("response", count)
        page.fill("[data-field=name]", f"bench{uuid.uuid4().hex[:6]}")
        page.click("[data-do=register]")
        page.wait_for_selector("[data-game=crescent]")
        mismatches = 0
        played = 0
        stuck: list[str] = []
        for slug in slugs:
            page.click(f"[data-game={slug}] [data-do=practice]")
            page.wait_for_selector("section.game[data-status=playing]")
            for done in range(moves):
                state = held(page)
                if state["status"] != "playing" or not state["legal"]:
                    break
                move = a_card_move(state["legal"])
                click_move(page, move, state)
                try:
                    after = board_at(page, state["seq"] + 1)
                except Exception:  # the click played nothing: a defect of the page
                    stuck.append(f"{slug} move {done + 1}: {move}")
                    break
                played += 1
                truth = resumed(page, state["game_id"])
                if truth["piles"] != after["piles"] or truth["seq"] != after["seq"]:
                    mismatches += 1
            page.click("[data-do=home]")
            page.wait_for_selector(f"[data-game={slug}]")
        timings: list[float] = page.evaluate("() => window.pasyansTimings || []")
        drawn: list[float] = page.evaluate("() => window.pasyansDrawn || []")
        browser.close()
    median = statistics.median(timings) if timings else float("nan")
    return {
        "first_load_bytes": transferred,
        "interactive_s": round(interactive, 3),
        "click_to_drawn_median_ms": round(statistics.median(drawn), 1) if drawn else None,
        "click_to_board_median_ms": round(median, 1),
        "moves": played,
        "mismatches": mismatches,
        "stuck": stuck,
        "ok": not stuck
        and transferred <= LOAD_BYTES
        and interactive <= LOAD_SECONDS
        and median <= CLICK_MS
        and mismatches == 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__)
    parser.add_argument("--moves", type=int, default=60, help="moves per game")
    parser.add_argument("--games", default=",".join(registry.slugs()))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.moves, [s for s in args.games.split(",") if s])
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
