"""The script-mode move notation, to and from the wire moves of docs/protocol.md.

The client holds no rules: this module only translates text, and :func:`resolve`
picks the entry of the server's ``legal`` list that a line names.

Notation (one move per line)::

    T3 FA-H               card move from pile T3 to pile FA-H (also "T3>FA-H")
    R[2] F3               the card at index 2 (0 = bottom) of a spread pile
    deal                  an action with no parameter
    swap a=P1 b=P4        an action with parameters (ints stay ints)
    grace ace=C3 king=-   "-" (or "null", "none") is a null parameter

A parameter left out of an action means null, so ``grace king=C7`` names
``{"action": "grace", "ace": None, "king": "C7"}`` when that move is legal.
Pile ids are matched case-insensitively against the piles of the current view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .lang import _

#: a move as the wire carries it (``{"from": …, "to": …}`` or ``{"action": …}``)
WireMove = dict[str, Any]
#: safety bound for playing forced moves in a row (a forced chain never needs more)
AUTO_LIMIT = 1000

_PILE = re.compile(r"^(?P<pid>[A-Za-z][A-Za-z0-9_-]*)(?:\[(?P<index>\d+)\])?$")
_ACTION = re.compile(r"^[a-z][a-z0-9_]*$")
_PARAM = re.compile(r"^(?P<key>[a-z][a-z0-9_]*)=(?P<value>.*)$")
_NULLS = frozenset({"-", "null", "none"})


class NotationError(ValueError):
    """A line that names no move (the message says what was expected)."""


def parse(line: str, piles: Iterable[str] = ()) -> WireMove:
    """The wire move a line of notation names (not checked for legality).

    ``piles`` are the pile ids of the current view: a card move's ids are matched
    case-insensitively against them (``t3 fa-h`` → ``T3``, ``FA-H``).
    """
    text = line.strip()
    if not text:
        raise NotationError(_("empty move"))
    canon = {p.upper(): p for p in piles}
    words = text.replace(">", " ").split()
    first = words[0]
    if _ACTION.match(first) and (len(words) == 1 or "=" in words[1]):
        return _action(first, words[1:])
    if len(words) != 2:
        raise NotationError(
            _(
                "cannot read {line}: write a card move as 'FROM TO' (e.g. 'T3 FA-H'), "
                "or an action (e.g. 'deal', 'swap a=P1 b=P2')",
                line=repr(text),
            )
        )
    src = _PILE.match(words[0])
    dst = _PILE.match(words[1])
    if not src or not dst or dst.group("index") is not None:
        raise NotationError(
            _("cannot read {line}: pile ids look like T3, FA-H, R[2]", line=repr(text))
        )
    ids = []
    for m in (src, dst):
        pid = m.group("pid")
        if canon and pid.upper() not in canon:
            raise NotationError(
                _(
                    "there is no pile {pile} (piles: {piles})",
                    pile=repr(pid),
                    piles=" ".join(canon.values()),
                )
            )
        ids.append(canon.get(pid.upper(), pid))
    move: WireMove = {"from": ids[0], "to": ids[1]}
    if src.group("index") is not None:
        move["index"] = int(src.group("index"))
    return move


def _action(name: str, args: Sequence[str]) -> WireMove:
    move: WireMove = {"action": name}
    for arg in args:
        m = _PARAM.match(arg)
        if not m:
            raise NotationError(_("an action's parameters are key=value, not {arg}", arg=repr(arg)))
        value = m.group("value")
        if value.lower() in _NULLS:
            move[m.group("key")] = None
        elif re.fullmatch(r"-?\d+", value):
            move[m.group("key")] = int(value)
        else:
            move[m.group("key")] = value
    return move


def format_move(move: WireMove) -> str:
    """The notation of a wire move: ``T3 FA-H``, ``R[2] F3``, ``swap a=P1 b=P2``."""
    if "action" in move:
        params = " ".join(
            f"{k}={'-' if v is None else v}" for k, v in move.items() if k != "action"
        )
        return f"{move['action']} {params}".rstrip()
    index = move.get("index")
    at = "" if index is None else f"[{index}]"
    n = move.get("n")
    count = "" if n in (None, 1) else f" n={n}"
    return f"{move.get('from')}{at} {move.get('to')}{count}"


def _same(a: WireMove, b: WireMove) -> bool:
    """Equal moves, a missing key counting as null (``{"n": 1}`` as no ``n``)."""
    keys = set(a) | set(b)
    norm = {"n": 1}
    return all(a.get(k, norm.get(k)) == b.get(k, norm.get(k)) for k in keys)


def resolve(move: WireMove, legal: Sequence[WireMove]) -> WireMove | None:
    """The entry of ``legal`` that ``move`` names, or None.

    Exact match first (a missing action parameter counting as null); then a card
    move written without an index names the one legal move between the same piles.
    """
    for candidate in legal:
        if _same(move, candidate):
            return candidate
    if "from" in move and "index" not in move:
        between = [m for m in legal if m.get("from") == move["from"] and m.get("to") == move["to"]]
        if len(between) == 1:
            return between[0]
    return None


def is_action(move: WireMove) -> bool:
    return "action" in move


def forced(legal: Sequence[WireMove]) -> WireMove | None:
    """The single legal move when it is an action (deal, travel…), else None.

    The client knows no rules: "forced" here means the server left exactly one
    choice and it is an action, so playing it decides nothing for the player.
    """
    if len(legal) == 1 and is_action(legal[0]):
        return legal[0]
    return None
