"""Leaderboards: daily per game (the first finished attempt of each player) and
all-time per game (each player's best ranked result).

The ranking order (docs/protocol.md, "Leaderboards"): won before not won, more cards
on foundations, fewer moves, less time, earlier finish. An entry is stored as a zset
member whose bytes sort in exactly that order (all scores 0, so Redis orders members
lexically); the member also carries whether the run was clean (no undo) and the
player's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol import Board, ErrorCode, ProtocolError

from ..store import Store

ALL = "all"
MAX_MOVES = 999_999
MAX_TIME_MS = 999_999_999_999


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    won: bool
    foundation: int
    moves: int
    time_ms: int
    finished_ms: int
    clean: bool

    def member(self) -> str:
        """The sortable zset member of this entry."""
        return (
            f"{0 if self.won else 1}{999 - self.foundation:03d}"
            f"{min(self.moves, MAX_MOVES):06d}{min(self.time_ms, MAX_TIME_MS):012d}"
            f"{self.finished_ms:015d}{int(self.clean)}|{self.player}"
        )

    @classmethod
    def parse(cls, member: str) -> Entry:
        key, player = member.split("|", 1)
        return cls(
            player=player,
            won=key[0] == "0",
            foundation=999 - int(key[1:4]),
            moves=int(key[4:10]),
            time_ms=int(key[10:22]),
            finished_ms=int(key[22:37]),
            clean=key[37] == "1",
        )

    def wire(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "player": self.player,
            "won": self.won,
            "foundation": self.foundation,
            "moves": self.moves,
            "time_ms": self.time_ms,
            "clean": self.clean,
            "finished": self.finished_ms,
        }


class Leaderboards:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def record(self, slug: str, date: str, entry: Entry) -> None:
        """Put a ranked result on the day's board (first one kept) and the all-time
        board (best one kept). Idempotent."""
        member = entry.member()
        await self.store.board_put(slug, date, entry.player, member, "first")
        await self.store.board_put(slug, ALL, entry.player, member, "best")

    async def page(
        self,
        slug: str,
        board: Board,
        date: str,
        *,
        limit: int,
        cursor: str | None,
        around_me: bool,
        player: str | None,
        among: list[str] | None = None,
    ) -> dict[str, Any]:
        """A page of the board; with ``among`` (a player and those they follow) only
        their entries, ranked among themselves in the same order, paged the same way."""
        period = date if board is Board.DAILY else ALL
        chosen: list[str] | None = None
        if among is not None:
            chosen = sorted(await self.store.board_members(slug, period, among))
            at = [i for i, m in enumerate(chosen) if Entry.parse(m).player == player]
            mine = (at[0], chosen[at[0]]) if at else None
        else:
            mine = await self.store.board_entry(slug, period, player) if player else None
        me = Entry.parse(mine[1]).wire(mine[0] + 1) if mine else None
        if cursor is not None:
            if not cursor.isdigit() or len(cursor) > 9:
                raise ProtocolError(ErrorCode.BAD_REQUEST, "'cursor' is not a cursor of this board")
            start = int(cursor)
        elif around_me:
            if player is None:
                raise ProtocolError(
                    ErrorCode.UNAUTHORIZED, "around_me needs an authenticated player"
                )
            start = max(0, mine[0] - limit // 2) if mine else 0
        else:
            start = 0
        if chosen is not None:
            members, size = chosen[start : start + limit], len(chosen)
        else:
            members = await self.store.board_page(slug, period, start, start + limit - 1)
            size = await self.store.board_size(slug, period)
        entries = [Entry.parse(m).wire(start + i + 1) for i, m in enumerate(members)]
        nxt = str(start + limit) if start + limit < size else None
        return {
            "game": slug,
            "board": str(board),
            "date": date if board is Board.DAILY else None,
            "entries": entries,
            "me": me,
            "cursor": nxt,
            "total": size,
            "friends": chosen is not None,
        }
