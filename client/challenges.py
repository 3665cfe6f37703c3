"""Challenges in plain text: a challenge's results, the list of yours, the line the
home screen shows, and the lines a shared result carries. Pure functions of what the
server sent (docs/protocol.md, "Challenges")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lang import _, ngettext
from .records import when
from .text import Titles, clock, outcome, table, title

RESULTS_HEADER = ["#", "player", "result", "cards", "moves", "time", "help"]
LIST_HEADER = ["code", "game", "creator", "results", "new", "leader", "you", "open until (UTC)"]


def play_command(code: str) -> str:
    return f"pasyans challenge play {code}"


def share_lines(code: str) -> list[str]:
    """What a shared result adds for a friend to play the same deal."""
    return [f"beat me on this deal: {play_command(code)}  (or #challenge/{code})"]


#: what a challenge says of whoever could know its seed (docs/protocol.md, "Challenges")
SEED_KNOWN_WORDS = (
    "its creator could see this deal's number before playing it: their result ranks apart"
)
SEED_PUBLIC_WORDS = (
    "this deal's number is public (a past daily's, a race's or another challenge's "
    "deal): any result on it may have been worked out in advance"
)


def help_words(result: Mapping[str, Any]) -> str:
    """Whether a result had help: a hint or the solver (``assisted``), undo, or a seed
    its player could see (``seed_known``: it ranks apart)."""
    words = []
    if result.get("assisted"):
        words.append("assisted")
    elif result.get("auto_completed"):
        words.append("auto-completed")
    if result.get("clean") is False:
        words.append("undo")
    if result.get("mark"):
        words.append("the mark")
    if result.get("seed_known"):
        words.append("seed known: not ranked")
    return ", ".join(words)


def rank_cell(result: Mapping[str, Any]) -> str:
    """A result's rank, or ``—`` for one that ranks apart."""
    rank = result.get("rank")
    return "—" if rank is None else str(rank)


def when_open(challenge: Mapping[str, Any]) -> str:
    """Whether a challenge takes players: ``closed``, ``opens …`` or its expiry."""
    if challenge.get("closed") or challenge.get("expired"):
        return "closed"
    if challenge.get("opens"):
        return f"opens {when(challenge.get('opens'))}"
    return when(challenge.get("expires"))


def challenge_text(challenge: Mapping[str, Any], titles: Titles | None = None) -> str:
    """A challenge as ``pasyans challenge show`` prints it: what it is, its results
    ranked, who is still playing, and how to play it."""
    code = str(challenge.get("code") or "")
    closed = bool(challenge.get("closed"))
    head = [
        f"challenge {code} · {title(str(challenge.get('game') or ''), titles)}",
        f"by {challenge.get('creator')} · "
        + (
            "closed: its results are final"
            if closed
            else f"expires {when(challenge.get('expires'))} UTC"
        ),
    ]
    if challenge.get("seed_chosen"):
        head[-1] += " · a chosen deal"
    if challenge.get("opens") and not closed:
        head.append(
            f"opens to players at {when(challenge.get('opens'))} UTC, when its daily's day is over"
        )
    if challenge.get("seed_known"):
        head.append(SEED_KNOWN_WORDS)
    if challenge.get("seed_public"):
        head.append(SEED_PUBLIC_WORDS)
    if challenge.get("seed") is not None:
        head.append(f"deal {challenge['seed']}")
    rows = [
        [
            rank_cell(r),
            r.get("player"),
            outcome(r),
            f"{r.get('foundation')}/{r.get('total')}",
            r.get("moves"),
            clock(r.get("time_ms")),
            help_words(r),
        ]
        for r in challenge.get("results") or []
    ]
    lines = [*head, ""]
    lines.append(table(rows, RESULTS_HEADER) if rows else "no result yet")
    playing = list(challenge.get("playing") or [])
    if playing:
        lines.append(f"playing now: {', '.join(str(p) for p in playing)}")
    lines.append("")
    if challenge.get("played"):
        lines.append("you have played it")
    elif challenge.get("game_id"):
        lines.append(f"your game is in play: {play_command(code)} goes on with it")
    elif not closed:
        lines.append(f"play it: {play_command(code)}")
    if not closed:
        lines.append(f"its creator closes it (results final, deal shown): {close_command(code)}")
    return "\n".join(lines)


def close_command(code: str) -> str:
    return f"pasyans challenge close {code}"


def challenges_text(result: Mapping[str, Any], titles: Titles | None = None) -> str:
    """Your challenges (made or accepted), newest first, as ``pasyans challenges``."""
    rows: list[Sequence[Any]] = []
    for c in result.get("challenges") or []:
        you = "played" if c.get("played") else ("playing" if c.get("game_id") else "—")
        expires = when_open(c)
        name = title(str(c.get("game") or ""), titles).split(" — ")[0]
        rows.append(
            [
                c.get("code"),
                name,
                c.get("creator"),
                c.get("results"),
                c.get("unread") or "",
                c.get("leader") or "—",
                you,
                expires,
            ]
        )
    if not rows:
        return (
            "no challenges yet: `pasyans challenge new GAME_ID` challenges friends on a "
            "finished game of yours"
        )
    lines = [table(rows, LIST_HEADER)]
    unread = unread_line(result)
    if unread:
        lines.append(unread)
    return "\n".join(lines)


def unread_line(result: Mapping[str, Any]) -> str:
    """``2 new results on your challenges`` (empty when there is none)."""
    n = int(result.get("unread") or 0)
    if not n:
        return ""
    return ngettext(
        "{n} new result on your challenges: `pasyans challenges` lists them",
        "{n} new results on your challenges: `pasyans challenges` lists them",
        n,
    )


def made_text(challenge: Mapping[str, Any]) -> str:
    """What ``pasyans challenge new`` and the end screen's ``C`` say of a new one."""
    code = str(challenge.get("code") or "")
    mark = "your result is the mark to beat" if challenge.get("mark") else "no mark yet"
    lines = [
        f"challenge {code} made ({mark}); friends play it with: {play_command(code)}",
        f"link: {challenge.get('url') or challenge.get('link') or '#challenge/' + code}",
    ]
    if challenge.get("opens"):
        lines.append(
            f"it opens to them at {when(challenge.get('opens'))} UTC, when the day of "
            "its daily is over"
        )
    if challenge.get("seed_known"):
        lines.append(
            "you could see this deal's number before playing: every player is told, "
            "and your result ranks apart"
        )
    return "\n".join(lines)


def challenge_news(event: Mapping[str, Any]) -> str:
    """A ``challenge_result`` event in words, for the creator."""
    result = event.get("result") or {}
    return _(
        "{player} finished your challenge {code}: {outcome}, {done}/{total} cards, "
        "{moves} — rank {rank}",
        player=event.get("player"),
        code=event.get("code"),
        outcome=outcome(result),
        done=result.get("foundation"),
        total=result.get("total"),
        moves=ngettext("{n} move", "{n} moves", int(result.get("moves") or 0)),
        rank=rank_cell(result),
    )


def home_line(result: Mapping[str, Any]) -> str:
    """The home screen's word on your challenges: ``2 new results on your challenges``."""
    n = int(result.get("unread") or 0)
    if not n:
        return ""
    return ngettext("{n} new result on your challenges", "{n} new results on your challenges", n)
