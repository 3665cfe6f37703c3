"""Leaderboards: daily per game (the first finished attempt of each player) and
all-time per game (each player's best ranked result).

The ranking order (docs/protocol.md, "Leaderboards"): won before not won; wins by
fewer moves, less time, earlier finish; losses by more cards on foundations alone —
losses that founded as many cards share a rank (no tie-break on time or moves, which
would reward giving up at once), listed by earlier finish. An entry is stored as a
zset member whose bytes sort in exactly that order (all scores 0, so Redis orders
members lexically); the member also carries whether the run was clean (no undo),
whether it was given up (resigned), the moves and time shown, and the player's name.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from protocol import Board, ErrorCode, ProtocolError

from ..store import Store
from .ratings import Ratings

ALL = "all"
MAX_MOVES = 999_999
MAX_TIME_MS = 999_999_999_999


#: the length of a member's sort key as first stored (no resigned flag; losses
#: ordered by moves and time too): still read
_KEY_V1 = 38


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    won: bool
    foundation: int
    moves: int
    time_ms: int
    finished_ms: int
    clean: bool
    #: lost by giving up (the player resigned, or the server gave it up for them),
    #: not with no move left
    resigned: bool = False

    def member(self) -> str:
        """The sortable zset member of this entry."""
        moves, time_ms = min(self.moves, MAX_MOVES), min(self.time_ms, MAX_TIME_MS)
        sort_moves, sort_time = (moves, time_ms) if self.won else (0, 0)
        return (
            f"{self.group}{sort_moves:06d}{sort_time:012d}{self.finished_ms:015d}"
            f"{int(self.clean)}{int(self.resigned)}{moves:06d}{time_ms:012d}|{self.player}"
        )

    @property
    def group(self) -> str:
        """The start of the member that ties share: a loss's cards founded."""
        return f"{0 if self.won else 1}{999 - self.foundation:03d}"

    @classmethod
    def parse(cls, member: str) -> Entry:
        key, player = member.split("|", 1)
        v1 = len(key) == _KEY_V1
        return cls(
            player=player,
            won=key[0] == "0",
            foundation=999 - int(key[1:4]),
            moves=int(key[4:10] if v1 else key[39:45]),
            time_ms=int(key[10:22] if v1 else key[45:57]),
            finished_ms=int(key[22:37]),
            clean=key[37] == "1",
            resigned=not v1 and key[38] == "1",
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
            "resigned": self.resigned,
            "finished": self.finished_ms,
        }


class Leaderboards:
    def __init__(self, store: Store) -> None:
        self.store = store
        #: the ratings from races, whose board ``board: rating`` is (issue 51)
        self.ratings: Ratings | None = None

    async def record(self, slug: str, date: str, entry: Entry) -> None:
        """Put a ranked result on the day's board (first one kept) and the all-time
        board (best one kept). Idempotent."""
        member = entry.member()
        await self.store.board_put(slug, date, entry.player, member, "first")
        await self.store.board_put(slug, ALL, entry.player, member, "best")
        if await self.store.ban_of(entry.player) is not None:  # banned meanwhile: off again
            taken = await self.store.board_members_of(entry.player, [(slug, date), (slug, ALL)])
            await self.store.keep_banned_results(entry.player, taken)
            await self.store.board_take_off(entry.player, taken)

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
        if board is Board.RATING and self.ratings is not None:
            return await self.ratings.board(
                slug, limit=limit, cursor=cursor, around_me=around_me, player=player, among=among
            )
        period = date if board is Board.DAILY else ALL
        chosen: list[str] | None = None
        if among is not None:
            chosen = sorted(await self.store.board_members(slug, period, among))
            at = [i for i, m in enumerate(chosen) if Entry.parse(m).player == player]
            mine = (at[0], chosen[at[0]]) if at else None
        else:
            mine = await self.store.board_entry(slug, period, player) if player else None
        if cursor is not None:
            if not cursor.isdigit() or len(cursor) > 9:
                raise ProtocolError(
                    ErrorCode.BAD_REQUEST,
                    "'cursor' is not a cursor of this board",
                    key="error.bad_cursor",
                )
            start = int(cursor)
        elif around_me:
            if player is None:
                raise ProtocolError(
                    ErrorCode.UNAUTHORIZED,
                    "around_me needs an authenticated player",
                    key="error.around_me_login",
                )
            start = max(0, mine[0] - limit // 2) if mine else 0
        else:
            start = 0
        if chosen is not None:
            members, size = chosen[start : start + limit], len(chosen)
        else:
            members = await self.store.board_page(slug, period, start, start + limit - 1)
            size = await self.store.board_size(slug, period)
        page = [(start + i, Entry.parse(m)) for i, m in enumerate(members)]
        own = (mine[0], Entry.parse(mine[1])) if mine else None
        # A loss shares its rank with those that founded as many cards: 1 + the entries
        # before its group, counted once a group, every group shown at once (one round
        # trip, however many groups a page of 100 losses holds).
        shown = [*page, own] if own else page
        groups = sorted({entry.group for _, entry in shown if not entry.won})
        if chosen is not None:
            counts = [bisect.bisect_left(chosen, group) for group in groups]
        else:
            counts = await self.store.board_counts_below(slug, period, groups)
        below = dict(zip(groups, counts, strict=True))

        def rank(index: int, entry: Entry) -> int:
            return index + 1 if entry.won else below[entry.group] + 1

        entries = [entry.wire(rank(index, entry)) for index, entry in page]
        me = own[1].wire(rank(*own)) if own else None
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
