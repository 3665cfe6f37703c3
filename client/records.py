"""A player's records on the server: replays, history, statistics, friends and a
result to share — the round trips (over :class:`~client.connection.Connection`'s
``call``) and their plain text, shared by the command line and the screens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.messages import Op

from .connection import Connection, Message
from .drawing import draw
from .lang import N_, _, ngettext
from .notation import format_move
from .text import (
    ASSISTED,
    ASSISTED_LONG,
    MODE_WORDS,
    STATUS_WORDS,
    STREAK_MEANING,
    Titles,
    assisted,
    clock,
    outcome,
    share_text,
    short_title,
    table,
    title,
)


@dataclass(frozen=True)
class ReplayOf:
    """What to replay: a game by id; or a past daily of ``game`` on ``date``, the
    ranked game of ``player``, or (no player) the day's par line."""

    game_id: str = ""
    game: str = ""
    date: str = ""
    player: str = ""

    def params(self) -> dict[str, Any]:
        if self.game_id:
            return {"game_id": self.game_id}
        return {"game": self.game, "date": self.date, "player": self.player or None}


async def stats(conn: Connection, player: str | None = None, game: str | None = None) -> Message:
    """A player's statistics (yours by default), docs/protocol.md "Statistics"."""
    return await conn.call(Op.STATS, player=player, game=game)


async def replay(conn: Connection, of: ReplayOf, step: int | None = None) -> Message:
    """``{"replay": …}`` (plus ``"position"`` with ``step``), docs/protocol.md "Replays"."""
    return await conn.call(Op.REPLAY, step=step, **of.params())


def replay_heading(replay: Mapping[str, Any], titles: Titles | None = None) -> str:
    """One line: the game, whose, which deal, how it ended."""
    parts = [title(str(replay.get("game", "")), titles)]
    if replay.get("mode") == "par":
        parts.append(_("par line of the daily of {date}", date=replay.get("date")))
    else:
        parts.append(
            _("{player}'s {mode} game", player=replay.get("player"), mode=mode_words(replay))
        )
        if replay.get("date"):
            parts.append(str(replay["date"]))
    if replay.get("seed") is not None:
        parts.append(_("deal {seed}", seed=replay["seed"]))
    elif replay.get("commitment"):
        parts.append(
            _(
                "deal hidden until the day is over ({commitment}…)",
                commitment=str(replay["commitment"])[:12],
            )
        )
    ended = outcome(replay)
    parts.append(f"{ended} {replay.get('foundation')}/{replay.get('total')}")
    if assisted(replay):
        parts.append(_(ASSISTED_LONG))
    played = len(replay.get("line") or [])
    counted = ngettext("{n} move", "{n} moves", played)
    if replay.get("moves") != played:
        counted += " " + ngettext(
            "({n} counted, with undos)", "({n} counted, with undos)", int(replay.get("moves") or 0)
        )
    parts.append(counted)
    if replay.get("time_ms") is not None:
        parts.append(clock(replay["time_ms"]))
    return " · ".join(parts)


def mode_words(game: Mapping[str, Any]) -> str:
    """A game's mode (the server's ``mode``) in words."""
    mode = str(game.get("mode") or "")
    return _(MODE_WORDS[mode]) if mode in MODE_WORDS else mode


def line_text(line: list[Any], *, per_row: int = 8) -> str:
    """The moves numbered, a few to a row: ``  1. T3 FA-H   2. deal …``."""
    cells = [f"{i}. {format_move(dict(m))}" for i, m in enumerate(line, 1)]
    if not cells:
        return _("no moves")
    width = max(len(c) for c in cells) + 2
    rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)


