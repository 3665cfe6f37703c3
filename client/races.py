"""Races without a screen: what a ``race``/``race_started`` event tells a member,
and a race as plain text (the lobby, progress lines, the result table).

The Textual race screens (:mod:`client.screens.race`) and script mode
(:mod:`client.race_script`) both read events and draw bars through this module.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.messages import Event, Push

from .lang import N_, _, ngettext
from .text import PROVISIONAL_MEANING, Titles, clock, outcome, rating_value, table, title

BAR = 20
#: a race's status (the server's ``status``), in words
RACE_STATUS_WORDS = {
    "lobby": N_("lobby"),
    "countdown": N_("countdown"),
    "running": N_("running"),
    "finished": N_("finished"),
}

Race = Mapping[str, Any]


def bar(foundation: int, total: int, width: int = BAR) -> str:
    """``[#####.....]``: cards on the foundations out of all of them."""
    filled = round(width * foundation / total) if total else 0
    filled = max(0, min(width, filled))
    return "[" + "#" * filled + "." * (width - filled) + "]"


def ending(p: Mapping[str, Any]) -> str:
    """A member's game status, and why a lost one ended: ``lost (timed out)``,
    ``lost (resigned)``, ``lost (no move left)`` (the words of every screen)."""
    return outcome(p)


def result_words(p: Mapping[str, Any]) -> str:
    """``won, place 1``, ``playing``, ``lost (timed out)``…"""
    if p.get("place"):
        return _("won, place {place}", place=p["place"])
    return ending(p)


def member_status(p: Mapping[str, Any], *, later_ms: int = 0, limit_ms: int | None = None) -> str:
    """A member's result, and ``away M:SS`` while they are disconnected (``later_ms``
    after the event said so); with ``limit_ms`` (the race's ``absent_limit_ms``), also
    how long until a game in play is given up for them: ``(given up in M:SS)``."""
    words = result_words(p)
    if p.get("away"):
        away = int(p.get("away_ms") or 0) + later_ms
        words += ", " + _("away {clock}", clock=clock(away))
        left = given_up_in(p, later_ms=later_ms, limit_ms=limit_ms)
        if left is not None:
            words += " " + _("(given up in {clock})", clock=clock(left))
    return words


def given_up_in(
    p: Mapping[str, Any], *, later_ms: int = 0, limit_ms: int | None = None
) -> int | None:
    """The ms left before the game in play of a member who is away is given up for
    them (the race's ``absent_limit_ms`` is ``limit_ms``), or None (here, game over)."""
    if limit_ms is None or not p.get("away") or p.get("status") != "playing":
        return None
    return max(0, limit_ms - int(p.get("away_ms") or 0) - later_ms)


def _yours(race: Race, you: str | None) -> Mapping[str, Any]:
    return next((p for p in race.get("players") or [] if p.get("player") == you), {})


def leave_question(race: Race, you: str | None, *, quitting: bool) -> str:
    """What leaving the race's screens means, asked before ``q`` leaves a race that
    is not over: the code to come back with and, with your game in play, when it is
    given up. ``quitting``: leaving quits pasyans (``pasyans race``), else it goes
    back to the home screen (still connected, so not away)."""
    code = str(race.get("code"))
    join = join_command(code)
    status = race.get("status")
    if status in ("lobby", "countdown"):
        return _(
            "Leave race {code}? You leave its lobby; `{join}` (or j on the home "
            "screen) joins it again while it is in its lobby.",
            code=code,
            join=join,
        )
    if status == "running" and _yours(race, you).get("status") == "playing":
        limit = clock(int(race.get("absent_limit_ms") or 0))
        if quitting:
            return _(
                "Quit race {code}? Your game stays in play: `{join}` brings you back "
                "to it. {limit} after you quit, it is given up for you (lost).",
                code=code,
                join=join,
                limit=limit,
            )
        return _(
            "Leave race {code}? Your game stays in play: j on the home screen with the "
            "code {code} (or `{join}`) brings you back to it. Once you quit pasyans, "
            "it is given up for you {limit} later (lost) unless you come back.",
            code=code,
            join=join,
            limit=limit,
        )
    return _(
        "Leave race {code}? Your game is over; `{join}` shows the race again until "
        "everybody is done, and its result for a day.",
        code=code,
        join=join,
    )


def join_command(code: str) -> str:
    """The command that joins (or comes back to) race ``code``."""
    return " ".join(("pasyans", "race", "join", code))


def leave_reminder(race: Race, you: str | None) -> str:
    """Said once the race's screens are left: how to come back, and when a game in
    play is given up."""
    code = str(race.get("code"))
    join = join_command(code)
    status = race.get("status")
    if status in ("lobby", "countdown"):
        return _(
            "you left race {code}: `{join}` joins it again while it is in its lobby",
            code=code,
            join=join,
        )
    if status == "running" and _yours(race, you).get("status") == "playing":
        limit = clock(int(race.get("absent_limit_ms") or 0))
        return _(
            "your game in race {code} is still in play: `{join}` brings you back; "
            "{limit} after you quit pasyans it is given up for you",
            code=code,
            join=join,
            limit=limit,
        )
    if status == "running":
        return _(
            "race {code} goes on: `{join}` shows it, and its result for a day",
            code=code,
            join=join,
        )
    return _("race {code} is over: `{join}` shows its result again for a day", code=code, join=join)


def away_members(race: Race, you: str | None = None) -> list[str]:
    """The members (not you) who are away and whose game is not over: the ones the
    creator may drop."""
    return [
        str(p["player"])
        for p in race.get("players") or []
        if p.get("away") and p["player"] != you and p.get("status") in ("ready", "playing")
    ]


#: the questions End race and Drop ask first (the same words in both clients)
END_QUESTION = N_(
    "End the race now? Every game still in play is given up (lost: race ended); a "
    "member's daily attempt leaves the race and plays on as their daily."
)


def drop_question(names: Sequence[str]) -> str:
    """What dropping the members ``names`` (away) means, asked first."""
    who = ", ".join(names)
    return _(
        "Drop {who}? Their game is given up (lost: dropped); a daily attempt leaves "
        "the race and plays on as their daily.",
        who=who,
    )


def my_game_over(race: Race, you: str | None) -> bool:
    """Whether the race says your game is over (lost, won, given up for you), or the
    race is over: a board still showing it in play is out of date."""
    return race.get("status") == "finished" or _yours(race, you).get("status") in ("won", "lost")


def seconds_left(race: Race, now_ms: int) -> float:
    starts = race.get("starts_at")
    return max(0.0, (int(starts) - now_ms) / 1000) if starts else 0.0


def member_name(p: Race) -> str:
    """A race member's name as shown: "a player who left" for one who deleted their
    account since (``left``, issue 49)."""
    return _("a player who left") if p.get("left") else str(p["player"])


def lobby_text(race: Race, you: str | None = None, titles: Titles | None = None) -> str:
    players = list(race.get("players") or [])
    head = [_("race {code}", code=race.get("code")), title(str(race.get("game")), titles)]
    if race.get("date"):
        head.append(_("daily deal of {date}", date=race["date"]))
    head += [status_words(race), ngettext("{n} player", "{n} players", len(players))]
    lines = [" · ".join(head)]
    for p in players:
        mark = " " + _("(you)") if p["player"] == you else ""
        mark += ", " + _("away") if p.get("away") else ""
        lines.append(f"  {member_name(p)}{mark}")
    return "\n".join(lines)


def progress_rows(race: Race, you: str | None = None) -> list[str]:
    """One line per member: name, bar, foundation/total, moves, time, status."""
    players = list(race.get("players") or [])
    width = max((len(member_name(p)) for p in players), default=0) + 1
    rows = []
    for p in players:
        name = member_name(p) + ("*" if p["player"] == you else "")
        found, total = int(p.get("foundation") or 0), int(p.get("total") or 0)
        moves = ngettext("{n} move", "{n} moves", int(p.get("moves") or 0))
        rows.append(
            f"{name.ljust(width)} {bar(found, total)} {found}/{total}  {moves}  "
            f"{clock(p.get('time_ms') or 0)}  {member_status(p)}"
        )
    return rows


def result_table(race: Race) -> str:
    rows: list[Sequence[Any]] = []
    for p in race.get("players") or []:
        rows.append(
            [
                p.get("place") or "-",
                member_name(p),
                ending(p),
                f"{p.get('foundation', 0)}/{p.get('total', 0)}",
                p.get("moves", 0),
                clock(p.get("time_ms") or 0),
            ]
        )
    header = [_("place"), _("player"), _("result"), _("cards"), _("moves"), _("time")]
    return table(rows, header) + rating_table(race)


# -- ratings (issue 51): what a finished race did to each member's rating --------------


def rating_change(change: int | None) -> str:
    """A race's change of a rating, signed (``+62``, ``−18``); ``-`` when it did not
    count for the member."""
    if change is None:
        return "-"
    return f"+{change}" if change > 0 else f"\u2212{-change}" if change < 0 else "0"


def rating_table(race: Race) -> str:
    """Below a finished race's result, each member's rating at the game after it and
    its change; nothing for a race that is not rated (a chosen seed, a daily deal)."""
    players = [p for p in race.get("players") or [] if p.get("rating")]
    if not players:
        return ""
    rows = [
        [p["player"], rating_value(p["rating"]), rating_change(p.get("rating_change"))]
        for p in players
    ]
    provisional = any(p["rating"].get("provisional") for p in players)
    note = "\n" + _(PROVISIONAL_MEANING) if provisional else ""
    return "\n\n" + table(rows, [_("player"), _("rating"), _("change")]) + note


def status_words(race: Race) -> str:
    """A race's status in words: ``lobby``, ``running``…"""
    status = str(race.get("status") or "")
    return _(RACE_STATUS_WORDS[status]) if status in RACE_STATUS_WORDS else status


def race_text(race: Race, you: str | None = None, titles: Titles | None = None) -> str:
    """The whole race as text, whatever its status."""
    status = race.get("status")
    if status == "lobby":
        return lobby_text(race, you, titles)
    head = " · ".join(
        [
            _("race {code}", code=race.get("code")),
            title(str(race.get("game")), titles),
            status_words(race),
        ]
    )
    if status == "countdown":
        left = math.ceil(seconds_left(race, now_ms()))
        starts = _("{head}: starts in {seconds}", head=head, seconds=left)
        return starts + "\n" + lobby_text(race, you, titles).split("\n", 1)[-1]
    if status == "finished":
        return f"{head}\n{result_table(race)}"
    return "\n".join([head, *("  " + r for r in progress_rows(race, you))])


def now_ms() -> int:
    """The wall clock in milliseconds, as a race's ``starts_at`` counts."""
    return int(time.time() * 1000)


@dataclass(frozen=True)
class RaceNews:
    """What one event says to a member of ``race``: at most one field is set."""

    #: this race as it is now (a ``race`` event about it)
    race: dict[str, Any] | None = None
    #: your game on the race's deal (``race_started``)
    dealt: dict[str, Any] | None = None
    #: another race in its lobby, made by a member of this finished one: a rematch
    rematch: Mapping[str, Any] | None = None


def read_event(race: Race, push: Push) -> RaceNews:
    """What ``push`` means to a member of ``race`` (nothing, for another race's news)."""
    fields = push.fields
    if fields.get("race_id") != race.get("race_id"):
        offer = push.name == Event.RACE and fields.get("status") == "lobby"
        if offer and race.get("status") == "finished":  # a member made a rematch
            return RaceNews(rematch=fields)
        return RaceNews()
    if push.name == Event.RACE:
        return RaceNews(race=dict(fields))
    state = fields.get("state")
    if push.name == Event.RACE_STARTED and isinstance(state, dict):
        return RaceNews(dealt=dict(state))
    return RaceNews()
