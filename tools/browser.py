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

#: the Chromium to drive (PASYANS_CHROMIUM overrides): Debian's, never a download
CHROMIUM = os.environ.get("PASYANS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


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


def click_move(page: Any, move: dict[str, Any], state: dict[str, Any]) -> None:
    """Play ``move`` as a player does: an action's button, or its card then its target."""
    if "action" in move:
        actions = [m for m in state["legal"] if "action" in m]
        page.locator("button.action").nth(actions.index(move)).click()
        return
    source = page.locator(f"[data-pile='{move['from']}'] [data-index]")
    if move.get("index") is not None:
        source = page.locator(f"[data-pile='{move['from']}'] [data-index='{move['index']}']")
    source.last.click()
    page.locator(f"[data-pile='{move['to']}']").click()


def a_card_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return next((m for m in legal if "from" in m and "n" not in m), legal[0])
