"""Challenges in plain text: a challenge's results, the list of yours, the line the
home screen shows, and the lines a shared result carries. Pure functions of what the
server sent (docs/protocol.md, "Challenges")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lang import N_, _, ngettext
from .records import when
from .text import Titles, clock, outcome, table, title

RESULTS_HEADER = ["#", N_("player"), N_("result"), N_("cards"), N_("moves"), N_("time"), N_("help")]
LIST_HEADER = [
    N_("code"),
    N_("game"),
    N_("creator"),
    N_("results"),
    N_("new"),
    N_("leader"),
    N_("you"),
    N_("open until (UTC)"),
]


def header(names: Sequence[str]) -> list[str]:
    """A table's column names in the player's language."""
    return [_(name) if name != "#" else name for name in names]


def play_command(code: str) -> str:
    return " ".join(("pasyans", "challenge", "play", code))


def share_lines(code: str) -> list[str]:
    """What a shared result adds for a friend to play the same deal."""
    return [
        _(
            "beat me on this deal: {command}  (or #challenge/{code})",
            command=play_command(code),
            code=code,
        )
    ]


#: what a challenge says of whoever could know its seed (docs/protocol.md, "Challenges")
SEED_KNOWN_WORDS = N_(
    "its creator could see this deal's number before playing it: their result ranks apart"
)
SEED_PUBLIC_WORDS = N_(
    "this deal's number is public (a past daily's, a race's or another challenge's "
    "deal): any result on it may have been worked out in advance"
)


def help_words(result: Mapping[str, Any]) -> str:
    """Whether a result had help: a hint or the solver (``assisted``), undo, or a seed
    its player could see (``seed_known``: it ranks apart)."""
    words = []
    if result.get("assisted"):
        words.append(_("assisted"))
    elif result.get("auto_completed"):
        words.append(_("auto-completed"))
    if result.get("clean") is False:
        words.append(_("undo"))
    if result.get("mark"):
        words.append(_("the mark"))
    if result.get("seed_known"):
        words.append(_("seed known: not ranked"))
    return ", ".join(words)


def rank_cell(result: Mapping[str, Any]) -> str:
    """A result's rank, or ``—`` for one that ranks apart."""
    rank = result.get("rank")
    return "—" if rank is None else str(rank)


def when_open(challenge: Mapping[str, Any]) -> str:
    """Whether a challenge takes players: ``closed``, ``opens …`` or its expiry."""
    if challenge.get("closed") or challenge.get("expired"):
        return _("closed")
    if challenge.get("opens"):
        return _("opens {when}", when=when(challenge.get("opens")))
    return when(challenge.get("expires"))


def challenge_text(challenge: Mapping[str, Any], titles: Titles | None = None) -> str:
    """A challenge as ``pasyans challenge show`` prints it: what it is, its results
    ranked, who is still playing, and how to play it."""
    code = str(challenge.get("code") or "")
    closed = bool(challenge.get("closed"))
    creator = challenge.get("creator")
    head = [
        _(
            "challenge {code} · {title}",
            code=code,
            title=title(str(challenge.get("game") or ""), titles),
        ),
        _("by {creator} · closed: its results are final", creator=creator)
        if closed
        else _(
            "by {creator} · expires {when} UTC",
            creator=creator,
            when=when(challenge.get("expires")),
        ),
    ]
    if challenge.get("seed_chosen"):
        head[-1] += " · " + _("a chosen deal")
    if challenge.get("opens") and not closed:
        head.append(
            _(
                "opens to players at {when} UTC, when its daily's day is over",
                when=when(challenge.get("opens")),
            )
        )
    if challenge.get("seed_known"):
        head.append(_(SEED_KNOWN_WORDS))
    if challenge.get("seed_public"):
        head.append(_(SEED_PUBLIC_WORDS))
    if challenge.get("seed") is not None:
        head.append(_("deal {seed}", seed=challenge["seed"]))
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
    lines.append(table(rows, header(RESULTS_HEADER)) if rows else _("no result yet"))
    playing = list(challenge.get("playing") or [])
    if playing:
        lines.append(_("playing now: {players}", players=", ".join(str(p) for p in playing)))
    lines.append("")
    if challenge.get("played"):
        lines.append(_("you have played it"))
    elif challenge.get("game_id"):
        lines.append(
            _("your game is in play: {command} goes on with it", command=play_command(code))
        )
    elif not closed:
        lines.append(_("play it: {command}", command=play_command(code)))
    if not closed:
        lines.append(
            _(
                "its creator closes it (results final, deal shown): {command}",
                command=close_command(code),
            )
        )
    return "\n".join(lines)


def close_command(code: str) -> str:
    return " ".join(("pasyans", "challenge", "close", code))


def challenges_text(result: Mapping[str, Any], titles: Titles | None = None) -> str:
    """Your challenges (made or accepted), newest first, as ``pasyans challenges``."""
    rows: list[Sequence[Any]] = []
    for c in result.get("challenges") or []:
        you = _("played") if c.get("played") else (_("playing") if c.get("game_id") else "—")
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
        return _(
            "no challenges yet: `pasyans challenge new GAME_ID` challenges friends on a "
            "finished game of yours"
        )
    lines = [table(rows, header(LIST_HEADER))]
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
    link = challenge.get("url") or challenge.get("link") or "#challenge/" + code
    if challenge.get("mark"):
        made = _(
            "challenge {code} made (your result is the mark to beat); friends play it "
            "with: {command}",
            code=code,
            command=play_command(code),
        )
    else:
        made = _(
            "challenge {code} made (no mark yet); friends play it with: {command}",
            code=code,
            command=play_command(code),
        )
    lines = [made, _("link: {link}", link=link)]
    if challenge.get("opens"):
        lines.append(
            _(
                "it opens to them at {when} UTC, when the day of its daily is over",
                when=when(challenge.get("opens")),
            )
        )
    if challenge.get("seed_known"):
        lines.append(
            _(
                "you could see this deal's number before playing: every player is told, "
                "and your result ranks apart"
            )
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