def position_text(position: Mapping[str, Any], count: int) -> str:
    """The board at a step, as plain text, with the move that led there."""
    step = int(position.get("step") or 0)
    move = position.get("move")
    if isinstance(move, dict):
        led = _("after {move}", move=format_move(dict(move)))
    else:
        led = _("the deal")
    status = str(position.get("status") or "")
    head = " · ".join(
        [
            _("step {step}/{count}", step=step, count=count),
            led,
            _(
                "foundation {done}/{total}",
                done=position.get("foundation"),
                total=position.get("total"),
            ),
            _(STATUS_WORDS[status]) if status in STATUS_WORDS else status,
        ]
    )
    board = draw((position.get("view") or {}).get("piles") or []).plain()
    return f"{head}\n\n{board}"


# -- history ---------------------------------------------------------------------------

HISTORY_HEADER = [
    N_("when (UTC)"),
    N_("game"),
    N_("mode"),
    N_("result"),
    N_("foundation"),
    N_("moves"),
    N_("time"),
    N_("id"),
]


def when(ms: Any) -> str:
    """A moment (ms since the epoch) as ``YYYY-MM-DD HH:MM`` UTC."""
    if not isinstance(ms, int) or ms <= 0:
        return "?"
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")


def game_time(summary: Mapping[str, Any]) -> int:
    """A listed game's time: its player's active time as the server counts it (an
    older server's summary has none: from its start to its last change)."""
    if summary.get("time_ms") is not None:
        return int(summary["time_ms"])
    return max(0, int(summary.get("updated") or 0) - int(summary.get("created") or 0))


def history_row(summary: Mapping[str, Any], titles: Titles | None = None) -> list[Any]:
    mode = mode_words(summary)
    if summary.get("date") and summary.get("mode") == "daily":
        mode = _("daily {day}", day=summary["date"])
    if assisted(summary):
        mode = f"{mode}, {_(ASSISTED)}"
    return [
        when(summary.get("created")),
        short_title(str(summary.get("game") or ""), titles),
        mode,
        outcome(summary),
        f"{summary.get('foundation')}/{summary.get('total')}",
        summary.get("moves"),
        clock(game_time(summary)),
        summary.get("game_id"),
    ]


def history_text(page: Mapping[str, Any], titles: Titles | None = None) -> str:
    games = page.get("games") or []
    if not games:
        return _("no games yet: `pasyans play GAME` starts one")
    header = [_(h) for h in HISTORY_HEADER]
    lines = [table([history_row(g, titles) for g in games], header)]
    if page.get("cursor") is not None:
        lines.append(_("more: --cursor {cursor}", cursor=page["cursor"]))
    lines.append(
        _("`pasyans replay ID` replays a finished game; `pasyans resume ID` goes on with one")
    )
    return "\n".join(lines)


# -- statistics ------------------------------------------------------------------------

STATS_HEADER = [
    N_("game"),
    N_("games"),
    N_("wins"),
    N_("win %"),
    N_("best moves"),
    N_("best time"),
    N_("avg founded"),
    N_("dailies"),
    N_("streak"),
]
#: the chart's glyphs: a game won, a game lost
WON_CELL, LOST_CELL = "█", "░"


def stats_row(name: str, block: Mapping[str, Any]) -> list[Any]:
    def opt(value: Any) -> Any:
        return "—" if value is None else value

    time = block.get("best_time_ms")
    return [
        name,
        block.get("played", 0),
        block.get("won", 0),
        opt(block.get("win_pct")),
        opt(block.get("best_moves")),
        "—" if time is None else clock(time),
        opt(block.get("founded_avg")),
        _("{won}/{played} won", won=block.get("daily_won", 0), played=block.get("daily_played", 0)),
        _(
            "{streak} (best {best})",
            streak=block.get("streak", 0),
            best=block.get("best_streak", 0),
        ),
    ]


