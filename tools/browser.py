"""Playing the web client as a player does, in a real browser (playwright driving
Debian's Chromium): what the browser tests, the web benchmark and the screenshots
share. The page is found by its stable hooks: ``data-pile``, ``data-card``,
``data-game`` (home rows), ``data-game-id``, ``data-seq`` and ``data-status`` (the
board), ``data-do`` (buttons)."""

from __future__ import annotations

import os
import shutil
import uuid
from typing import Any

#: the Chromium to drive (PASYANS_CHROMIUM overrides): Debian's, never a download. The
#: full browser, as players run it: the benchmark and the screenshots.
CHROMIUM = os.environ.get("PASYANS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

#: the Chromium the browser tests drive (PASYANS_CHROMIUM overrides): Debian's
#: chromium-headless-shell when installed (.ci/run installs it), the same release's Blink
#: without the full browser around it, as Playwright's own headless default is; a
#: browser test's Chromium costs about 40 % less CPU there (issue 45: tests/web took 169
#: CPU-s of Chromium, 98 with the shell). Without it, the full browser.
TEST_CHROMIUM = (
    os.environ.get("PASYANS_CHROMIUM") or shutil.which("chromium-headless-shell") or CHROMIUM
)


#: an init script for a browser context that plays by script (tests, benchmarks,
#: screenshots): no game's how-to over its first board (web/howto.mjs) unless the
#: page turned them on itself (about:blank, where a test page waits between tests,
#: has no storage)
NO_HOWTO = (
    "if (location.protocol.startsWith('http')"
    " && localStorage.getItem('pasyans.howTo') === null)"
    " localStorage.setItem('pasyans.howTo', '0');"
)


def sign_in(page: Any, stem: str = "Маша") -> str:
    name = f"{stem}{uuid.uuid4().int % 100_000}"
    page.fill("[data-field=name]", name)
    page.click("[data-do=register]")
    page.wait_for_selector("[data-game=crescent]")
    return name


def held(page: Any) -> dict[str, Any]:
    """The state the page holds (its board), as plain data."""
    state: dict[str, Any] = page.evaluate(
        """() => { const s = window.pasyans.app.game.state;
                   return {game_id: s.game_id, seq: s.seq, status: s.status, legal: s.legal,
                           piles: Object.fromEntries(s.view.piles.map(p => [p.id, p.cards]))}; }"""
    )
    return state


def board_at(page: Any, seq: int) -> dict[str, Any]:
    page.wait_for_selector(f"section.game[data-seq='{seq}']")
    return held(page)


def board_after(page: Any, seq: int) -> dict[str, Any]:
    """The board once it is at ``seq`` or later: a move may bring the safe moves the
    game plays after it in the same reply (St Helena's "played 1 safe move")."""
    page.wait_for_function(
        "(seq) => Number(document.querySelector('section.game')?.dataset.seq) >= seq", arg=seq
    )
    return held(page)


def click_move(page: Any, move: dict[str, Any], state: dict[str, Any]) -> None:
    """Play ``move`` as a player does: an action's button (opening its list first when
    the action is offered several ways), or its card then its target — unless the card
    alone played it (a single tap sends a card home when that is its only move)."""
    if "action" in move:
        actions = [m for m in state["legal"] if "action" in m]
        button = page.locator(f"button.action[data-action-index='{actions.index(move)}']")
        if not button.is_visible():
            page.click(f"details[data-group='{move['action']}'] > summary")
        button.click()
        return
    source = page.locator(f"[data-pile='{move['from']}'] [data-index]")
    if move.get("index") is None:
        source.last.click()
    else:  # a card under others: by its corner, the part of it a fan leaves in sight
        source = page.locator(f"[data-pile='{move['from']}'] [data-index='{move['index']}']")
        source.last.click(position={"x": 4, "y": 4})
    # the click is read in turn (the board's input queue): once it is, the card is
    # either chosen or on its way (asked at once, a tap still queued read as played)
    page.wait_for_function(
        "() => { const g = window.pasyans.app.game;"
        " return !g.queue.length && (!g.pumping || g.inflight); }"
    )
    if page.evaluate("() => window.pasyans.app.game.source === null"):
        return  # played by the tap alone (or refused: the caller sees the seq stay)
    page.locator(f"[data-pile='{move['to']}']").click()


def press(page: Any, do: str) -> None:
    """Click the board's button ``data-do=do``, opening the "More" list first when the
    button is in it (Resign, Rules, New game)."""
    button = page.locator(f"[data-do='{do}']").first
    if not button.is_visible():
        page.click("details.more:not(.action-group) > summary")
    button.click()


def a_card_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next((m for m in legal if "from" in m and "n" not in m), legal[0])
