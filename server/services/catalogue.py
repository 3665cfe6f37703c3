"""The games a server offers, and their rules pages for players (``games``, ``rules``)."""

from __future__ import annotations

import asyncio
import importlib.resources
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from protocol import ErrorCode, ProtocolError

from ..patience import registry
from .records import find_game

#: the players' rules pages in a source checkout (an editable install); an installed
#: package carries them as ``server.rules``
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def rules_text(slug: str, lang: str = "en") -> str | None:
    """The rules page of ``slug`` (Markdown) in ``lang`` (English: ``docs/games/``,
    another language: ``docs/games/LANG/``), from the package or the checkout."""
    parts = [f"{slug}.md"] if lang == "en" else [lang, f"{slug}.md"]
    try:
        page = importlib.resources.files("server.rules")
        for part in parts:  # one at a time: a namespace package's path (Python 3.11)
            page = page.joinpath(part)  # joins a single name only
        return page.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    try:
        return DOCS.joinpath(*parts).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


#: Markdown as CommonMark with tables; a page's own HTML is shown as text, not run
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def rendered(text: str) -> str:
    """A rules page in HTML (markdown-it-py, a maintained CommonMark renderer)."""
    return str(_MARKDOWN.render(text))


def games() -> list[dict[str, Any]]:
    """Every game of the registry, as ``games`` lists it."""
    return [
        {
            "slug": g.slug,
            "title_en": g.title_en,
            "title_ru": g.title_ru,
            "decks": g.decks,
            "summary": g.summary,
            # the piles' places, no card: what a home screen draws a game's picture from
            "layout": [{"x": p.x, "y": p.y, "kind": p.kind, "fan": p.fan} for p in g.layout],
        }
        for g in registry.games()
    ]


#: (game, language asked) → its page, read and rendered once a process (the files do
#: not change while it runs): a long Russian page cost 5.7 ms of CPU a request, which
#: a flood of ``rules`` turned into everybody's latency (issue 46)
_PAGES: dict[tuple[str, str], dict[str, Any] | None] = {}


def _page(slug: str, lang: str) -> dict[str, Any] | None:
    """The page of ``slug`` in ``lang`` if written in it, else in English."""
    for said in dict.fromkeys([lang, "en"]):
        text = rules_text(slug, said)
        if text is not None:
            return {"game": slug, "text": text, "html": rendered(text), "lang": said}
    return None


async def rules(slug: str, lang: str | None = None) -> dict[str, Any]:
    """The rules page of a game in ``lang`` if it is written in it, else in English:
    ``text`` (Markdown), ``html`` and ``lang`` (read and rendered off the event loop
    the first time a process is asked for it, then from memory); ``not_found``
    without one."""
    find_game(slug)
    key = (slug, lang or "en")
    if key not in _PAGES:
        _PAGES[key] = await asyncio.to_thread(_page, *key)
    page = _PAGES[key]
    if page is None:
        raise ProtocolError(
            ErrorCode.NOT_FOUND,
            f"the rules of {slug} are not written yet",
            key="error.no_rules",
            params={"game": slug},
        )
    return dict(page)