def chart_rows(days: Sequence[Mapping[str, Any]], height: int = 5) -> list[list[str]]:
    """The results of each day as a column of ``height`` cells, top row first: the
    day's games scaled to the busiest day, won (``█``) below lost (``░``)."""
    most = max((int(d.get("won", 0)) + int(d.get("lost", 0)) for d in days), default=0)
    columns = []
    for d in days:
        won, lost = int(d.get("won", 0)), int(d.get("lost", 0))
        if not most or not won + lost:
            columns.append([" "] * height)
            continue
        cells = max(1, round((won + lost) * height / most))
        won_cells = round(cells * won / (won + lost))
        if won and not won_cells:
            won_cells = 1
        if lost and won_cells == cells:
            won_cells = cells - 1 if cells > 1 else cells
        column = [WON_CELL] * won_cells + [LOST_CELL] * (cells - won_cells)
        columns.append((column + [" "] * height)[:height][::-1])
    return [[col[row] for col in columns] for row in range(height)]


def chart_text(days: Sequence[Mapping[str, Any]], height: int = 5) -> str:
    """A small bar chart of the last days' results, in plain text."""
    if not days:
        return ""
    rows = ["".join(r).rstrip() or "" for r in chart_rows(days, height)]
    first, last = str(days[0].get("date")), str(days[-1].get("date"))
    axis = first + last.rjust(max(len(days) - len(first), len(last) + 1))
    won = sum(int(d.get("won", 0)) for d in days)
    lost = sum(int(d.get("lost", 0)) for d in days)
    legend = ngettext(
        "last {n} day: {won} won {won_cell}, {lost} lost {lost_cell}",
        "last {n} days: {won} won {won_cell}, {lost} lost {lost_cell}",
        len(days),
        won=won,
        lost=lost,
        won_cell=WON_CELL,
        lost_cell=LOST_CELL,
    )
    return "\n".join(["│" + r for r in rows] + ["└" + "─" * len(days), " " + axis, legend])


def stats_text(stats: Mapping[str, Any], titles: Titles | None = None) -> str:
    overall = stats.get("overall") or {}
    rows = [stats_row(_("all games"), overall)]
    for slug, block in (stats.get("games") or {}).items():
        rows.append(stats_row(title(slug, titles).split(" — ")[0], block))
    header = [_(h) for h in STATS_HEADER]
    lines = [_("Statistics of {player}", player=stats.get("player")), table(rows, header), ""]
    lines.append(chart_text(list(stats.get("days") or [])))
    lines.append(_("streak: {meaning} (per game: that game's daily)", meaning=_(STREAK_MEANING)))
    return "\n".join(lines)


# -- friends ---------------------------------------------------------------------------


async def friend(conn: Connection, name: str, *, add: bool) -> Message:
    """Follow (or stop following) ``name``: ``{"friend", "added"|"removed"}``."""
    return await conn.call(Op.FRIEND_ADD if add else Op.FRIEND_REMOVE, name=name)


async def friends(conn: Connection) -> Message:
    """Those you follow, each with their games on today's dailies."""
    return await conn.call(Op.FRIENDS)


def today_text(today: Mapping[str, Any], titles: Titles | None = None) -> str:
    """A friend's dailies of today in a few words: ``Полумесяц won 95 moves · …``."""
    return " · ".join(today_lines(today, titles))


def today_lines(today: Mapping[str, Any], titles: Titles | None = None) -> list[str]:
    """A friend's dailies of today, one a line (the friends screen's cell)."""
    if not today:
        return [_("no daily yet today")]
    parts = []
    for slug, game in today.items():
        name = title(slug, titles).split(" — ")[0]
        status = str(game.get("status") or "")
        if status == "playing":
            parts.append(f"{name} {_(STATUS_WORDS[status])}")
        else:
            help_ = ", " + _(ASSISTED) + " " + _("(not ranked)") if assisted(game) else ""
            said = _(STATUS_WORDS[status]) if status in STATUS_WORDS else status
            parts.append(
                ngettext(
                    "{game} {status} {done}/{total} in {n} move",
                    "{game} {status} {done}/{total} in {n} moves",
                    int(game.get("moves") or 0),
                    game=name,
                    status=said,
                    done=game.get("foundation"),
                    total=game.get("total"),
                )
                + help_
            )
    return parts


