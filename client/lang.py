"""The terminal client's language: the player's choice, else the terminal's locale.

``pasyans lang ru`` remembers the choice in the config directory's ``settings.json``;
``$PASYANS_LANG`` overrides it for one run; else the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``, ``LANGUAGE``) decides, else English (docs/i18n.md).

Every string the client prints goes through :func:`_` (or :func:`ngettext`, or
:func:`say` for a keyed message the server names)::

    _("Your move")                       # the player's language
    ngettext("{n} deal", "{n} deals", n) # its plural form
    say("error.rate_limited", {"seconds": 60}, fallback=message)
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from typing import Any

from protocol.i18n import LANGS, N_, Words, from_environ, pick, words

from . import config

ENV = "PASYANS_LANG"
SETTINGS = "settings.json"

__all__ = ["LANGS", "N_", "_", "chosen", "current", "ngettext", "remember", "say", "use"]

_words: Words | None = None


def saved() -> str | None:
    """The language the player chose (``pasyans lang``), if any."""
    try:
        data = json.loads((config.config_dir() / SETTINGS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if lang in LANGS else None


def chosen(environ: Mapping[str, str] | None = None) -> str:
    """``$PASYANS_LANG``, else the saved choice, else the terminal's locale."""
    env = os.environ if environ is None else environ
    return pick([env.get(ENV), saved(), *from_environ(env)])


def remember(lang: str) -> None:
    """Save ``lang`` as the player's language (and use it from now on)."""
    path = config.config_dir() / SETTINGS
    data: dict[str, Any] = {}
    with contextlib.suppress(OSError, ValueError):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        data = loaded if isinstance(loaded, dict) else {}
    data["lang"] = lang
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    use(lang)


def use(lang: str) -> Words:
    """Speak ``lang`` from now on."""
    global _words
    _words = words(lang)
    _words.ids = True  # the board labels piles by id: messages name both
    return _words


def current() -> Words:
    """The words in use (the chosen language's, read once)."""
    return _words if _words is not None else use(chosen())


def _(msgid: str, **params: Any) -> str:
    return current()(msgid, **params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    return current().n(singular, plural, n, **params)


def say(key: str, params: Mapping[str, Any] | None = None, fallback: str | None = None) -> str:
    return current().say(key, params, fallback)
