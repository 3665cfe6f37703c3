"""Tournaments (issue 51): a window of time on one game where every entrant plays the
same sequence of deals, one at a time, scored per deal (docs/protocol.md,
"Tournaments").

The sequence is a secret 64-bit seed, committed to at creation (``commitment``) and
shown at the end; deal ``i``'s candidates come from it as a daily's come from the
deployment's secret (``candidate_seed``), and the first the solver certifies winnable
is deal ``i`` — certified before the start, in the solver's days-ahead lane, so that
players' hints and finishes go first. The standings are a sorted set in Redis, written
by one script per deal over (``server/store/tournaments.py``): right across instances
and through a server's death. Events are the relay's (``server/net/tournament_relay.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, GameStatus, InboxKind, Mode, ProtocolError, TournamentStatus
from protocol.codec import pack, unpack

from ..solver.daily import Budget, choose
from ..store import Store
from ..store.errors import OUTAGE
from ..workers import REQUESTER, Lane, SolverPool
from .clock import Clock, utc_date
from .games import Games
from .ids import new_id
from .inbox import Inbox
from .links import Links
from .records import Record
from .tournament_rules import (
    CODE_ALPHABET,
    SHIFT,
    TOP,
    commitment,
    label,
    place_of,
    schedule,
    standing,
)

log = logging.getLogger("pasyans.tournaments")

DAY_MS = 86_400_000
#: a tournament's keys outlive its end by this long (its results are shown)
KEEP_S = 30 * 86_400
LEASE_MS = 30_000
MOST_OPEN = 2
ADDRESS_PER_DAY = 10
MOST_AHEAD_MS = 7 * DAY_MS


def _t(v: bytes | None) -> str:
    return v.decode() if v else ""


@dataclass(frozen=True)
class Info:
    tid: str
    code: str
    game: str
    creator: str
    public: bool
    starts_at: int
    ends_at: int
    minutes: int
    deals: int
    seed: int
    commitment: str
    ended: bool

    @classmethod
    def load(cls, tid: str, raw: dict[str, bytes]) -> Info:
        return cls(
            tid,
            _t(raw.get("code")),
            _t(raw.get("game")),
            _t(raw.get("creator")),
            raw.get("public") == b"1",
            int(raw.get("starts_at") or 0),
            int(raw.get("ends_at") or 0),
            int(raw.get("minutes") or 0),
            int(raw.get("deals") or 0),
            int(raw.get("seed") or 0),
            _t(raw.get("commitment")),
            raw.get("ended") == b"1",
        )


def not_found(code: str) -> ProtocolError:
    return ProtocolError(
        ErrorCode.NOT_FOUND,
        f"no tournament has the code {code!r}",
        key="error.no_tournament",
        params={"code": code},
    )


def forbidden(key: str, message: str, **params: Any) -> ProtocolError:
    return ProtocolError(ErrorCode.FORBIDDEN, message, key=key, params=params)


class Tournaments:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        games: Games,
        inbox: Inbox,
        links: Links,
        *,
        pool: SolverPool,
        budget: Budget,
        lead: float = 60.0,
        minute: float = 60.0,
        per_day: int = 3,
        entrants: int = 1000,
        schedule_text: str = "",
        one_per_address: bool = True,
    ) -> None:
        self.store = store
        self.clock = clock
        self.games = games
        self.inbox = inbox
        self.links = links
        self.pool = pool
        self.budget = budget
        self.lead_ms = int(lead * 1000)
        self.minute_ms = int(minute * 1000)
        self.per_day = per_day
        self.most = entrants
        #: one account a client address enters a tournament (``address_limits``)
        self.one_per_address = one_per_address
        self.schedule = schedule(schedule_text)
        self.owner = new_id()
        self._certifying: dict[str, asyncio.Task[None]] = {}
        #: told of a tournament's change (the relay's publish): set by the app
        self.on_change: Any = None

    # -- reading ---------------------------------------------------------------------

    async def info(self, tid: str) -> Info | None:
        raw = await self.store.tournament(tid)
        return Info.load(tid, raw) if raw.get("code") else None

    async def by_code(self, code: str) -> Info:
        code = code.upper()
        tid = await self.store.tournament_by_code(code)
        info = await self.info(tid) if tid else None
        if info is None:
            raise not_found(code)
        return info

    async def by_id(self, tid: str) -> Info:
        info = await self.info(tid)
        if info is None:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no tournament {tid!r}",
                key="error.no_tournament",
                params={"code": tid},
            )
        return info

    def status(self, info: Info) -> TournamentStatus:
        now = self.clock.now_ms()
        if now < info.starts_at:
            return TournamentStatus.UPCOMING
        if now < info.ends_at:
            return TournamentStatus.RUNNING
        return TournamentStatus.FINISHED

    async def ranked(self, tid: str) -> list[tuple[str, int]]:
        """Every entrant and score, in the standings' order."""
        board = await self.store.board(tid)
        board.sort(key=lambda row: (-row[1], row[0]))
        return board

    async def head(self, info: Info, viewer: str | None, count: int) -> dict[str, Any]:
        return {
            "tournament_id": info.tid,
            "code": info.code,
            "game": info.game,
            "status": str(self.status(info)),
            "starts_at": info.starts_at,
            "ends_at": info.ends_at,
            "minutes": info.minutes,
            "entrants": count,
            "creator": info.creator or None,
            "public": info.public,
            "joined": False,
            "url": self.links.tournament(info.code),
        }

    async def wire(
        self,
        info: Info,
        viewer: str | None,
        *,
        board: list[tuple[str, int]] | None = None,
        rows: dict[str, dict[str, bytes]] | None = None,
        watchers: int = 0,
    ) -> dict[str, Any]:
        """The tournament object as ``viewer`` sees it (``board`` and ``rows``: read
        once for many viewers by the relay)."""
        if board is None:
            board = await self.ranked(info.tid)
        top = [name for name, _ in board[:TOP]]
        if rows is None:
            rows = dict(zip(top, await self.store.entrants(info.tid, top), strict=True))
        out = await self.head(info, viewer, len(board))
        finished = self.status(info) is TournamentStatus.FINISHED
        # the seeds once the end is written (:meth:`end`): its games replay by then, so
        # whoever reads the seeds can open them (by the clock alone, a reader came
        # before the end and its replay was refused)
        shown = finished and info.ended
        deals = await self.store.deals(info.tid) if shown else {}
        ready = (
            finished or int((await self.store.tournament(info.tid)).get("ready") or 0) >= info.deals
        )
        standings = [standing(i + 1, n, s, rows.get(n, {})) for i, (n, s) in enumerate(board[:TOP])]
        me = None
        deal = 0
        if viewer is not None:
            where = place_of(board, viewer)
            if where is not None:
                name, score = board[where - 1]
                mine = rows.get(name)
                if mine is None:
                    mine = await self.store.entrant(info.tid, name)
                me = standing(where, name, score, mine)
                deal = int(mine.get("deal") or 0)
        out |= {
            "joined": me is not None,
            "deals": info.deals,
            "ready": ready,
            "commitment": info.commitment,
            "seed": info.seed if shown else None,
            "seeds": [int(unpack(deals[i])["seed"]) for i in sorted(deals)] if shown else None,
            "standings": standings,
            "me": me,
            "deal": deal,
            "watchers": watchers,
        }
        return out

    # -- creating, joining, leaving ------------------------------------------------------

    async def create(
        self,
        player: str | None,
        slug: str,
        starts_at: int,
        minutes: int,
        *,
        address: str | None = None,
        public: bool = False,
    ) -> dict[str, Any]:
        from .games import find_game

        find_game(slug)
        now = self.clock.now_ms()
        if player is not None:
            if not now + self.lead_ms <= starts_at <= now + MOST_AHEAD_MS:
                raise ProtocolError(
                    ErrorCode.BAD_REQUEST,
                    f"a tournament starts at least {self.lead_ms / 1000:g} s from now and at "
                    "most 7 days ahead",
                    key="error.tournament_starts_at",
                    params={"seconds": round(self.lead_ms / 1000)},
                )
            await self._limit(player, address, now)
        tid = new_id()
        seed = secrets.randbits(64)
        ends_at = starts_at + minutes * self.minute_ms
        fields: dict[str, str | int] = {
            "game": slug,
            "creator": player or "",
            "public": int(public),
            "starts_at": starts_at,
            "ends_at": ends_at,
            "minutes": minutes,
            "deals": min(40, max(5, minutes // 2)),
            "seed": seed,
            "commitment": commitment(seed, tid, slug),
            "created": now,
            "ready": 0,
        }
        ttl = (ends_at - now) // 1000 + KEEP_S
        for _ in range(16):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(7))
            if await self.store.create_tournament(tid, code, fields | {"code": code}, ttl):
                break
        else:
            raise ProtocolError(ErrorCode.INTERNAL, "no free code", key="error.no_free_code")
        await self.store.index_tournament("open", tid, ends_at, ttl)
        if public:
            await self.store.index_tournament("public", tid, ends_at, ttl)
        info = await self.by_id(tid)
        self.certify(info)
        if player is not None:
            await self._enter(info, player)
        return await self.wire(info, player)

    async def _limit(self, player: str, address: str | None, now: int) -> None:
        day = utc_date(now)
        left = DAY_MS - now % DAY_MS
        retry = round(left / 1000)
        mine = await self.store.indexed_tournaments(f"pl:{player.casefold()}", now)
        made = 0
        for tid in mine:
            info = await self.info(tid)
            if info is not None and info.creator == player and not info.ended:
                made += 1
        if made >= MOST_OPEN:
            raise forbidden(
                "error.tournament_open_limit",
                f"you have {MOST_OPEN} tournaments not finished, the most",
                n=MOST_OPEN,
            )
        for what, most in ((f"acct:{player.casefold()}:{day}", self.per_day),) + (
            ((f"addr:{address}:{day}", ADDRESS_PER_DAY),) if address else ()
        ):
            if await self.store.count_tournament(what, left // 1000 + 1) > most:
                await self.store.uncount_tournament(what)
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"{most} tournaments a day, the most: retry after {retry} s",
                    key="error.limit_tournaments",
                    params={"n": most, "seconds": max(1, retry)},
                    retry_after=float(left / 1000),
                )

    async def _enter(self, info: Info, player: str) -> bool:
        ttl = max(1, (info.ends_at - self.clock.now_ms()) // 1000) + KEEP_S
        # Every entrant plays the same deals one after another at their own pace: a
        # second account could give up deal after deal at once and show the first the
        # layouts ahead. One account of a client address (issue 36's) enters each.
        address = REQUESTER.get() if self.one_per_address else ""
        if address:
            holder = await self.store.claim_tournament_address(info.tid, address, player, ttl)
            if holder.casefold() != player.casefold():
                raise forbidden(
                    "error.tournament_address",
                    "another account from your address is in this tournament: "
                    "one account an address",
                )
        joined = await self.store.join_tournament(info.tid, player, self.most, ttl)
        if joined == -1:
            raise forbidden(
                "error.tournament_full",
                f"this tournament is full ({self.most} players at most)",
                n=self.most,
            )
        if joined == -2:
            raise forbidden("error.tournament_left", "you left this tournament")
        if joined == 1:
            index = f"pl:{player.casefold()}"
            await self.store.index_tournament(index, info.tid, info.ends_at, ttl)
            await self.changed(info.tid)
        return joined == 1

    async def join(self, player: str, code: str) -> dict[str, Any]:
        info = await self.by_code(code)
        if self.status(info) is TournamentStatus.FINISHED:
            raise forbidden("error.tournament_over", "this tournament is over")
        await self._enter(info, player)
        return await self.show(player, info)

    async def show(self, viewer: str | None, info: Info) -> dict[str, Any]:
        out: dict[str, Any] = {"tournament": await self.wire(info, viewer)}
        if viewer is not None and out["tournament"]["joined"]:
            gid = _t((await self.store.entrant(info.tid, viewer)).get("current"))
            if gid:
                with contextlib.suppress(ProtocolError):
                    out["state"] = await self.games.resume(viewer, gid)
        return out

    async def leave(self, player: str, tid: str) -> dict[str, Any]:
        info = await self.by_id(tid)
        mine = await self.store.entrant(info.tid, player)
        if not mine or mine.get("left") == b"1":
            raise forbidden("error.not_entrant", "you are not playing in this tournament")
        status = self.status(info)
        if status is TournamentStatus.UPCOMING:
            await self.store.drop_entrant(info.tid, player)
            await self.store.unindex_tournament(f"pl:{player.casefold()}", info.tid)
        elif status is TournamentStatus.RUNNING:
            await self.store.set_entrant(info.tid, player, {"left": 1})
            gid = _t(mine.get("current"))
            if gid:
                try:
                    await self.games.resign(player, gid)
                except ProtocolError as exc:
                    if exc.code not in (ErrorCode.GAME_OVER, ErrorCode.NOT_FOUND):
                        raise
        await self.changed(info.tid)
        return {}

    # -- playing -----------------------------------------------------------------------

    async def play(self, player: str, tid: str) -> dict[str, Any]:
        """``tournament_play``: the entrant's deal in play, else the next one."""
        info = await self.by_id(tid)
        mine = await self.store.entrant(info.tid, player)
        if not mine:
            raise forbidden("error.not_entrant", "you are not playing in this tournament")
        if mine.get("left") == b"1":
            raise forbidden("error.tournament_left", "you left this tournament")
        now = self.clock.now_ms()
        if now < info.starts_at:
            seconds = max(1, round((info.starts_at - now) / 1000))
            raise forbidden(
                "error.tournament_not_started",
                f"the tournament starts in {seconds} s",
                seconds=seconds,
            )
        current = _t(mine.get("current"))
        if not current and now >= info.ends_at:
            raise forbidden("error.tournament_over", "this tournament is over")
        if not current:
            deal = int(mine.get("deal") or 0) + 1
            if deal <= info.deals and await self.store.deal(info.tid, deal) is None:
                raise ProtocolError(
                    ErrorCode.UNAVAILABLE,
                    "the tournament's next deal is still being certified",
                    key="error.tournament_preparing",
                    retry_after=2.0,
                )
        prefix = f"{info.tid}-{hashlib.sha256(player.casefold().encode()).hexdigest()[:10]}-"
        gid, deal = await self.store.next_deal(info.tid, player, prefix, info.deals)
        if deal < 0:
            raise forbidden(
                "error.tournament_deals_done", "you have played every deal of this tournament"
            )
        raw = await self.store.deal(info.tid, deal)
        assert raw is not None
        chosen = unpack(raw)
        from .games import find_game

        rec = await self.games.create(
            player,
            find_game(info.game),
            int(chosen["seed"]),
            Mode.TOURNAMENT,
            gid=gid,
            commitment=info.commitment,
        )
        if rec.status != GameStatus.PLAYING and now >= info.ends_at:
            # a deal that ended after the tournament did is not scored, so it stays the
            # entrant's current one: over, rather than that finished deal again
            raise forbidden("error.tournament_over", "this tournament is over")
        if rec.seq == 0:
            await self.store.set_game_fields(gid, {"tour": info.tid, "deal": deal})
        if not current:
            await self.changed(info.tid)  # playing now
        return {"tournament_id": info.tid, "deal": deal, "state": self.games.views.wire(rec)}

    async def finished(self, rec: Record) -> None:
        """A listener of finished games (``Changes``): a tournament deal over is scored
        once, if it ended before the tournament did."""
        if rec.mode is not Mode.TOURNAMENT:
            return
        raw = await self.store.game(rec.gid)
        tid = _t(raw.get("tour")) if raw else ""
        info = await self.info(tid) if tid else None
        if info is None or rec.finished > info.ends_at:
            return
        deal = int(raw.get("deal") or 0) if raw else 0
        chosen = await self.store.deal(info.tid, deal)
        par = unpack(chosen).get("par") if chosen else None
        won = rec.status == GameStatus.WON
        within = won and par is not None and rec.moves <= int(par)
        points = await self.store.score_deal(
            info.tid, rec.player, rec.gid, won, within, rec.foundation
        )
        if points >= 0:
            await self.changed(info.tid)

    async def changed(self, tid: str) -> None:
        await self.store.publish(self.store.tournament_channel(tid), tid.encode())

    # -- the lobby -------------------------------------------------------------------

    async def lobby(self, player: str) -> dict[str, Any]:
        now = self.clock.now_ms()
        public = await self.store.indexed_tournaments("public", now)
        mine = await self.store.indexed_tournaments(f"pl:{player.casefold()}", now - 7 * DAY_MS)
        seen: set[str] = set()
        rows = []
        for tid in public + mine:
            if tid in seen:
                continue
            seen.add(tid)
            info = await self.info(tid)
            if info is None:
                continue
            rows.append(await self.row(info, player))
        order = {"running": 0, "upcoming": 1, "finished": 2}
        rows.sort(
            key=lambda r: (
                order[r["status"]],
                -r["ends_at"] if r["status"] == "finished" else r["starts_at"],
            )
        )
        return {"tournaments": rows}

    async def row(self, info: Info, player: str) -> dict[str, Any]:
        board = await self.ranked(info.tid)
        out = await self.head(info, player, len(board))
        where = place_of(board, player)
        finished = self.status(info) is TournamentStatus.FINISHED
        leader = board[0][0] if board and board[0][1] > 0 else None
        out |= {
            "joined": where is not None,
            "invited": await self.store.invited_to_tournament(info.tid, player),
            "place": where if finished else None,
            "leader": leader,
        }
        return out

    async def invite(self, player: str, friend: str, code: str) -> dict[str, Any]:
        info = await self.by_code(code)
        if friend.casefold() == player.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "you cannot invite yourself", key="error.invite_self"
            )
        if self.status(info) is TournamentStatus.FINISHED:
            raise forbidden("error.tournament_over", "this tournament is over")
        await self.inbox._count(player)
        item = self.inbox.item(InboxKind.INVITE, player, info.game)
        item["tournament"] = {
            "code": info.code,
            "url": self.links.tournament(info.code),
            "place": None,
            "entrants": None,
        }
        ttl = max(1, (info.ends_at - self.clock.now_ms()) // 1000) + KEEP_S
        await self.store.invite_to_tournament(info.tid, friend, ttl)
        await self.store.index_tournament(f"pl:{friend.casefold()}", info.tid, info.ends_at, ttl)
        await self.inbox.put(friend, item, event=True)
        return {"invited": friend}

    # -- in the background: certify, end, schedule ------------------------------------

    def certify(self, info: Info) -> None:
        """Certify the deals of ``info`` here, unless under way (here or elsewhere)."""
        task = self._certifying.get(info.tid)
        if task is None or task.done():
            self._certifying[info.tid] = asyncio.get_running_loop().create_task(self._certify(info))

    async def _certify(self, info: Info) -> None:
        try:
            have = await self.store.deals(info.tid)
            secret = info.seed.to_bytes(8, "big")
            for i in range(1, info.deals + 1):
                if i in have:
                    continue
                if not await self.store.lease_tournament(info.tid, self.owner, LEASE_MS):
                    return  # another instance is at it
                choice = await self.pool.run(
                    Lane.AHEAD, choose, info.game, secret, label(info.tid, i), self.budget
                )
                packed = pack(
                    {"seed": choice.seed, "par": choice.par, "certified": choice.certified}
                )
                await self.store.put_deal(info.tid, i, packed, KEEP_S + 7 * 86_400)
                await self.store.set_tournament(info.tid, {"ready": i})
                await self.changed(info.tid)  # a client waiting for deal i asks again
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("certifying the deals of tournament %s", info.tid)

    async def tick(self) -> None:
        """Once a second or so, on every instance: certify what is not certified
        (an instance that died left it), end the tournaments past their end (once,
        whichever instance gets there first), and schedule the public ones."""
        now = self.clock.now_ms()
        for tid in await self.store.indexed_tournaments("open", 0):
            info = await self.info(tid)
            if info is None:
                await self.store.unindex_tournament("open", tid)
                continue
            if now >= info.ends_at:
                await self.end(info)
            elif int((await self.store.tournament(tid)).get("ready") or 0) < info.deals:
                self.certify(info)
        for slug, at_ms, minutes in self.schedule:
            day = now - now % DAY_MS
            for start in (day + at_ms, day + DAY_MS + at_ms):
                if start <= now:
                    continue
                key = f"sched:{slug}:{start}"
                if await self.store.count_tournament(key, 3 * 86_400) == 1:
                    await self.create(None, slug, start, minutes, public=True)
                break  # the next one only: made a day ahead at most

    async def end(self, info: Info) -> None:
        if not await self.store.tournament_flag(info.tid, "ended", KEEP_S):
            await self.store.unindex_tournament("open", info.tid)
            return
        board = await self.ranked(info.tid)
        rows = await self.store.entrants(info.tid, [n for n, _ in board])
        # every game replayable first, then the seeds shown ("ended"): whoever reads
        # the seeds can open the replays
        for (name, _), row in zip(board, rows, strict=True):
            prefix = f"{info.tid}-{hashlib.sha256(name.casefold().encode()).hexdigest()[:10]}-"
            for deal in range(1, int(row.get("deal") or 0) + 1):
                await self.games.race_over([f"{prefix}{deal}"])
        await self.store.set_tournament(info.tid, {"ended": 1})
        for place, ((name, _), row) in enumerate(zip(board, rows, strict=True), 1):
            if int(row.get("deal") or 0) == 0:
                continue
            item = self.inbox.item(InboxKind.TOURNAMENT_RESULT, info.creator or name, info.game)
            item["tournament"] = {
                "code": info.code,
                "url": self.links.tournament(info.code),
                "place": place,
                "entrants": len(board),
            }
            await self.inbox.put(name, item, event=True)
            await self.store.count_tournament_result(name, place)
        await self.store.unindex_tournament("open", info.tid)
        await self.changed(info.tid)

    async def stats(self, player: str) -> dict[str, Any]:
        return await self.store.tournament_results(player)

    async def run(self, interval: float = 0.5) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except OUTAGE as exc:  # a storage outage: the next tick tries again
                log.warning("tournaments' tick failed: %r", exc)
            except Exception:
                log.warning("tournaments' tick failed", exc_info=True)
            await asyncio.sleep(interval)

    async def close(self) -> None:
        for task in self._certifying.values():
            task.cancel()
        self._certifying.clear()


__all__ = ["SHIFT", "Info", "Tournaments"]
