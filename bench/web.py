"""The web client's targets (issue 26), in Debian's headless Chromium on loopback:

- first load of ``/`` in a fresh browser context, ``--loads`` times (medians): bytes
  transferred (gzip, headers included) before the first screen is drawn ≤ 150 KB, and
  all the page fetches once its network is idle (the other screens, fetched after the
  first is up); interactive — the sign-in form drawn, by the page's own clock from the
  start of navigation — ≤ 1 s, and the same seen from outside (``goto`` to the form);
- a click to its move drawn (before the server's answer: ``window.pasyansDrawn``) and
  to the board drawn after the answer (``window.pasyansTimings``), ≤ 50 ms median (the
  page measures both with ``performance.now()``);
- with ``--latency MS`` every frame of the moves' page arrives MS late each way (a
  far server): the board after the answer then waits 2 × MS, and the target is the
  click to its move drawn;
- ``--moves`` moves of every game played by clicks, the page's board compared with a
  ``resume`` of the game after each: 0 mismatches.

    python -m bench.web [--moves 60] [--loads 5] [--latency 250] [--games crescent,parade] [--json]

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
from tools.browser import CHROMIUM, NO_HOWTO, a_card_move, board_at, click_move, held

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


#: the time (ms from navigation start) the sign-in form is first drawn, kept in the page
SHOWN = """new MutationObserver((_, watch) => {
  if (document.querySelector('[data-field=name]')) {
    window.__shown = performance.now();
    watch.disconnect();
  }
}).observe(document, {subtree: true, childList: true});"""
#: bytes (gzip, headers included) of the page and every file it fetched before ``__shown``
BEFORE_SHOWN = """() => [...performance.getEntriesByType('navigation'),
  ...performance.getEntriesByType('resource')]
  .filter((e) => e.startTime <= window.__shown)
  .reduce((sum, e) => sum + e.transferSize, 0)"""


#: a WebSocket whose every frame, each way, arrives ``__LATENCY__`` ms late (in order)
LATENCY = """(() => {
  const Real = window.WebSocket;
  const late = __LATENCY__;
  class Late extends Real {
    send(data) {
      setTimeout(() => { if (this.readyState === 1) super.send(data); }, late);
    }
    set onmessage(handler) {
      super.onmessage = (event) => setTimeout(() => handler(event), late);
    }
    get onmessage() { return super.onmessage; }
  }
  window.WebSocket = Late;
})();"""

#: what the page shows when a click played nothing (for the report)
STUCK = """() => { const g = window.pasyans.app.game;
  return {message: document.querySelector('.message')?.textContent, seq: g.state.seq,
          source: g.source, queued: g.queue.length, inflight: Boolean(g.inflight),
          choices: g.choices && g.choices.length}; }"""


def first_load(browser: Any, url: str) -> dict[str, float]:
    """One first visit, in a fresh context (nothing cached)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(NO_HOWTO)
    page = context.new_page()
    page.add_init_script(SHOWN)
    transferred = 0

    def count(response: Any) -> None:
        nonlocal transferred
        sizes = response.request.sizes()
        transferred += sizes["responseBodySize"] + sizes["responseHeadersSize"]

    page.on("response", count)
    began = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("[data-field=name]")
    outside = time.perf_counter() - began
    page.wait_for_load_state("networkidle")
    shown = page.evaluate("() => window.__shown") / 1000
    first = page.evaluate(BEFORE_SHOWN)
    context.close()
    return {"bytes": first, "all": transferred, "shown": shown, "outside": outside}


def run(moves: int, slugs: list[str], loads: int = 5, latency: int = 0) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with (
        RedisProcess() as redis,
        ServerProcess(redis_url=redis.url) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM)
        url = f"http://127.0.0.1:{server.port}/"
        visits = [first_load(browser, url) for _ in range(max(1, loads))]
        load = {key: statistics.median(v[key] for v in visits) for key in visits[0]}
        transferred = int(load["bytes"])
        interactive = load["shown"]
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(NO_HOWTO)
        page.set_default_timeout(10_000 + 40 * latency)
        if latency:
            page.add_init_script(LATENCY.replace("__LATENCY__", str(latency)))
        page.goto(url)
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
                    said = page.evaluate(STUCK)
                    stuck.append(f"{slug} move {done + 1}: {move}; the page: {said}")
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
    drawn_median = statistics.median(drawn) if drawn else float("nan")
    return {
        "first_load_bytes": transferred,
        "all_bytes": int(load["all"]),
        "interactive_s": round(interactive, 3),
        "interactive_outside_s": round(load["outside"], 3),
        "loads": len(visits),
        "latency_ms": latency,
        "click_to_drawn_median_ms": round(drawn_median, 1) if drawn else None,
        "click_to_board_median_ms": round(median, 1),
        "moves": played,
        "mismatches": mismatches,
        "stuck": stuck,
        "ok": not stuck
        and transferred <= LOAD_BYTES
        and interactive <= LOAD_SECONDS
        and (drawn_median if latency else median) <= CLICK_MS
        and mismatches == 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__)
    parser.add_argument("--moves", type=int, default=60, help="moves per game")
    parser.add_argument("--loads", type=int, default=5, help="first loads measured")
    parser.add_argument(
        "--latency",
        type=int,
        default=0,
        help="ms each frame of the moves' page is held back, each way (a far server)",
    )
    parser.add_argument("--games", default=",".join(registry.slugs()))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s]
    result = run(args.moves, slugs, args.loads, args.latency)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
