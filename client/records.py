"""A player's records on the server: replays, history, statistics, friends and a
result to share — the round trips (over :class:`~client.connection.Connection`'s
``call``) and their plain text, shared by the command line and the screens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol.messages import Op

from .connection import Connection, Message
from .drawing import draw
from .notation import format_move
from .text import Titles, clock, table, title


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


async def replay(conn: Connection, of: ReplayOf, step: int | None = None) -> Message:
    """``{"replay": …}`` (plus ``"position"`` with ``step``), docs/protocol.md "Replays"."""
    return await conn.call(Op.REPLAY, step=step, **of.params())


def replay_heading(replay: Mapping[str, Any], titles: Titles | None = None) -> str:
    """One line: the game, whose, which deal, how it ended."""
    parts = [title(str(replay.get("game", "")), titles)]
    if replay.get("mode") == "par":
        parts.append(f"par line of the daily of {replay.get('date')}")
    else:
        parts.append(f"{replay.get('player')}'s {replay.get('mode')} game")
        if replay.get("date"):
            parts.append(str(replay["date"]))
    if replay.get("seed") is not None:
        parts.append(f"deal {replay['seed']}")
    elif replay.get("commitment"):
        parts.append(f"deal hidden until the day is over ({str(replay['commitment'])[:12]}…)")
    ended = str(replay.get("status") or "")
    parts.append(f"{ended} {replay.get('foundation')}/{replay.get('total')}")
    counted = f"{len(replay.get('line') or [])} moves"
    if replay.get("moves") != len(replay.get("line") or []):
        counted += f" ({replay.get('moves')} counted, with undos)"
    parts.append(counted)
    if replay.get("time_ms") is not None:
        parts.append(clock(replay["time_ms"]))
    return " · ".join(parts)


def line_text(line: list[Any], *, per_row: int = 8) -> str:
    """The moves numbered, a few to a row: ``  1. T3 FA-H   2. deal …``."""
    cells = [f"{i}. {format_move(dict(m))}" for i, m in enumerate(line, 1)]
    if not cells:
        return "no moves"
    width = max(len(c) for c in cells) + 2
    rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)


def position_text(position: Mapping[str, Any], count: int) -> str:
    """The board at a step, as plain text, with the move that led there."""
    step = int(position.get("step") or 0)
    move = position.get("move")
    led = f" · after {format_move(dict(move))}" if isinstance(move, dict) else " · the deal"
    head = (
        f"step {step}/{count}{led} · foundation "
        f"{position.get('foundation')}/{position.get('total')} · {position.get('status')}"
    )
    board = draw((position.get("view") or {}).get("piles") or []).plain()
    return f"{head}\n\n{board}"


# -- history ---------------------------------------------------------------------------

HISTORY_HEADER = ["when (UTC)", "game", "mode", "result", "foundation", "moves", "time", "id"]


def when(ms: Any) -> str:
    """A moment (ms since the epoch) as ``YYYY-MM-DD HH:MM`` UTC."""
    if not isinstance(ms, int) or ms <= 0:
        return "?"
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")


def game_time(summary: Mapping[str, Any]) -> int:
    """A listed game's time: from its start to its last change (its finish, once over)."""
    return max(0, int(summary.get("updated") or 0) - int(summary.get("created") or 0))


def history_row(summary: Mapping[str, Any], titles: Titles | None = None) -> list[Any]:
    mode = str(summary.get("mode") or "")
    if summary.get("date") and mode == "daily":
        mode = f"daily {summary['date']}"
    return [
        when(summary.get("created")),
        title(str(summary.get("game") or ""), titles).split(" — ")[0],
        mode,
        str(summary.get("status") or ""),
        f"{summary.get('foundation')}/{summary.get('total')}",
        summary.get("moves"),
        clock(game_time(summary)),
        summary.get("game_id"),
    ]


def history_text(page: Mapping[str, Any], titles: Titles | None = None) -> str:
    games = page.get("games") or []
    if not games:
        return "no games yet: `pasyans play GAME` starts one"
    lines = [table([history_row(g, titles) for g in games], HISTORY_HEADER)]
    if page.get("cursor") is not None:
        lines.append(f"more: --cursor {page['cursor']}")
    lines.append(
        "`pasyans replay ID` replays a finished game; `pasyans resume ID` goes on with one"
    )
    return "\n".join(lines)
