"""Tournaments without a screen (issue 51): what a ``tournament`` object says, in
words — when it starts or ends, the standings, the player's score and place, the
podium — and the requests a client makes of one. The Textual screens
(:mod:`client.screens.tournament`) draw through this module.

A tournament is a window of time on one game: every entrant plays deal 1, then deal
2, … of one sequence, the same for everybody, each deal scored (docs/protocol.md,
"Tournaments")."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from protocol.messages import Op

from .connection import Connection
from .lang import N_, _, current, ngettext
from .text import Titles, clock, short_title

Tournament = Mapping[str, Any]

#: a tournament's status (the server's ``status``), in words
STATUS_WORDS = {
    "upcoming": N_("upcoming"),
    "running": N_("running"),
    "finished": N_("ended"),
}
#: how far away a new tournament starts (minutes), and how long it lasts: the choices
#: the create dialogs offer (the server has the last word on the limits)
STARTS_IN = (5, 15, 30, 60)
LENGTHS = (30, 45, 60)
#: English ordinals' endings (1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st)
SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def nth(n: int) -> str:
    """A place as the player's language says it before "of 41": ``2nd`` in English,
    ``2`` in Russian (whose message says the rest: ``2-е место из 41``)."""
    if current().lang != "en":
        return str(n)
    suffix = "th" if 11 <= n % 100 <= 13 else SUFFIXES.get(n % 10, "th")
    return f"{n}{suffix}"


def now_ms() -> int:
    """The wall clock in milliseconds, as ``starts_at``/``ends_at`` count."""
    return int(time.time() * 1000)


def status_words(t: Tournament) -> str:
    status = str(t.get("status") or "")
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def until(t: Tournament, now: int | None = None) -> int:
    """The ms left before the tournament starts (upcoming) or ends (running); 0 after."""
    now = now_ms() if now is None else now
    key = "starts_at" if t.get("status") == "upcoming" else "ends_at"
    at = t.get(key)
    return max(0, int(at) - now) if at else 0


def when_words(t: Tournament, now: int | None = None) -> str:
    """``starts in 4:12``, ``12:30 left``, ``over``: its time, in words."""
    status = t.get("status")
    if status == "upcoming":
        return _("starts in {clock}", clock=clock(until(t, now)))
    if status == "running":
        return _("{clock} left", clock=clock(until(t, now)))
    return status_words(t)


def entrants(t: Tournament) -> int:
    return int(t.get("entrants") or len(t.get("standings") or []))


def standings(t: Tournament) -> list[Mapping[str, Any]]:
    return list(t.get("standings") or [])


def mine(t: Tournament, you: str | None) -> Mapping[str, Any] | None:
    """Your row of the standings (``me`` when the server sends it, else found by name)."""
    me = t.get("me")
    if isinstance(me, Mapping) and me:
        return me
    return next((r for r in standings(t) if r.get("player") == you), None)


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n)


def place_words(row: Mapping[str, Any] | None, t: Tournament) -> str:
    """``4th of 41`` (in Russian ``4-е место из 41``); '' before any score."""
    if not row or not row.get("rank"):
        return ""
    return _("{rank} of {n}", rank=nth(int(row["rank"])), n=entrants(t))


def standings_rows(t: Tournament, you: str | None, *, most: int = 10, width: int = 30) -> list[str]:
    """The standings, one line each: ``1. anna ........ 14``; the first ``most`` and,
    when you are further down, your own line after ``…``."""
    rows = standings(t)
    shown = rows[:most]
    me = mine(t, you)
    lines = [_row_line(r, you, width) for r in shown]
    if me and me.get("player") not in {r.get("player") for r in shown} and me.get("rank"):
        lines += ["…", _row_line(me, you, width)]
    if not rows:
        lines.append(_("nobody has scored yet"))
    return lines


def _row_line(row: Mapping[str, Any], you: str | None, width: int) -> str:
    rank = f"{row.get('rank') or '-'}."
    name = str(row.get("player") or "") + (" *" if row.get("player") == you else "")
    score = str(int(row.get("points") or 0))
    room = max(1, width - len(rank) - len(score) - 2)
    name = name if len(name) <= room else name[: room - 1] + "…"
    return f"{rank} {name.ljust(room)} {score}"


def podium(t: Tournament) -> list[Mapping[str, Any]]:
    """The top three rows of a finished tournament's standings."""
    return [r for r in standings(t) if r.get("rank") and int(r["rank"]) <= 3][:3]


def podium_lines(t: Tournament, you: str | None) -> list[str]:
    """The podium: the first three with their points, then your place and score."""
    lines = []
    for row in podium(t):
        who = str(row.get("player")) + (" " + _("(you)") if row.get("player") == you else "")
        lines.append(f"{row['rank']}. {who} — {points(int(row.get('points') or 0))}")
    me = mine(t, you)
    if me and me.get("rank"):
        lines.append("")
        lines.append(
            _(
                "You finished {rank} of {n} with {points}.",
                rank=nth(int(me["rank"])),
                n=entrants(t),
                points=points(int(me.get("points") or 0)),
            )
        )
    elif not lines:
        lines.append(_("Nobody scored a point."))
    return lines


