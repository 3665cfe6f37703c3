"""Friends in words: who is online doing what, the inbox's items, a month of dailies
(docs/protocol.md, "Friends: presence, invites and the inbox", "A month of
dailies") — plain text shared by the screens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lang import ngettext
from .records import when
from .text import Titles, short_title

#: a day's status in the calendar, in words (and its one-cell mark)
DAY_WORDS = {
    "won": ("won", "W"),
    "lost": ("lost", "L"),
    "assisted": ("assisted (not ranked)", "A"),
    "playing": ("in play", "…"),
    "not_played": ("not played", "·"),
}


def presence_lines(row: Mapping[str, Any]) -> list[str]:
    """``["online"]``, ``["racing", "lobby K7QX2M"]``, ``["offline"]``: short lines, for
    the narrow column under a friend's name."""
    if not row.get("online"):
        return ["offline"]
    activity = str(row.get("activity") or "home")
    words = {"home": "online", "playing": "playing", "racing": "racing", "watching": "watching"}
    lines = [words.get(activity, activity)]
    if row.get("race"):
        lines.append(f"lobby {row['race']}")
    return lines


def item_text(item: Mapping[str, Any], titles: Titles | None = None) -> str:
    """One inbox item in words."""
    who, kind = item.get("sender"), item.get("kind")
    game = short_title(str(item.get("game") or ""), titles)
    race, challenge = item.get("race") or {}, item.get("challenge") or {}
    if kind == "invite" and race:
        return f"{who} invites you to a race of {game} ({race.get('code')})"
    if kind == "invite":
        return f"{who} challenges you on a deal of {game} ({challenge.get('code')})"
    if kind == "challenge_result":
        return f"{who} finished your challenge {challenge.get('code')} ({game})"
    if kind == "daily_beaten":
        return f"{who} beat your daily of {game} on {item.get('date')}"
    if kind == "rematch":
        return f"{who} asks for a rematch of {game} (race {race.get('code')})"
    return f"{who}: {kind}"


def item_action(item: Mapping[str, Any]) -> str:
    """What Enter does with the item, in words ('' for nothing)."""
    if item.get("race"):
        return "join the race"
    if item.get("kind") == "invite":
        return "play the challenge"
    if item.get("challenge"):
        return "see the results"
    return ""


def item_when(item: Mapping[str, Any]) -> str:
    return when(item.get("at"))


def invited_news(event: Mapping[str, Any], titles: Titles | None = None) -> str:
    """An ``invited`` event in words, for a notification."""
    return f"{item_text(event.get('item') or {}, titles)} — i on the home screen opens your inbox"


def inbox_line(result: Mapping[str, Any]) -> str:
    """The home screen's word on the inbox: ``inbox: 2 unread (i)``."""
    n = int(result.get("unread") or 0)
    return ngettext("inbox: {n} unread item (i)", "inbox: {n} unread items (i)", n) if n else ""


def day_text(day: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """A calendar day's cells: date, your result, par, difficulty."""
    words = DAY_WORDS.get(str(day.get("status")), (str(day.get("status")), "?"))[0]
    if day.get("playable"):
        words += " · playable"
    par = "" if day.get("par") is None else str(day["par"])
    return (str(day.get("date")), words, par, difficulty_marks(day.get("difficulty")))


def difficulty_marks(level: Any) -> str:
    """1–3 as marks: ``●○○`` easy, ``●●○``, ``●●●`` hard; '' unknown."""
    if not isinstance(level, int) or not 1 <= level <= 3:
        return ""
    return "●" * level + "○" * (3 - level)


def month_summary(days: Sequence[Mapping[str, Any]]) -> str:
    """A month across games: ``12 dailies won of 15 finished, on 9 days``."""
    won = sum(int(d.get("won") or 0) for d in days)
    played = sum(int(d.get("played") or 0) for d in days)
    active = sum(1 for d in days if d.get("played"))
    return ngettext(
        "dailies won: {won} of {played} finished, on {n} day",
        "dailies won: {won} of {played} finished, on {n} days",
        active,
        won=won,
        played=played,
    )
