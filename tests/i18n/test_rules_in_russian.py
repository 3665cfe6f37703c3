"""Every game's rules page is written in Russian as well as in English (issue 38;
docs/i18n.md, "Rules pages"), and neither says anything meant for developers."""

from __future__ import annotations

import re

import pytest

from server.patience import registry
from server.services.catalogue import rendered, rules_text

#: what belongs in docs/, not on a player's page: the wire, the server's ops, how a
#: client draws
FOR_DEVELOPERS = re.compile(
    r"docs/|\bwire\b|protocol|\bengine\b|client draws|the server's `|`auto`|`finish`"
    r"|протокол|движ[ое]к|клиент рисует"
)


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_game_has_its_rules_in_russian(slug: str) -> None:
    game = registry.get(slug)
    text = rules_text(slug, "ru")
    assert text is not None, f"docs/games/ru/{slug}.md is not written"
    title = f"{game.title_ru} — {game.title_en}"
    assert text.startswith(f"# {title}\n")
    page = rendered(text)
    assert page.startswith(f"<h1>{title}</h1>")
    for section in ("Раскладка", "Игра", "Конец"):
        assert f"<h2>{section}</h2>" in page, section
    assert "<h2>Безопасные ходы</h2>" in page  # the client sends players there
    # read in Russian: most of its words are
    seen = re.sub(r"<[^>]+>", " ", re.sub(r"<code>.*?</code>", "", page))
    words = re.findall(r"[^\W\d_]{3,}", seen)
    latin = [w for w in words if re.fullmatch(r"[A-Za-z]+", w)]
    assert len(latin) < len(words) / 50, sorted(set(latin))


@pytest.mark.parametrize("slug", registry.slugs())
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_rules_page_is_for_players(slug: str, lang: str) -> None:
    text = rules_text(slug, lang)
    assert text is not None
    assert not FOR_DEVELOPERS.findall(text), "notes for developers go to docs/"