def stats_words(block: Mapping[str, Any] | None) -> str:
    """A player's tournaments (``stats``' ``tournaments``) in a line; '' before any."""
    if not block or not block.get("played"):
        return ""
    best = block.get("best")
    return _(
        "tournaments: {played} played, {won} won, {podiums} on the podium, best place {best}",
        played=block["played"],
        won=block.get("won") or 0,
        podiums=block.get("podiums") or 0,
        best=nth(int(best)) if best else "-",
    )


def heading(t: Tournament, titles: Titles | None = None) -> str:
    """``Tournament K7QX2M · Полумесяц · 30 min``."""
    return " · ".join(
        [
            _("Tournament {code}", code=t.get("code")),
            short_title(str(t.get("game") or ""), titles),
            _("{n} min", n=int(t.get("minutes") or 0)),
        ]
    )


def lobby_row(t: Tournament, you: str | None, titles: Titles | None = None) -> list[str]:
    """A row of the lobby of tournaments: code, game, when, entrants, yours."""
    whose = []
    if t.get("place"):
        whose.append(_("your place: {place}", place=nth(int(t["place"]))))
    elif t.get("joined"):
        whose.append(_("you are in"))
    elif t.get("invited"):
        whose.append(_("invited"))
    if t.get("public"):
        whose.append(_("public"))
    elif t.get("creator") and t.get("creator") != you:
        whose.append(_("by {name}", name=t["creator"]))
    return [
        str(t.get("code")),
        short_title(str(t.get("game") or ""), titles, 18),
        when_words(t),
        str(entrants(t)),
        ", ".join(whose),
    ]


def scoring_words() -> str:
    """The scoring rules in one sentence (docs/protocol.md, "Tournaments")."""
    return _(
        "Each deal: a win scores 2 points, a win within par 3; from the third win in a "
        "row, double; a deal lost or given up scores 0 and ends the streak. No hints; "
        "undo takes back no move that showed a card."
    )


def sorted_lobby(rows: Sequence[Tournament]) -> list[Tournament]:
    """Running first, then upcoming by start, the finished last."""
    order = {"running": 0, "upcoming": 1, "finished": 2}
    return sorted(rows, key=lambda t: (order.get(str(t.get("status")), 3), t.get("starts_at") or 0))


# -- the requests (docs/protocol.md, "Tournaments") -----------------------------------


async def lobby(conn: Connection) -> list[dict[str, Any]]:
    """The tournaments upcoming and running (public, yours, those you are invited
    to), and yours finished lately."""
    reply = await conn.call(Op.TOURNAMENTS)
    return [dict(t) for t in reply.get("tournaments") or []]


async def create(conn: Connection, game: str, starts_at: int, minutes: int) -> dict[str, Any]:
    """A tournament of yours: its code and ``url`` are the ones to share."""
    reply = await conn.call(Op.TOURNAMENT_CREATE, game=game, starts_at=starts_at, minutes=minutes)
    return dict(reply["tournament"])


async def join(conn: Connection, code: str) -> dict[str, Any]:
    """Enter the tournament ``code`` (again: come back to it): the reply's fields."""
    return dict(await conn.call(Op.TOURNAMENT_JOIN, code=code))


async def show(conn: Connection, code: str) -> dict[str, Any]:
    return dict((await conn.call(Op.TOURNAMENT, code=code))["tournament"])


async def play(conn: Connection, tournament_id: str) -> tuple[int, dict[str, Any]]:
    """Your deal of a running tournament: the one in play, else the next — its number
    (1 first) and its game."""
    dealt = await conn.call(Op.TOURNAMENT_PLAY, tournament_id=tournament_id)
    return int(dealt["deal"]), dict(dealt["state"])


async def leave(conn: Connection, tournament_id: str) -> None:
    await conn.call(Op.TOURNAMENT_LEAVE, tournament_id=tournament_id)


async def invite(conn: Connection, name: str, code: str) -> None:
    """Send the player ``name`` the tournament ``code`` (to their inbox)."""
    await conn.call(Op.INVITE, name=name, tournament=code)


def open_to_invite(rows: Sequence[Tournament], you: str | None) -> Tournament | None:
    """The tournament a friend is invited to from the friends screen: yours or one you
    are in, not over — the one starting first."""
    mine_ = [
        t
        for t in sorted_lobby(rows)
        if t.get("status") != "finished" and (t.get("joined") or t.get("creator") == you)
    ]
    return mine_[0] if mine_ else None
