"""Every game's rules page is written in Russian as well as in English (issue 38;
docs/i18n.md, "Rules pages"), and neither says anything meant for developers.

The Russian pages come on two branches: ``rules-ru-a`` (the seven games of ``A_PAGES``)
and ``rules-ru-b`` (the eight of ``B_PAGES``). Until both are merged, the pages of the
branch not yet merged are expected to fail (``strict``: once they pass, the mark fails
the test, and comes off)."""

from __future__ import annotations

import re

import pytest

from server.patience import registry
from server.services.catalogue import rendered, rules_text

A_PAGES = frozenset(
    {"picture_gallery", "first_and_last", "short", "st_helena", "fifteen", "hemispheres"}
    | {"hand_reserve"}
)
B_PAGES = frozenset(
    {"carpet", "squaring_circle", "parade", "cotillion", "little_packs"}
    | {"travellers", "travellers_aces", "travellers_classic"}
)
#: what belongs in docs/, not on a player's page: the wire, the server's ops, how a
#: client draws
FOR_DEVELOPERS = re.compile(
    r"docs/|\bwire\b|protocol|\bengine\b|client draws|the server's `|`auto`|`finish`"
    r"|протокол|движ[ое]к|клиент рисует"
)


def until_b(slug: str) -> pytest.MarkDecorator | tuple[()]:
    """The mark of a page written on ``rules-ru-b`` (none once both branches are in)."""
    if slug not in B_PAGES:
        return ()
    return pytest.mark.xfail(reason="written on branch rules-ru-b", strict=True)


def test_the_two_branches_share_out_every_game() -> None:
    assert not A_PAGES & B_PAGES
    assert A_PAGES | B_PAGES | {"crescent"} == set(registry.slugs())


@pytest.mark.parametrize("slug", [pytest.param(s, marks=until_b(s)) for s in registry.slugs()])
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


@pytest.mark.parametrize("slug", [pytest.param(s, marks=until_b(s)) for s in registry.slugs()])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_rules_page_is_for_players(slug: str, lang: str) -> None:
    text = rules_text(slug, lang)
    assert text is not None
    assert not FOR_DEVELOPERS.findall(text), "notes for developers go to docs/"
