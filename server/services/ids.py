"""Ids the server makes: games and races.

Every id passes the protocol's own check (``[A-Za-z0-9_-]{1,64}``, protocol.ID_RE)
and starts with a letter, so no command line reads one as an option (an id from
``token_urlsafe`` alone starts with ``-`` about once in 64). A race game's id is
derived from the race and the member, never holding the member's name (a name may be
in any script; an id may not).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import string

_FIRST = string.ascii_letters


def new_id() -> str:
    """A fresh random id: a letter and 72 random bits (13 characters)."""
    return secrets.choice(_FIRST) + secrets.token_urlsafe(9)


def race_game_id(rid: str, member: str) -> str:
    """The id of ``member``'s game in race ``rid``: the same on every instance (a deal
    redone after its dealer died makes no second game), of the id alphabet whatever
    the name's script, and as long for every name."""
    digest = hashlib.sha256(f"{rid}\0{member}".encode()).digest()[:9]
    return f"{rid}-{base64.urlsafe_b64encode(digest).decode()}"


#: characters after a race's id in its members' game ids ("-" and 12 of base64)
_RACE_SUFFIX = 13


def race_of_game_id(gid: str) -> str:
    """The race id of a game id made by :func:`race_game_id` (else "": not checked
    against the store, so only a hint, such as which race's news to follow)."""
    if len(gid) > _RACE_SUFFIX and gid[-_RACE_SUFFIX] == "-":
        return gid[:-_RACE_SUFFIX]
    return ""
