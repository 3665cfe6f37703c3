"""A player's own data (issue 49): everything the server holds about them, exported
(``account_export``), and the account deleted (``account_delete``).

The export says only what the player sees already: their own games with their moves
(a game's seed only once it may be shown to anyone, ``Views.seed_hidden``; never a
position's face-down cards), their statistics, follows, blocks, inbox,
challenges and races; never a token, another player's address or game, nor who
follows them (no op tells a player that, and a block must not be learnt from it).
Its games come in pages of at most :data:`PAGE_BYTES` (``cursor``), so that no reply
outgrows what a client takes. It reads much,
so each account may ask for :data:`EXPORT_PAGES_PER_HOUR` pages of it an hour.

Deleting an account takes the account, its tokens, link code, follows both ways,
blocks, inbox, presence and statistics; its results leave every leaderboard; its games
go, but a race game stays in its race for the other members, its player's name
blanked (clients say "a player who left"). The name and its look-alikes are held back
from registration for :data:`~.accounts.HOLD_DAYS` days.
"""

from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError, pack, unpack

from ..patience import registry
from ..store import Store
from .accounts import HOLD_DAYS
from .clock import Clock
from .games import Games
from .inbox import Inbox
from .names import look_alike_keys
from .records import Record

#: pages of an export an account may ask for in an hour (an export of a few hundred
#: games is one page; of 5,000 games of 30 moves, about 25)
EXPORT_PAGES_PER_HOUR = 100
#: the encoded games a page of an export holds, at most (one game at least): far below
#: a reply a client takes (the terminal client's 256 KiB) and a connection's outbox
PAGE_BYTES = 128 * 1024
#: the all-time boards' period (``Leaderboards``)
ALL = "all"


class AccountData:
    def __init__(self, store: Store, clock: Clock, games: Games, inbox: Inbox) -> None:
        self.store = store
        self.clock = clock
        self.games = games
        self.inbox = inbox

    async def export(self, player: str, cursor: str | None = None) -> dict[str, Any]:
        """``account_export``'s ``account`` and ``cursor``: the first page (no
        ``cursor``) holds everything but the games past it, each next page only
        ``player`` and more ``games``, oldest first, until ``cursor`` is None;
        ``rate_limited`` past :data:`EXPORT_PAGES_PER_HOUR` pages an hour."""
        offset = 0
        if cursor is not None:
            if not cursor.isdigit() or len(cursor) > 9:
                raise ProtocolError(
                    ErrorCode.BAD_REQUEST,
                    "'cursor' is not a cursor of account_export",
                    key="error.bad_cursor",
                )
            offset = int(cursor)
        now = self.clock.now_ms()
        window, left_ms = now // 3_600_000, 3_600_000 - now % 3_600_000
        if await self.store.count_export(player, window, 3600) > EXPORT_PAGES_PER_HOUR:
            retry = round(left_ms / 1000, 3)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"at most {EXPORT_PAGES_PER_HOUR} pages of exports an hour: "
                f"retry after {retry:g} s",
                key="error.limit_export",
                params={"seconds": max(1, round(retry)), "n": EXPORT_PAGES_PER_HOUR},
                retry_after=retry,
            )
        raw = await self.store.account_keys(player)
        profile = raw["profile"]
        gids: list[str] = raw["games"]
        games: list[dict[str, Any]] = []
        size = 0
        at = offset
        while at < len(gids) and (not games or size < PAGE_BYTES):
            game = await self._game(gids[at])
            at += 1
            if game is not None:
                games.append(game)
                size += len(pack(game))
        account: dict[str, Any] = {"player": profile.get("name") or player, "games": games}
        if cursor is None:
            stats = await self.store.player_stats(player)
            inbox = await self.inbox.items(player)
            account |= {
                "exported_ms": now,
                "profile": {k: v for k, v in profile.items() if k != "name"},
                "statistics": {
                    k: (v.decode() if isinstance(v, bytes) else v) for k, v in stats.items()
                },
                "ranked_dailies": raw["dailies"],
                "follows": raw["follows"],
                "blocks": raw["blocks"],
                "inbox": inbox.get("items", []),
                "challenges": raw["challenges"],
                "races": raw["races"],
            }
        return {"account": account, "cursor": str(at) if at < len(gids) else None}

    async def _game(self, gid: str) -> dict[str, Any] | None:
        """One of the player's games as the export says it: never a position (it holds
        face-down cards), the seed only once it is no secret."""
        fields = await self.store.game(gid)
        if fields is None:
            return None
        if "state" not in fields:  # a practice game summarised to its result (issue 50)
            game = registry.get(fields["slug"].decode())
            fields = fields | {"state": game.dumps(game.deal(int(fields["seed"])))}
        rec = Record.load(gid, fields)
        moves = [unpack(m) for m in await self.store.game_log(gid)]
        out: dict[str, Any] = {
            "game_id": gid,
            "game": rec.game.slug,
            "mode": str(rec.mode),
            "status": str(rec.status),
            "date": rec.date or None,
            "race": rec.race or None,
            "created_ms": rec.created,
            "finished_ms": rec.finished or None,
            "moves": rec.moves,
            "foundation": rec.foundation,
            "assisted": rec.assisted,
            "log": moves,
        }
        if not self.games.views.seed_hidden(rec):
            out["seed"] = rec.seed
        return out

    async def delete(self, player: str, name: str) -> dict[str, Any]:
        """``account_delete``: ``name`` must be ``player``'s own (typed again; case
        aside), else ``bad_request`` and nothing is done."""
        if name.casefold() != player.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "to delete your account, type your own name",
                key="error.delete_name_wrong",
                params={"name": name},
            )
        raw = await self.store.account_keys(player)
        boards: set[tuple[str, str]] = set()
        for field in raw["dailies"]:
            date, _, slug = field.partition(":")
            boards |= {(slug, date), (slug, ALL)}
        games: list[tuple[str, bool]] = []
        for gid in raw["games"]:
            fields = await self.store.game(gid)
            if fields is not None:
                games.append((gid, bool(fields.get("race"))))
        await self.store.delete_account(
            player,
            boards=sorted(boards),
            games=games,
            look_alikes=look_alike_keys(player),
            hold_ms=HOLD_DAYS * 86_400_000,
            now_ms=self.clock.now_ms(),
        )
        # their ratings leave the rating boards (issue 51)
        await self.store.drop_ratings(str(raw["profile"].get("name") or player), registry.slugs())
        for gid, _ in games:
            self.games.cache.pop(gid, None)  # this instance's copy (others' age out)
        return {"held_days": HOLD_DAYS}
