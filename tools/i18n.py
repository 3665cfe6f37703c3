"""The catalogues: extract the messages, update each language's ``.po``, compile them.

::

    python -m tools.i18n             compile every .po to .mo (Python) and JSON (web)
    python -m tools.i18n extract     add the messages the sources use to every .po
    python -m tools.i18n check       exit 1 when a compiled file is not up to date

The sources mark a message with ``_("…")``, ``N_("…")`` or ``ngettext("…", "…", n)``
(client, server, protocol in Python; web in JavaScript, Babel's extractor; docs/i18n.md).
The web client's JSON holds only what the page says: the messages web/ marks and the
keyed ones (errors, piles, actions, moves, counters), not the terminal client's.
``make`` runs the first; the compiled files are committed too, so a clean clone and
``pip install -e .`` read them as they are (tests/i18n checks they agree with the
sources).
"""

from __future__ import annotations

import gettext
import io
import json
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from protocol.i18n import DOMAIN, LANGS, PILE_FORMS, help_texts, label_key
from server.patience import registry

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "protocol" / "locale"
WEB = ROOT / "web" / "i18n"
#: the sources whose messages players read
SOURCES = ("client", "protocol", "server", "web")
#: the web client's (its modules, not its vendored libraries)
WEB_SOURCE = "web"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
#: how each source is read: Python, and the web client's modules as JavaScript
METHODS = {
    "web": [("vendor/**", "ignore"), ("**.mjs", "javascript")],
}
OPTIONS = {"web": {"**.mjs": {"parse_template_string": "true"}}}
#: a fixed date, so compiling twice writes the same bytes
EPOCH = datetime(2026, 11, 28)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


def extracted() -> Iterator[tuple[str | tuple[str, str], str]]:
    """Every message the sources mark: its id (a pair for a plural) and where."""
    for top in SOURCES:
        for path, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT / top),
            method_map=METHODS.get(top, [("**.py", "python")]),
            options_map=OPTIONS.get(top),
            keywords=KEYWORDS,
            comment_tags=(),
        ):
            if isinstance(message, tuple):
                message = (message[0], message[1])
            yield message, f"{top}/{path}:{lineno}"


def declared() -> list[str]:
    """The keyed messages the games declare (server/patience): each pile name in its
    forms, each action (with the parameters it may leave out)."""
    keys: set[str] = set()
    for game in registry.games():
        for key in game.word_keys():
            forms = PILE_FORMS if key.startswith("pile.") else ("",)
            keys.update(f"{key}.{form}" if form else key for form in forms)
        # the piles' word labels (``wait``), as the terminal board prints them
        keys.update(k for p in game.layout if (k := label_key(p.label)) is not None)
    return sorted(keys)


def helps() -> list[str]:
    """The help ``pasyans --help`` and ``pasyans-server --help`` print (every
    command's), in English: argparse says it, so no source marks it."""
    from client import cli
    from server import __main__ as server_cli

    return [*help_texts(cli.build_parser(), metavars=True), *help_texts(server_cli.build_parser())]


def template() -> Catalog:
    catalog = Catalog(domain=DOMAIN, project="pasyans", creation_date=EPOCH)
    for message, where in extracted():
        path, _, line = where.rpartition(":")
        catalog.add(message, locations=[(path, int(line))])
    for key in declared():
        catalog.add(key, locations=[("server/patience/games", 0)])
    for text in helps():
        if text not in catalog:
            catalog.add(text, locations=[("--help", 0)])
    return catalog


def extract() -> None:
    """Add the sources' new messages to every language (translations are kept; an
    entry no source marks any more is dropped)."""
    tpl = template()
    for lang in LANGS:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="pasyans")
        catalog.update(tpl, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        catalog.fuzzy = False
        catalog.project, catalog.version = "pasyans", "0.1"
        catalog.revision_date = catalog.creation_date = EPOCH
        out = io.BytesIO()
        write_po(out, catalog, width=100, no_location=True, omit_header=False)
        path.write_bytes(out.getvalue())


def plural_categories(lang: str) -> dict[str, int]:
    """CLDR's plural category of a number (what the browser's ``Intl.PluralRules``
    says) → the index of gettext's plural forms in the catalogue."""
    form = gettext.c2py(read(lang).plural_expr)  # the catalogue's C expression
    rule = Locale.parse(lang).plural_form
    out: dict[str, int] = {}
    for n in range(200):
        out.setdefault(rule(n), int(form(n)))
    out.setdefault("other", out[rule(5)])  # fractions: as the many
    return out


def web_messages() -> set[str]:
    """The msgids the web client says: the ones web/ marks (a plural by its singular)."""
    return {
        message if isinstance(message, str) else message[0]
        for message, where in extracted()
        if where.startswith(WEB_SOURCE + "/")
    }


def keyed(msgid: str) -> bool:
    """A keyed message (``error.rate_limited``): the server names it, every client
    says it."""
    return bool(re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", msgid))


def web_json(lang: str, wanted: set[str] | None = None) -> dict[str, Any]:
    """The web client's catalogue: every translated message it says (``wanted``, else
    :func:`web_messages`, and every keyed one) by its msgid (a plural's forms as a
    list), and how the browser's plural categories pick a form."""
    catalog = read(lang)
    wanted = web_messages() if wanted is None else wanted
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id or not _translated(message):
            continue
        if ids(message)[0] not in wanted and not keyed(ids(message)[0]):
            continue
        forms = strings(message)
        messages[ids(message)[0]] = forms if isinstance(message.id, tuple | list) else forms[0]
    return {"lang": lang, "plural": plural_categories(lang), "messages": messages}


def ids(message: Message) -> list[str]:
    """A message's id, or its singular and plural ids."""
    return [str(i) for i in message.id] if isinstance(message.id, tuple | list) else [message.id]


def strings(message: Message) -> list[str]:
    """A message's translation, or each of its plural forms ("" where missing)."""
    if isinstance(message.string, tuple | list):
        return [str(s or "") for s in message.string]
    return [message.string or ""]


def _translated(message: Message) -> bool:
    return all(strings(message)) and not message.fuzzy


def compiled() -> dict[Path, bytes]:
    """What compiling writes: each language's .mo and JSON, by path."""
    out: dict[Path, bytes] = {}
    wanted = web_messages()
    for lang in LANGS:
        catalog = read(lang)
        mo = io.BytesIO()
        write_mo(mo, catalog, use_fuzzy=False)
        out[po_path(lang).with_suffix(".mo")] = mo.getvalue()
        text = json.dumps(web_json(lang, wanted), ensure_ascii=False, indent=1, sort_keys=True)
        out[WEB / f"{lang}.json"] = (text + "\n").encode()
    return out


def stale() -> list[Path]:
    return [p for p, data in compiled().items() if not p.exists() or p.read_bytes() != data]


def main(argv: list[str]) -> int:
    if argv[:1] == ["extract"]:
        extract()
    elif argv[:1] == ["check"]:
        late = stale()
        for path in late:
            print(f"{path.relative_to(ROOT)} is not up to date: run python -m tools.i18n")
        return 1 if late else 0
    elif argv:
        print(__doc__)
        return 2
    for path, data in compiled().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
