"""The games a server offers, and their rules pages for players (``games``, ``rules``)."""

from __future__ import annotations

import asyncio
import importlib.resources
from pathlib import Path
from typing import Any

from protocol import ErrorCode, ProtocolError

from ..patience import registry
from .records import find_game

#: the players' rules pages in a source checkout (an editable install); an installed
#: package carries them as ``server.rules``
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def rules_text(slug: str) -> str | None:
    """The rules page of ``slug`` (Markdown), from the package or the checkout."""
    try:
        page = importlib.resources.files("server.rules").joinpath(f"{slug}.md")
        return page.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    try:
        return (DOCS / f"{slug}.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def games() -> list[dict[str, Any]]:
    """Every game of the registry, as ``games`` lists it."""
    return [
        {
            "slug": g.slug,
            "title_en": g.title_en,
            "title_ru": g.title_ru,
            "decks": g.decks,
            "summary": g.summary,
        }
        for g in registry.games()
    ]


async def rules(slug: str) -> str:
    """The rules page of a game (read off the event loop); ``not_found`` without one."""
    find_game(slug)
    text = await asyncio.to_thread(rules_text, slug)
    if text is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"the rules of {slug} are not written yet")
    return text
