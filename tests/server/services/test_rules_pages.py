"""The rules pages written in Russian (docs/i18n.md, "Rules pages"): each is a game's,
is titled as the registry names it, quotes its seed, and reads through the server's
renderer as text with nothing of Markdown left."""

from __future__ import annotations

import html
import re

import pytest

from server.patience import registry
from server.services.catalogue import DOCS, rendered, rules_text

RUSSIAN = sorted((DOCS / "ru").glob("*.md"))


def seen(page: str) -> list[str]:
    """The lines a reader sees of a rendered page: its text without the tags."""
    return html.unescape(re.sub(r"<[^>]+>", "", page)).splitlines()


def test_every_russian_page_is_a_games() -> None:
    assert RUSSIAN and {p.stem for p in RUSSIAN} <= set(registry.slugs())


@pytest.mark.parametrize("slug", [p.stem for p in RUSSIAN])
def test_a_russian_page_renders_with_no_markdown_left(slug: str) -> None:
    game = registry.get(slug)
    text = rules_text(slug, "ru")
    assert text is not None and text.startswith(f"# {game.title_ru} — {game.title_en}\n")
    page = rendered(text)
    assert page.startswith(f"<h1>{game.title_ru} — {game.title_en}</h1>")
    assert re.search(r"<blockquote>\s*<p>«", page), "the seed's own words, quoted"
    for line in seen(page):
        assert "**" not in line and "`" not in line and "](" not in line, line
        assert not re.match(r"\s*(#|>|[-*+] |\|)", line), line
