"""The words players read, in their language: gettext catalogues and Babel's formats.

One catalogue source per language, ``protocol/locale/<lang>/LC_MESSAGES/pasyans.po``
(docs/i18n.md), compiled by ``python -m tools.i18n`` to the ``.mo`` files Python reads
here and to the JSON the web client reads (``web/i18n/<lang>.json``). Two kinds of
entries share it:

- plain ones, whose ``msgid`` is the English text (``_("Your move")``), as gettext has
  them: the English catalogue leaves them untranslated;
- *keyed* ones, whose ``msgid`` is a key with a dot (``error.rate_limited``,
  ``pile.column``, ``action.pick_up``): what the server names and clients say. Every
  language, English included, translates those.

A keyed message's ``{name}`` placeholders take its parameters: a ``seconds`` one is said
as a duration ("33 minutes"), a number by the locale's rules, a card code (``5D``) as
its rank and suit (``5♦``). Words (:class:`Words`) of a language do it all::

    words = Words("ru")
    words("Your move")                                  # "Ваш ход"
    words.n("{n} deal tried", "{n} deals tried", 2)     # "2 сдачи испробованы"
    words.say("error.rate_limited", {"seconds": 1969})  # "… через 33 минуты"
"""

from __future__ import annotations

import argparse
import functools
import gettext
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, timedelta
from importlib import resources
from typing import Any

#: the languages there is a catalogue for; the first is the fallback
LANGS: tuple[str, ...] = ("en", "ru")
DEFAULT = "en"
DOMAIN = "pasyans"
#: how a card's rank and suit read (protocol/cards.py's codes: ``TD`` is 10♦)
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"^([A2-9TJQK])([SHDC])$")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def N_(msgid: str) -> str:
    """Marks a message to be translated where it is used (a constant of a module)."""
    return msgid


def mo_path(lang: str) -> Any:
    """The compiled catalogue of ``lang`` (a package resource)."""
    return resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")


@functools.cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (an empty one if it is missing)."""
    try:
        with mo_path(lang).open("rb") as fp:
            return gettext.GNUTranslations(fp)
    except (FileNotFoundError, OSError):
        return gettext.NullTranslations()


def pick(candidates: Iterable[str | None]) -> str:
    """The first language of ``candidates`` (``ru_RU.UTF-8``, ``en-GB``, ``ru``…) that
    there is a catalogue for, else :data:`DEFAULT`."""
    for candidate in candidates:
        if not candidate:
            continue
        primary = re.split(r"[-_.@:]", candidate.strip().lower(), maxsplit=1)[0]
        if primary in LANGS:
            return primary
    return DEFAULT


def from_environ(environ: Mapping[str, str]) -> list[str]:
    """The terminal's languages, most wanted first (POSIX: ``LC_ALL`` overrides
    ``LC_MESSAGES``, which overrides ``LANG``; GNU's ``LANGUAGE`` lists several)."""
    out: list[str] = []
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value and value not in ("C", "POSIX"):
            out.append(value)
            break
    out += [v for v in environ.get("LANGUAGE", "").split(":") if v]
    return out


