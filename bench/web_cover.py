"""How much of the screen the cards cover, per game and screen size (issue 48), in
Debian's headless Chromium against a real server on loopback: each game's deal number
``--seed`` opened (mode ``deal``), its opening view measured at each size — the share
of the viewport covered by cards (their union, clipped to what the board shows), the
narrowest card, and the piles outside the visible board.

    python -m bench.web_cover [--seed 7] [--sizes 390x844,1280x800] [--games crescent] [--json]

A figure, not a test: tests/web/test_boards.py asserts the floor (COVER) this measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from typing import Any

from deploy.procs import RedisProcess, ServerProcess
from server.patience import registry
from tools.browser import CHROMIUM, NO_HOWTO, sign_in

SIZES = [(390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080)]

#: the board laid out for the room it has now (web/board.mjs writes data-room)
SETTLED = """() => { const b = document.querySelector('section.game .board');
  const t = b && b.querySelector('.table');
  return Boolean(t) && t.dataset.room === `${b.clientWidth}x${b.clientHeight}`; }"""

#: {cover: share of the viewport covered by cards, card: narrowest px, out: [pile ids
#: not wholly inside the board's visible area]}
COVER = """() => {
  const board = document.querySelector('section.game .board');
  const b = board.getBoundingClientRect();
  const cell = 4, cols = Math.ceil(innerWidth / cell), rows = Math.ceil(innerHeight / cell);
  const hit = new Uint8Array(cols * rows);
  const cards = [...board.querySelectorAll('.card, .slot')].map((c) => c.getBoundingClientRect());
  for (const r of cards) {
    const x0 = Math.max(r.left, b.left), x1 = Math.min(r.right, b.right);
    const y0 = Math.max(r.top, b.top), y1 = Math.min(r.bottom, b.bottom);
    for (let y = Math.ceil(y0 / cell); y * cell < y1; y++)
      for (let x = Math.ceil(x0 / cell); x * cell < x1; x++) hit[y * cols + x] = 1;
  }
  const out = [...board.querySelectorAll('[data-pile]')].filter((p) => {
    const r = p.getBoundingClientRect();
    return r.left < b.left - 0.5 || r.top < b.top - 0.5
      || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5;
  }).map((p) => p.dataset.pile);
  return {cover: hit.reduce((a, v) => a + v, 0) / (cols * rows),
          card: Math.round(Math.min(...cards.map((r) => r.width))), out};
}"""


def measure(page: Any, slug: str, seed: int, sizes: list[tuple[int, int]]) -> list[dict[str, Any]]:
    page.set_viewport_size({"width": sizes[0][0], "height": sizes[0][1]})
    page.evaluate(
        "async ([slug, seed]) => (await import('/session.mjs')).start(slug, 'deal', {seed})",
        [slug, seed],
    )
    page.wait_for_selector("section.game[data-status=playing] .table")
    rows = []
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(SETTLED)
        rows.append({"game": slug, "size": f"{width}x{height}", **page.evaluate(COVER)})
    page.click("[data-do=home]")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES))
    parser.add_argument("--games", default=",".join(registry.slugs()))
    parser.add_argument("--lang", default="en")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    from playwright.sync_api import sync_playwright

    rows: list[dict[str, Any]] = []
    env = {"PASYANS_KEY_PREFIX": f"cover{uuid.uuid4().hex[:8]}:"}
    redis = RedisProcess()
    with redis, ServerProcess(redis_url=redis.url, env=env) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(locale=args.lang)
        context.add_init_script(NO_HOWTO)
        page = context.new_page()
        page.on("pageerror", lambda e: print("page error:", e, file=sys.stderr))
        page.on(
            "console",
            lambda m: print("console:", m.text, file=sys.stderr) if m.type == "error" else None,
        )
        page.set_default_timeout(60_000)
        page.goto(f"http://127.0.0.1:{server.port}/")
        sign_in(page, "cover")
        for slug in args.games.split(","):
            rows += measure(page, slug, args.seed, sizes)  # type: ignore[arg-type]
        browser.close()
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    else:
        for r in rows:
            out = (
                f"  OUT: {' '.join(r['out'][:6])}{'…' if len(r['out']) > 6 else ''}"
                if r["out"]
                else ""
            )
            cover = f"cover {r['cover'] * 100:5.1f}%  card {r['card']:4} px"
            print(f"{r['game']:20} {r['size']:>9}  {cover}{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