def friends_text(result: Mapping[str, Any], titles: Titles | None = None) -> str:
    rows = result.get("friends") or []
    if not rows:
        return _("you follow nobody yet: `pasyans friend add NAME`")
    lines = [_("Your friends on the dailies of {date} (UTC)", date=result.get("date"))]
    lines.append(
        table(
            [[f["player"], today_text(f.get("today") or {}, titles)] for f in rows],
            [_("friend"), _("today")],
        )
    )
    return "\n".join(lines)


# -- sharing a result --------------------------------------------------------------------

#: pages of ``my_games`` looked through for your latest finished game
SHARE_PAGES = 5


async def latest_finished(conn: Connection) -> str | None:
    """The id of your newest finished game (None: none in your last few hundred)."""
    cursor = None
    for _page in range(SHARE_PAGES):
        page = await conn.my_games(limit=100, cursor=cursor)
        for game in page.get("games") or []:
            if game.get("status") != "playing":
                return str(game["game_id"])
        cursor = page.get("cursor")
        if cursor is None:
            break
    return None


async def share(conn: Connection, game: Mapping[str, Any], titles: Titles | None = None) -> str:
    """The text of :func:`~client.text.share_text` for a finished game (a state or a
    replay), with the daily's par (when certified) and your rank on its board (for the
    ranked game of a daily) asked of the server."""
    slug, date = str(game.get("game") or ""), game.get("date")
    par = rank = of = None
    if date and game.get("mode") == "daily":
        entry = ((await conn.daily(str(date))).get("games") or {}).get(slug) or {}
        if entry.get("certified"):
            par = entry.get("par")
        board = await conn.leaderboard(slug, date=str(date), around_me=True, limit=1)
        me = board.get("me") or {}
        if me.get("rank") is not None and game.get("ranked", True):
            rank, of = int(me["rank"]), board.get("total")
    day = None
    if not date:  # the day it ended (a state, just ended, has no stamp: today)
        stamp = game.get("finished") or game.get("created")
        ok = isinstance(stamp, int) and stamp > 0
        day = when(stamp)[:10] if ok else dt.datetime.now(dt.UTC).date().isoformat()
    return share_text(game, titles, day=day, par=par, rank=rank, of=of)


def friends_line(result: Mapping[str, Any], titles: Titles | None = None, width: int = 78) -> str:
    """How the players you follow did on today's dailies, in one line of at most
    ``width`` cells for the home screen: those who played first, each game as
    ``anna Полумесяц won 104/104``; ``+N more (f)`` for those left out."""
    rows = list(result.get("friends") or [])
    if not rows:
        return _("friends: you follow nobody yet — f to follow a player")
    parts = []
    for row in sorted(rows, key=lambda r: not r.get("today")):
        for slug, game in (row.get("today") or {}).items():
            name = title(slug, titles).split(" — ")[0]
            status = str(game.get("status") or "")
            said = _(STATUS_WORDS[status]) if status in STATUS_WORDS else status
            founded = (
                "" if status == "playing" else f" {game.get('foundation')}/{game.get('total')}"
            )
            help_ = f" {_(ASSISTED)}" if assisted(game) else ""
            parts.append(f"{row['player']} {name} {said}{founded}{help_}")
    if not parts:
        return ngettext(
            "friends today: the {n} you follow has not played a daily yet",
            "friends today: none of the {n} you follow has played a daily yet",
            len(rows),
        )
    head, shown = _("friends today: "), list[str]()
    for i, part in enumerate(parts):
        rest = len(parts) - i - 1
        more = " · " + _("+{n} more (f)", n=rest) if rest else ""
        if len(head) + len(" · ".join([*shown, part])) + len(more) > width:
            left = len(parts) - len(shown)
            return head + " · ".join(shown) + (" · " if shown else "") + _("+{n} more (f)", n=left)
        shown.append(part)
    return head + " · ".join(shown)