def from_accept_language(header: str | None) -> list[str]:
    """The languages of an HTTP ``Accept-Language`` header, most wanted first."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def card_words(code: str) -> str:
    """``5D`` → ``5♦``, ``TS`` → ``10♠`` (anything else as it is)."""
    m = _CARD.match(code)
    if not m:
        return code
    rank = "10" if m.group(1) == "T" else m.group(1)
    return rank + SUIT_SYMBOLS[m.group(2)]


#: the games' titles by slug, as a client learnt them (``games``): a ``{game}``
#: parameter is said as the title in the language (a server's refusal names the slug)
_TITLES: dict[str, Mapping[str, Any]] = {}


def know_titles(games: Iterable[Mapping[str, Any]]) -> None:
    """Say each of ``games`` (the ``games`` reply's list) by its title from now on."""
    _TITLES.update({str(g["slug"]): g for g in games if g.get("slug")})


class Words:
    """The words of one language (its catalogue and its locale's formats)."""

    #: a pile is said with the id its board shows and one types: "column 3 (T3)" (the
    #: terminal client's, where the board labels piles by id; the server's words
    #: name a pile alone)
    ids = False

    def __init__(self, lang: str = DEFAULT) -> None:
        self.lang = lang if lang in LANGS else DEFAULT
        self._t = catalogue(self.lang)

    def __call__(self, msgid: str, **params: Any) -> str:
        """A plain message, its ``{name}`` placeholders filled from ``params``."""
        text = self._t.gettext(msgid)
        return self.fill(text, params) if params else text

    def n(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """A message that says a number: the language's plural form of it (Russian has
        three), ``{n}`` the number as the locale writes it."""
        return self.fill(self._t.ngettext(singular, plural, n), {"n": n, **params})

    def known(self, key: str) -> bool:
        """Whether the catalogue has keyed message ``key``."""
        return self._t.gettext(key) != key

    def say(
        self, key: str, params: Mapping[str, Any] | None = None, fallback: str | None = None
    ) -> str:
        """Keyed message ``key`` with ``params``; ``fallback`` (e.g. the English message
        a server sent) when the catalogue has no such key, else the key itself."""
        text = self._t.gettext(key)
        if text == key:
            return fallback if fallback is not None else key
        return self.fill(text, params or {})

    def fill(self, text: str, params: Mapping[str, Any]) -> str:
        def one(m: re.Match[str]) -> str:
            name = m.group(1)
            if name not in params:
                return m.group(0)
            return self.value(name, params[name])

        return _PLACEHOLDER.sub(one, text)

    def value(self, name: str, value: Any) -> str:
        """A parameter as words: seconds as a duration, a count ``n`` by the locale."""
        if name == "seconds" and isinstance(value, int | float):
            return self.duration(value)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int) and name == "n":  # a count (not a seed, nor an id)
            return self.number(value)
        if name == "card" and isinstance(value, str):
            return card_words(value)
        if name == "game" and isinstance(value, str) and value in _TITLES:  # a slug
            names = _TITLES[value]
            return str(names.get(f"title_{self.lang}") or names.get("title_en") or value)
        return "" if value is None else str(value)

    def duration(self, seconds: float) -> str:
        """``1969`` → "33 minutes" / "33 минуты" (never fewer than a second)."""
        from babel.dates import format_timedelta  # Babel loads where words are said

        return format_timedelta(
            timedelta(seconds=max(1.0, float(seconds))), threshold=1.2, locale=self.lang
        )

    def number(self, n: int | float) -> str:
        from babel.numbers import format_decimal

        return format_decimal(n, locale=self.lang)

    def date(self, day: date | str) -> str:
        """A day as the locale writes it: "Nov 28, 2026" / "28 нояб. 2026 г."."""
        from babel.dates import format_date

        if isinstance(day, str):
            day = date.fromisoformat(day)
        return format_date(day, format="medium", locale=self.lang)

    # -- the games' words: piles, actions, moves (docs/i18n.md) -------------------------

    def pile(
        self, pile: Mapping[str, Any] | None, form: str = "", *, ids: bool | None = None
    ) -> str:
        """What a pile of the view is called (its ``name`` and ``n``): ``form`` ""
        (column 3), ``from`` (from column 3), ``to`` (to column 3) or ``acc`` (column 3
        as an action's object: "колонку 3"). A pile without a name: its id; with
        :attr:`ids` (unless ``ids`` says otherwise) the id after the name."""
        if not pile:
            return ""
        pid = str(pile.get("id", ""))
        name = pile.get("name")
        if not isinstance(name, str) or not name:
            return pid
        key = f"{name}.{form}" if form else name
        said = self.say(key, {"n": pile.get("n")}, fallback=pid)
        if (self.ids if ids is None else ids) and pid and pid not in said:  # as typed
            said += f" ({pid})"
        return said

    def move(self, move: Mapping[str, Any], piles: Iterable[Mapping[str, Any]] = ()) -> str:
        """A move as a sentence: "Move the 5♦ from your hand to foundation 1", "Pick
        up column 1", "Deal". ``piles`` are the view's (the names and the cards)."""
        by_id = {str(p.get("id")): p for p in piles}
        if "action" in move:
            action = str(move["action"])
            params = {k: v for k, v in move.items() if k != "action"}
            said: dict[str, str] = {}
            for k, v in params.items():  # a pile as the object ({column}) or whence ({a_from})
                said[k] = self.pile(by_id.get(str(v)), "acc") or str(v)
                said[f"{k}_from"] = self.pile(by_id.get(str(v)), "from") or str(v)
            key = action_key(action, params, params)
            return self.say(key, said, fallback=action.replace("_", " ").capitalize())
        src, dst = by_id.get(str(move.get("from"))), by_id.get(str(move.get("to")))
        cards = list((src or {}).get("cards") or [])
        index = move.get("index")
        card = cards[index] if isinstance(index, int) and 0 <= index < len(cards) else None
        if index is None and cards:
            card = cards[-1]
        ends = {"from": self.pile(src, "from"), "to": self.pile(dst, "to")}
        if isinstance(card, str):
            return self.say("move.card", {"card": card, **ends})
        return self.say("move.a_card", ends)


def action_key(action: str, params: Mapping[str, Any], declared: Iterable[str] = ()) -> str:
    """The keyed message of an action (``action.pick_up``): the action's own when each
    of its ``declared`` parameters has a value, else the action's with the names of
    the ones that have (``action.grace.ace``: a grace naming its ace only)."""
    names = sorted(declared)
    given = [k for k in names if params.get(k) is not None]
    if len(given) == len(names):
        return f"action.{action}"
    return f"action.{action}." + "_".join(given)


#: the forms a pile's name is said in (:meth:`Words.pile`)
PILE_FORMS = ("", "from", "to", "acc")

#: a pile label that is English words (``wait``, ``aces out``), not an id or a sign
WORD_LABEL = re.compile(r"[a-z]{2}")


def label_key(label: str) -> str | None:
    """The keyed message a pile's word label is said with (``wait`` → ``label.wait``;
    a board in Russian says «ждёт»), None for a label of ids and signs (``T3``, ``A↑``)."""
    if not WORD_LABEL.search(label):
        return None
    return "label." + re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


#: the sentences of a card move (:meth:`Words.move`)
MOVE_KEYS = (N_("move.card"), N_("move.a_card"))


@functools.cache
def words(lang: str) -> Words:
    """The (shared) :class:`Words` of ``lang``."""
    return Words(lang)


# -- command lines: argparse's own words and each parser's help ---------------------

#: argparse's own messages a player may read (its help headings and usage errors)
ARGPARSE: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("not allowed with argument %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def _texts(parser: argparse.ArgumentParser, metavars: bool = False) -> Iterator[tuple[Any, str]]:
    """Every (object, attribute) of a parser's words: its description and epilog, its
    headings (argparse names them as the parser is made, before :func:`translate_parser`
    can), each argument's help (and with ``metavars`` its placeholder: a player's
    GAME is «ИГРА» as the help's prose names it, an operator's DATA_DIR stays the
    setting's name), each subcommand's help, and the same of each subparser."""
    yield parser, "description"
    yield parser, "epilog"
    for group in parser._action_groups:
        yield group, "title"
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            yield action, "help"
        if metavars and isinstance(action.metavar, str):
            yield action, "metavar"
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield choice, "help"
            for sub in dict.fromkeys(action.choices.values()):  # aliases: once
                yield from _texts(sub, metavars)


def help_texts(parser: argparse.ArgumentParser, metavars: bool = False) -> list[str]:
    """The English help a parser prints (tools/i18n.py puts it in the catalogues)."""
    texts = _texts(parser, metavars)
    return list(dict.fromkeys(t for o, a in texts if (t := getattr(o, a, None))))


def translate_parser(
    parser: argparse.ArgumentParser, words: Words, metavars: bool = False
) -> argparse.ArgumentParser:
    """Say a parser's help, and argparse's own words, in ``words``' language."""
    for obj, attr in _texts(parser, metavars):
        text = getattr(obj, attr, None)
        if text:
            setattr(obj, attr, words._t.gettext(text))
    argparse._ = words._t.gettext  # type: ignore[attr-defined]
    argparse.ngettext = words._t.ngettext  # type: ignore[attr-defined]
    return parser
