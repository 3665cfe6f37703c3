"""The web client's share of the catalogue (docs/i18n.md): every message its modules
mark is extracted (Babel's JavaScript extractor misses a call nested in another's
arguments), and its JSON holds what the page says, not the terminal client's words."""

from __future__ import annotations

import json
import re

import pytest

from tools import i18n

#: a message as the web's modules mark it: _("…"), N_("…"), ngettext("…", …)
MARKED = re.compile(r'\b(?:_|N_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"')


#: the sources' messages extracted once for the module (tests/i18n/conftest.py)
pytestmark = pytest.mark.usefixtures("extracted_once")


def marked_in_web() -> set[str]:
    found: set[str] = set()
    for path in sorted((i18n.ROOT / "web").rglob("*.mjs")):
        if "vendor" in path.parts:
            continue
        found.update(
            json.loads(f'"{m.group(1)}"') for m in MARKED.finditer(path.read_text("utf-8"))
        )
    return found


def test_every_message_the_web_marks_is_extracted() -> None:
    marked = marked_in_web()
    assert len(marked) > 200
    assert marked - i18n.web_messages() == set(), "a call nested in another's arguments?"


def test_the_web_json_holds_the_pages_words_and_the_keyed_ones_only() -> None:
    web = i18n.web_messages()
    for lang in ("en", "ru"):
        messages = json.loads((i18n.WEB / f"{lang}.json").read_text("utf-8"))["messages"]
        assert all(msgid in web or i18n.keyed(msgid) for msgid in messages), lang
        assert "error.rate_limited" in messages and "pile.column.acc" in messages
    ru = json.loads((i18n.WEB / "ru.json").read_text("utf-8"))
    assert ru["messages"]["{n} entry"] == ["{n} запись", "{n} записи", "{n} записей"]
    assert ru["plural"] == {"one": 0, "few": 1, "many": 2, "other": 2}
    # the terminal client's own words stay out of the page's catalogue
    assert "(copied to the clipboard if your terminal allows it)" not in ru["messages"]
