"""The catalogues (protocol/locale, docs/i18n.md): every message a source marks is in
every language, Russian is Russian, and the compiled files agree with the sources."""

from __future__ import annotations

import re
from typing import Any

import pytest

from protocol.i18n import LANGS, Words, from_accept_language, from_environ, pick
from tools import i18n

#: Russian entries that may stay in Latin letters: names, symbols, codes
ALLOWED_LATIN = frozenset({"pasyans", "pasyans-server", "UTC", "ID", "URL", "JSON", "Redis"})
_LATIN = re.compile(r"[A-Za-z]{2,}")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")


#: the sources' messages extracted once for the module (tests/i18n/conftest.py)
pytestmark = pytest.mark.usefixtures("extracted_once")


def keyed(msgid: str) -> bool:
    """A keyed message (``error.rate_limited``): every language translates it."""
    return bool(re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", msgid))


def test_the_compiled_catalogues_are_up_to_date() -> None:
    assert i18n.stale() == [], "run: python -m tools.i18n"


def test_every_marked_message_is_in_every_catalogue() -> None:
    marked = {m if isinstance(m, str) else m[0] for m, _ in i18n.extracted()}
    marked |= set(i18n.declared())  # every game's piles and actions
    marked |= set(i18n.helps())  # every command's --help
    assert len(marked) > 30
    for lang in LANGS:
        catalog = i18n.read(lang)
        missing = sorted(m for m in marked if catalog.get(m) is None)
        assert not missing, f"{lang}: not in the catalogue (python -m tools.i18n extract)"
        for msgid in marked:
            entry = catalog.get(msgid)
            assert entry is not None
            if lang != "en" or keyed(msgid):
                said = all(i18n.strings(entry)) and not entry.fuzzy
                assert said, f"{lang}: {msgid!r} is not translated"


def test_russian_entries_are_in_russian() -> None:
    catalog = i18n.read("ru")
    english = i18n.read("en")
    for entry in catalog:
        if not entry.id:
            continue
        ids = i18n.ids(entry)
        source = english.get(entry.id)
        said = (i18n.strings(source)[0] if source and keyed(ids[0]) else "") or ids[0]
        for text in i18n.strings(entry):
            words = set(_LATIN.findall(re.sub(r"\{[a-z_]+\}", "", text)))
            if text == said or (words - ALLOWED_LATIN and not _CYRILLIC.search(text)):
                pytest.fail(f"ru: {ids[0]!r} is left in English: {text!r}")


def test_russian_plurals_have_three_forms() -> None:
    catalog = i18n.read("ru")
    plurals = [e for e in catalog if isinstance(e.id, tuple | list)]
    for entry in plurals:
        forms = i18n.strings(entry)
        assert len(forms) == 3 and all(forms), entry.id
    assert i18n.plural_categories("ru") == {"one": 0, "few": 1, "many": 2, "other": 2}


def test_durations_numbers_and_dates_follow_the_locale() -> None:
    en, ru = Words("en"), Words("ru")
    assert en.say("error.rate_limited", {"seconds": 1969}).endswith("try again in 33 minutes.")
    assert ru.say("error.rate_limited", {"seconds": 1969}).endswith("попробуйте через 33 минуты.")
    assert ru.duration(1) == "1 секунду" or ru.duration(1) == "1 секунда"
    assert ru.number(12345) == "12\xa0345"
    assert en.date("2026-11-28") == "Nov 28, 2026"
    assert en.say("error.no_such_key", {}, "the server's words") == "the server's words"


def test_the_language_follows_the_terminal_or_the_browser() -> None:
    assert pick(from_environ({"LANG": "ru_RU.UTF-8"})) == "ru"
    assert pick(from_environ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"})) == "ru"
    assert pick(from_environ({"LC_ALL": "de_DE.UTF-8", "LANGUAGE": "ru:en"})) == "ru"
    assert pick(from_environ({})) == "en"
    assert pick(from_accept_language("de;q=0.9, ru-RU;q=0.8, en;q=0.5")) == "ru"
    assert pick(from_accept_language("en-GB,en;q=0.9,ru;q=0.8")) == "en"


def test_every_game_names_its_piles_and_actions_in_both_languages() -> None:
    from server.patience import registry

    for lang in LANGS:
        words = Words(lang)
        for game in registry.games():
            for key in game.word_keys():
                assert words.known(key), f"{lang}: {game.slug} says {key!r}"
                if key.startswith("pile."):
                    for form in ("from", "to", "acc"):
                        assert words.known(f"{key}.{form}"), f"{lang}: {key}.{form}"


def test_a_move_reads_as_a_sentence() -> None:
    piles: list[dict[str, Any]] = [
        {"id": "H", "name": "pile.hand", "cards": ["KS", "5D"]},
        {"id": "F1", "name": "pile.foundation", "n": 1, "cards": ["4D"]},
        {"id": "C1", "name": "pile.column", "n": 1, "cards": ["2C"]},
    ]
    en, ru = Words("en"), Words("ru")
    move = {"from": "H", "to": "F1"}
    assert en.move(move, piles) == "Move the 5♦ from your hand to foundation 1"
    assert ru.move(move, piles) == "Переложить 5♦ из руки на базу 1"
    pick = {"action": "pick_up", "column": "C1"}
    assert en.move(pick, piles) == "Pick up column 1"
    assert ru.move(pick, piles) == "Взять колонку 1"
    assert ru.move({"action": "deal"}, piles) == "Сдать"


def test_a_game_a_refusal_names_is_said_by_its_title(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal names a game by its slug; a client that knows the games says its title
    in the player's language (``know_titles``, from the ``games`` reply)."""
    from protocol import i18n as words
    from protocol.i18n import know_titles

    monkeypatch.setattr(words, "_TITLES", {})

    know_titles([{"slug": "crescent", "title_ru": "Полумесяц", "title_en": "Crescent"}])
    assert "Полумесяц" in Words("ru").say("error.no_par", {"game": "crescent", "date": "x"})
    assert "Crescent" in Words("en").say("error.no_par", {"game": "crescent", "date": "x"})
    assert "crescent" not in Words("ru").say("error.no_par", {"game": "crescent", "date": "x"})
