"""Friends in words: who is online doing what, the inbox's items, a month of dailies
(docs/protocol.md, "Friends: presence, invites and the inbox", "A month of
dailies") — plain text shared by the screens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lang import N_, _, ngettext
from .records import when
from .text import Titles, short_title
from .tournaments import nth

#: a day's status in the calendar, in words (and its one-cell mark)
DAY_WORDS = {
    "won": (N_("won"), "W"),
    "lost": (N_("lost"), "L"),
    "assisted": (N_("assisted (not ranked)"), "A"),
    "playing": (N_("in play"), "…"),
    "not_played": (N_("not played"), "·"),
}
#: what a friend online is doing (the server's ``activity``), in words
ACTIVITY_WORDS = {
    "home": N_("online"),
    "playing": N_("in a game"),
    "racing": N_("racing"),
    "watching": N_("watching"),
}


def presence_lines(row: Mapping[str, Any]) -> list[str]:
    """``["online"]``, ``["racing", "lobby K7QX2M"]``, ``["offline"]``: short lines, for
    the narrow column under a friend's name."""
    if not row.get("online"):
        return [_("offline")]
    activity = str(row.get("activity") or "home")
    lines = [_(ACTIVITY_WORDS[activity]) if activity in ACTIVITY_WORDS else activity]
    if row.get("race"):
        lines.append(_("lobby {code}", code=row["race"]))
    return lines


def item_text(item: Mapping[str, Any], titles: Titles | None = None) -> str:
    """One inbox item in words."""
    who, kind = item.get("sender"), item.get("kind")
    game = short_title(str(item.get("game") or ""), titles)
    race, challenge = item.get("race") or {}, item.get("challenge") or {}
    tournament = item.get("tournament") or {}
    if kind == "invite" and tournament:
        return _(
            "{who} invites you to a tournament of {game} ({code})",
            who=who,
            game=game,
            code=tournament.get("code"),
        )
    if kind == "tournament_result":
        return tournament_result_text(item, game)
    if kind == "invite" and race:
        return _(
            "{who} invites you to a race of {game} ({code})",
            who=who,
            game=game,
            code=race.get("code"),
        )
    if kind == "invite":
        return _(
            "{who} challenges you on a deal of {game} ({code})",
            who=who,
            game=game,
            code=challenge.get("code"),
        )
    if kind == "challenge_result":
        return _(
            "{who} finished your challenge {code} ({game})",
            who=who,
            game=game,
            code=challenge.get("code"),
        )
    if kind == "daily_beaten":
        return _(
            "{who} beat your daily of {game} on {date}", who=who, game=game, date=item.get("date")
        )
    if kind == "rematch":
        return _(
            "{who} asks for a rematch of {game} (race {code})",
            who=who,
            game=game,
            code=race.get("code"),
        )
    return f"{who}: {kind}"


def tournament_result_text(item: Mapping[str, Any], game: str) -> str:
    """``you finished 3rd of 41 in the tournament of Полумесяц (T7QX2M)``."""
    tournament = item.get("tournament") or {}
    place = item.get("place") or tournament.get("place")
    of = item.get("entrants") or tournament.get("entrants")
    if place and of:
        return _(
            "you finished {place} of {n} in the tournament of {game} ({code})",
            place=nth(int(place)),
            n=of,
            game=game,
            code=tournament.get("code"),
        )
    return _("the tournament of {game} ({code}) is over", game=game, code=tournament.get("code"))


def item_action(item: Mapping[str, Any]) -> str:
    """What Enter does with the item, in words ('' for nothing)."""
    if item.get("kind") == "tournament_result":
        return _("see the podium")
    if item.get("tournament"):
        return _("open the tournament")
    if item.get("race"):
        return _("join the race")
    if item.get("kind") == "invite":
        return _("play the challenge")
    if item.get("challenge"):
        return _("see the results")
    return ""


def item_when(item: Mapping[str, Any]) -> str:
    return when(item.get("at"))


def invited_news(event: Mapping[str, Any], titles: Titles | None = None) -> str:
    """An ``invited`` event in words, for a notification."""
    return _(
        "{news} — i on the home screen opens your inbox",
        news=item_text(event.get("item") or {}, titles),
    )


def inbox_line(result: Mapping[str, Any]) -> str:
    """The home screen's word on the inbox: ``inbox: 2 unread (i)``."""
    n = int(result.get("unread") or 0)
    return ngettext("inbox: {n} unread item (i)", "inbox: {n} unread items (i)", n) if n else ""


def day_text(day: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """A calendar day's cells: date, your result, par, difficulty."""
    status = str(day.get("status"))
    words = _(DAY_WORDS[status][0]) if status in DAY_WORDS else status
    if day.get("playable"):
        words += " · " + _("playable")
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
