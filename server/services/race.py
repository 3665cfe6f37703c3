"""Races: friends play the same deal at the same time and see each other's progress.

A race lives in Redis (``race:{rid}`` and friends, see ``store/keys.py``) and expires
after a day. Every change is published on the race's channel as the full ``race``
event (plus, when the race starts, each member's game id), so every server instance
can pass it on to the members connected to it; this service never touches a socket.

Life of a race: ``lobby`` (join with the code) → ``race_start`` by its creator →
``countdown`` (``starts_at``, ms since the epoch) → ``running`` (each member gets a
game on the race's deal) → ``finished`` once every member's game is over. Places go
to winners in the order they win. A finished race keeps its result; ``race_rematch``
makes one new race (lobby, fresh deal, same game and members) that the old race's
event then names in ``rematch``.

The countdown runs on the instance that started it. If that instance dies during the
few seconds of countdown, or while dealing, the race stays in ``countdown`` until a
member comes back with ``race_join`` (on any instance) later than a second after
``starts_at``: that instance deals it then. One instance at a time deals a race: it
holds the race's dealer lease (``DEAL_LEASE_MS``); a lease left by a dead dealer runs
out and the next comer takes over. Dealing is idempotent (each member's game id is
derived from the race id and the member), so a deal taken over halfway finishes the
same games rather than making second ones.

Presence: every instance notes, each beat (``presence_interval``), which members of
the races it knows of (from their news) are connected to it (``race:{rid}:seen``,
member → ms). A member nobody has seen for more than ``away_after`` seconds is shown
``away``, with ``away_ms``. One instance a beat checks each race (it holds the race's
watch lease): it publishes the race when somebody went away or came back, and gives
up the game of a member away for more than ``absent_limit`` seconds (``out:
timed_out``: it counts as resigned), so that a race ends although a member left
without resigning. The creator may also end a running race (``race_end``: every game
still in play is given up, ``out: ended``) or drop a member who is away
(``race_drop``: out of the lobby, or their game given up, ``out: dropped``).
docs/races.md says this to players.

A finished race on a fresh deal moves its members' ratings at the game (``ratings.py``:
once, whichever instance sees it end; each member's client address is noted when they
join, since members of one address do not move each other's ratings), and its rows
carry them. What it costs: one HSET a beat per race with
members connected here, one SET NX a beat per race not finished, and one read of the
race per beat on the instance holding its lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError, RaceStatus

from ..store import Store
from ..workers import REQUESTER
from .clock import Clock
from .games import Games
from .ids import new_id, race_game_id
from .race_news import RaceNews
from .ratings import Ratings, rated
from .records import DAY_OVER, SUMMARY_FIELDS, Record, find_game

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: ms after ``starts_at`` when a race still in countdown is taken over (see ``join``)
STALLED_MS = 1000
#: how long an instance may take to deal a race before another may take over
DEAL_LEASE_MS = 10_000
#: why the server gave up a member's game (the race row's ``out``; DAY_OVER: a race on
#: a daily deal still running when its day closed)
TIMED_OUT, DROPPED, ENDED = "timed_out", "dropped", "ended"
_DAY_CLOSED = "this race is on a daily deal whose day is over (UTC): it can no longer start"


class Races:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        games: Games,
        *,
        countdown: float = 3.0,
        away_after: float = 5.0,
        absent_limit: float = 120.0,
        members: int = 10,
        lobbies: int = 5,
    ):
        self.store = store
        self.clock = clock
        self.games = games
        self.countdown = countdown
        #: ms without being seen connected before a member is shown away
        self.away_after_ms = int(away_after * 1000)
        #: ms away before a member's game in a running race is given up for them
        self.absent_limit_ms = int(absent_limit * 1000)
        #: players a race holds at most (``Settings.race_members``)
        self.members = members
        #: races a player made kept in an empty lobby (``Settings.race_lobbies``)
        self.lobbies = lobbies
        self._tasks: set[asyncio.Task[None]] = set()
        #: races known here (from their news) that are not over: id → members
        self._watched: dict[str, list[str]] = {}
        #: each watched race's status and who its last news showed away
        self._shown: dict[str, tuple[str, frozenset[str]]] = {}
        #: how many spectators watch a race now (``Watch.count``, wired in
        #: ``Services.build``)
        self.watchers_of: Callable[[str], Awaitable[int]] | None = None
        #: a race's full link (``Links.race``)
        self.url: Callable[[str], str] = lambda code: f"#race/{code}"
        #: told of a rematch made: (who asked, the new race, the members to tell)
        self.on_rematch: Callable[[str, dict[str, Any], list[str]], Awaitable[None]] | None = None
        #: the ratings a finished race moves (issue 51; ``Services.build``), None: none
        self.ratings: Ratings | None = None

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- ops ----------------------------------------------------------------------------

    async def create(
        self,
        player: str,
        slug: str,
        seed: int | None,
        *,
        daily: bool = False,
        rid: str | None = None,
        members: list[str] | None = None,
    ) -> dict[str, Any]:
        find_game(slug)
        rid = rid or new_id()
        fields: dict[str, str | int] = {}
        if seed is not None:
            fields["chosen"] = 1  # every member is told, and the result says so
        elif not daily:
            fields["rates"] = 1  # a fresh deal: the race moves ratings (ratings.py)
        if daily:
            # Today's daily deal: its games carry the date and commitment, so the seed
            # stays hidden until the day is over.
            date = self.games.dailies.today()
            await self._no_daily_yet(player, date, slug)
            seed, fields["commitment"] = await self.games.dailies.deal(date, slug)
            fields["date"] = date
        fields |= {
            "game": slug,
            "seed": secrets.randbits(64) if seed is None else seed,
            "creator": player,
            "status": RaceStatus.LOBBY,
            "created": self.clock.now_ms(),
            "placed": 0,
        }
        for _ in range(16):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if await self.store.create_race(rid, code, {**fields, "code": code}):
                break
        else:
            raise ProtocolError(
                ErrorCode.INTERNAL, "no free race code; try again", key="error.no_free_code"
            )
        for member in [player, *(m for m in members or () if m != player)]:
            await self.store.race_member(rid, member, add=True)
        await self._note_address(rid, player)
        await self.store.race_saw(rid, [player], self.clock.now_ms())
        await self._keep_lobbies(player, rid, int(fields["created"]))
        return await self.publish(rid)

    async def _keep_lobbies(self, player: str, rid: str, created: int) -> None:
        """Of the races ``player`` made, only the newest ``lobbies`` are kept
        when still in their lobby with nobody else in them; older ones are deleted
        (others are left to expire with the day)."""
        key = self.store.keys.player_races(player)
        old = await self.store.keep_newest(key, rid, created, self.lobbies)
        for other in old:
            if await self.store.drop_lobby_race(other):
                self._watched.pop(other, None)
                self._shown.pop(other, None)
        if old:
            await self.store.forget(key, old)

    async def rematch(self, player: str, rid: str) -> dict[str, Any]:
        """A new race on a fresh deal of the same game with the same members, made by
        the first member who asks once ``rid`` is finished; later askers get it too."""
        info, members, _, _ = await self._race(rid)
        if player not in members:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "you are not in this race", key="error.not_in_race"
            )
        if (await self.build(rid))["status"] != RaceStatus.FINISHED:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "a rematch is offered once the race is over",
                key="error.rematch_after",
            )
        new = new_id()
        other = await self.store.race_claim_field(rid, "rematch", new)
        if other != new:  # someone was first
            for _ in range(50):  # the first asker may still be creating it
                if (await self.store.race(other))[0]:
                    return await self.build(other)
                await asyncio.sleep(0.02)
            raise ProtocolError(
                ErrorCode.INTERNAL,
                "the rematch is not ready; try again",
                key="error.rematch_not_ready",
            )
        race = await self.create(player, info["game"].decode(), None, rid=new, members=members)
        for member in members:  # where each member joined from, as in the race before
            if member != player and info.get(f"addr:{member}"):
                await self.store.race_set_field(new, f"addr:{member}", info[f"addr:{member}"])
        await self.store.race_set_field(rid, "rematch_code", race["code"])
        await self.publish(rid)
        if self.on_rematch is not None:
            await self.on_rematch(player, race, [m for m in members if m != player])
        return race

    async def _no_daily_yet(self, player: str, date: str, slug: str) -> None:
        """A race on the daily deal is each member's ranked attempt of it: refused to
        a player who has one already (in play or over), as a second look at the
        deal before the day is over."""
        if slug in await self.store.player_dailies(player, date, [slug]):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"you have played today's daily of {slug} already: a race on the daily "
                "deal is your one ranked attempt of it",
                key="error.daily_played",
                params={"game": slug},
            )

    def _day_over(self, info: Mapping[str, bytes]) -> bool:
        """Whether the race is on the daily deal of a day that is over."""
        date = _text(info.get("date"))
        return bool(date) and self.games.dailies.revealed(date)

    async def join(self, player: str, code: str) -> dict[str, Any]:
        rid = await self.store.race_by_code(code)
        if rid is None:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no race has the code {code!r}",
                key="error.no_race",
                params={"code": code},
            )
        info, members, _, _ = await self.store.race(rid)
        if player not in members and info.get("date"):
            if self._day_over(info):
                raise ProtocolError(ErrorCode.FORBIDDEN, _DAY_CLOSED, key="error.day_closed")
            await self._no_daily_yet(player, _text(info.get("date")), _text(info.get("game")))
        if player in members:
            await self.store.race_saw(rid, [player], self.clock.now_ms())
            if not info.get(f"addr:{player}"):
                await self._note_address(rid, player)
            starts_at = int(info.get("starts_at") or 0)
            overdue = self.clock.now_ms() > starts_at + STALLED_MS
            if _text(info.get("status")) == RaceStatus.COUNTDOWN and overdue:
                await self._run(rid, 0)  # the instance that counted down is gone: deal here
            return await self.build(rid)
        joined = await self.store.race_join(rid, player, self.members)
        if joined == -1:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "this race has already started", key="error.race_started"
            )
        if joined == -2:
            full = f"this race is full: a race holds at most {self.members} players"
            raise ProtocolError(
                ErrorCode.FORBIDDEN, full, key="error.race_full", params={"n": self.members}
            )
        await self.store.race_saw(rid, [player], self.clock.now_ms())
        await self._note_address(rid, player)
        return await self.publish(rid)

    async def _note_address(self, rid: str, player: str) -> None:
        """Record the client address ``player`` joins the race from (the request's,
        issue 36's ``client_address``): members of one address do not move each
        other's ratings (``ratings.py``)."""
        address = REQUESTER.get()
        if address:
            await self.store.race_set_field(rid, f"addr:{player}", address)

    async def start(self, player: str, rid: str) -> dict[str, Any]:
        info, _, _, _ = await self._race(rid)
        if info.get("creator", b"").decode() != player:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "only the race's creator starts it", key="error.creator_only"
            )
        if self._day_over(info):
            raise ProtocolError(ErrorCode.FORBIDDEN, _DAY_CLOSED, key="error.day_closed")
        starts_at = self.clock.now_ms() + int(self.countdown * 1000)
        started = {"starts_at": starts_at}
        if not await self.store.race_status(rid, RaceStatus.LOBBY, RaceStatus.COUNTDOWN, started):
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "this race has already started", key="error.race_started"
            )
        task = asyncio.create_task(self._run(rid, self.countdown), name=f"race-{rid}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return await self.publish(rid)

    async def my_game(self, player: str, rid: str) -> dict[str, Any] | None:
        """The state of ``player``'s game in the race, once it runs (for a member who
        comes back, on any instance, with ``race_join``); None before."""
        _, members, games, _ = await self.store.race(rid)
        gid = games.get(player)
        if player not in members or not gid:
            return None
        return await self.games.resume(player, gid)

    async def leave(self, player: str, rid: str) -> dict[str, Any]:
        await self._race(rid)
        if not await self.store.race_member(rid, player, add=False):
            raise ProtocolError(
                ErrorCode.NOT_FOUND, "you are not in this race", key="error.not_in_race"
            )
        await self.publish(rid)
        return {}

    async def end(self, player: str, rid: str) -> dict[str, Any]:
        """The creator ends a running race: every game still in play is given up
        (``out: ended``, as resigned), so the race is finished."""
        info, _, _, _ = await self._race(rid)
        _creator_only(info, player, "ends it")
        race = await self.build(rid)
        if race["status"] == RaceStatus.FINISHED:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "the race is over already", key="error.race_over"
            )
        if race["status"] != RaceStatus.RUNNING:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "only a race under way can be ended: leave the lobby instead",
                key="error.end_not_running",
            )
        for p in race["players"]:
            if p["status"] == GameStatus.PLAYING:
                await self._give_up(rid, p["player"], ENDED)
        return await self.publish(rid)

    async def drop(self, player: str, rid: str, member: str) -> dict[str, Any]:
        """The creator drops a member who is away: out of a race not yet dealt, or
        their game given up (``out: dropped``, as resigned) in a running one."""
        info, members, games, _ = await self._race(rid)
        _creator_only(info, player, "drops members")
        who = next((m for m in members if m.casefold() == member.casefold()), None)
        if who is None:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"{member} is not in this race",
                key="error.not_member",
                params={"name": member},
            )
        if who == player:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "you cannot drop yourself: leave the race",
                key="error.drop_self",
            )
        race = await self.build(rid)
        row = next(p for p in race["players"] if p["player"] == who)
        if race["status"] == RaceStatus.FINISHED:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "the race is over already", key="error.race_over"
            )
        if not row["away"]:
            seconds = f"{self.away_after_ms / 1000:g}"
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"{who} is here: only a member away for over {seconds} s can be dropped",
                key="error.member_here",
                params={"name": who, "seconds": round(self.away_after_ms / 1000)},
            )
        if who not in games:  # not dealt yet: out of the race
            await self.store.race_member(rid, who, add=False)
        elif row["status"] != GameStatus.PLAYING:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"{who}'s game is over already",
                key="error.member_done",
                params={"name": who},
            )
        else:
            await self._give_up(rid, who, DROPPED)
        return await self.publish(rid)

    async def _give_up(self, rid: str, member: str, why: str) -> bool:
        """Take ``member`` out of the running race, saying ``why`` in their row: their
        game is resigned for them, except a ranked daily attempt, which nobody else
        may spend: it leaves the race and plays on as their daily. False if the game
        was over already."""
        _, _, games, _ = await self.store.race(rid)
        gid = games.get(member)
        if not gid:
            return False
        await self.store.race_set_field(rid, f"out:{member}", why)  # before the resign's news
        try:
            if why != DAY_OVER and await self.games.leave_race(member, gid):
                log.info("race %s: %s's daily attempt leaves the race (%s)", rid, member, why)
                return True
            await self.games.resign(member, gid, out=why)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.GAME_OVER:
                raise
            await self.store.race_set_field(rid, f"out:{member}", None)
            return False
        log.info("race %s: %s's game given up (%s)", rid, member, why)
        return True

    # -- presence -----------------------------------------------------------------------

    def noticed(self, race: Mapping[str, Any]) -> None:
        """A race's news reached this instance: watch it until it is finished."""
        rid = str(race["race_id"])
        if race.get("status") == RaceStatus.FINISHED:
            self._watched.pop(rid, None)
            self._shown.pop(rid, None)
            return
        players = list(race.get("players") or ())
        self._watched[rid] = [str(p["player"]) for p in players]
        away = frozenset(str(p["player"]) for p in players if p.get("away"))
        self._shown[rid] = (str(race.get("status")), away)

    async def keep_presence(self, online: Callable[[str], bool], *, interval: float) -> None:
        """Every ``interval`` seconds until cancelled: :meth:`beat`. ``online`` tells
        whether a player is connected to this instance."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.beat(online, int(interval * 1000))
            except asyncio.CancelledError:
                raise
            except Exception:  # a storage outage: the next beat tries again
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from None
                log.exception("race presence beat failed")

    async def beat(self, online: Callable[[str], bool], lease_ms: int) -> None:
        """Note the members of the watched races connected here, then check each race
        whose watch lease this instance gets (one instance a race a beat)."""
        now = self.clock.now_ms()
        for rid, members in list(self._watched.items()):
            here = [m for m in members if online(m)]
            if here:
                await self.store.race_saw(rid, here, now)
        for rid in list(self._watched):
            if await self.store.claim_race_watch(rid, max(1, lease_ms * 9 // 10)):
                await self.check(rid)

    async def check(self, rid: str) -> None:
        """Give up the games of members away past the limit, and publish the race when
        its presence (or status) changed since its last news."""
        try:
            race = await self.build(rid)
        except ProtocolError:  # expired
            self._watched.pop(rid, None)
            self._shown.pop(rid, None)
            return
        if race["status"] == RaceStatus.RUNNING:
            day_over = bool(race["date"]) and self.games.dailies.revealed(race["date"])
            for p in race["players"]:
                late = p["away_ms"] > self.absent_limit_ms
                if p["status"] == GameStatus.PLAYING and (day_over or late):
                    await self._give_up(rid, p["player"], DAY_OVER if day_over else TIMED_OUT)
        away = frozenset(p["player"] for p in race["players"] if p["away"])
        if self._shown.get(rid) != (str(race["status"]), away):
            try:
                # noted as shown here too: under sharded pub/sub this instance may no
                # longer follow the race's channel (its members here have left)
                self.noticed(await self.publish(rid))
            except ProtocolError as exc:
                if exc.code is not ErrorCode.NOT_FOUND:
                    raise
                # gone since it was read (its creator's newer lobbies evicted it, or it
                # expired): nothing to tell, and the beat goes on to the other races
                self._watched.pop(rid, None)
                self._shown.pop(rid, None)

    # -- running ------------------------------------------------------------------------

    async def _run(self, rid: str, delay: float) -> None:
        """Deal every member's game after ``delay``, holding the dealer lease."""
        try:
            await asyncio.sleep(delay)
            if not await self.store.claim_race_dealer(rid, DEAL_LEASE_MS):
                return
            info, members, _, _ = await self.store.race(rid)
            if _text(info.get("status")) != RaceStatus.COUNTDOWN:
                return  # dealt already, by an instance whose lease has run out since
            if self._day_over(info):  # counted down across midnight: no deal after it
                await self.store.race_status(rid, RaceStatus.COUNTDOWN, RaceStatus.LOBBY, {})
                await self.publish(rid)
                return
            game = find_game(info["game"].decode())
            seed = int(info["seed"])
            date = _text(info.get("date"))
            games = {}
            for member in members:
                gid = race_game_id(rid, member)
                # On the daily deal, the race game is the member's one ranked attempt:
                # a member who made one since joining gets no second look at the deal.
                ranked = bool(date)
                if date and await self.store.claim_daily(member, date, game.slug, gid) != gid:
                    await self.store.race_member(rid, member, add=False)
                    log.info("race %s: %s played the daily meanwhile: out", rid, member)
                    continue
                rec = await self.games.create(
                    member,
                    game,
                    seed,
                    Mode.RACE,
                    gid=gid,
                    race=rid,
                    ranked=ranked,
                    date=date,
                    commitment=_text(info.get("commitment")),
                )
                games[member] = rec.gid
            await self.store.race_set_games(rid, games)
            await self.store.race_status(rid, RaceStatus.COUNTDOWN, RaceStatus.RUNNING, {})
            await self.publish(rid, games=games)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("race %s could not start", rid)

    async def game_changed(self, rec: Record) -> None:
        """A race game was written (a listener of ``Changes``): a winner's place, and
        the race's news."""
        if rec.status == GameStatus.WON:
            await self.store.race_place(rec.race, rec.player)
        await self.publish(rec.race)

    # -- the race object ----------------------------------------------------------------

    async def _race(
        self, rid: str
    ) -> tuple[dict[str, bytes], list[str], dict[str, str], dict[str, int]]:
        info, members, games, places = await self.store.race(rid)
        if not info:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no race {rid!r}", key="error.no_such_race")
        return info, members, games, places

    async def build(self, rid: str) -> dict[str, Any]:
        """The ``race`` event's fields (docs/protocol.md, "Races")."""
        info, members, games, places = await self._race(rid)
        seen = await self.store.race_seen(rid)
        status = RaceStatus(_text(info.get("status")) or RaceStatus.LOBBY)
        gids = [games[m] for m in members if m in games]
        rows = await self.store.games(gids, [*SUMMARY_FIELDS, "player"]) if gids else []
        summaries = {
            g: self.games.views.summary(g, r[:-1]) for g, r in zip(gids, rows, strict=True)
        }
        # a member who deleted their account: their game's player is blanked (issue 49)
        left = {g for g, r in zip(gids, rows, strict=True) if r[-1] == b""}
        total = find_game(info["game"].decode()).total
        now = self.clock.now_ms()
        created = int(info.get("created") or now)
        players: list[dict[str, Any]] = []
        for member in members:
            # presence: a member nobody has seen yet counts from the race's creation
            away_ms = max(0, now - seen.get(member, created))
            away = status != RaceStatus.FINISHED and away_ms > self.away_after_ms
            s = summaries.get(games.get(member, ""))
            out = _text(info.get(f"out:{member}")) or None
            if out is None and s is not None and s["out"]:
                out = s["out"]  # resigned, or given up by a server that wrote it there
            presence = {"away": away, "away_ms": away_ms if away else 0, "out": out}
            if games.get(member) in left:  # their name is forgotten too
                presence["left"] = True
            if s is None:
                players.append(
                    {
                        "player": member,
                        "status": "ready",
                        "foundation": 0,
                        "total": total,
                        "moves": 0,
                        "time_ms": 0,
                        "place": None,
                    }
                    | presence
                )
                continue
            # A daily attempt the server took out of the race plays on outside it.
            status_ = GameStatus.LOST if out and s["status"] == GameStatus.PLAYING else s["status"]
            players.append(
                {
                    "player": member,
                    "status": status_,
                    "foundation": s["foundation"],
                    "total": s["total"],
                    "moves": s["moves"],
                    "time_ms": s["time_ms"],
                    "place": places.get(member),
                }
                | presence
            )
        over = all(p["status"] != GameStatus.PLAYING for p in players)
        if status == RaceStatus.RUNNING and players and over:
            if await self.store.race_status(rid, RaceStatus.RUNNING, RaceStatus.FINISHED, {}):
                await self.games.race_over(gids)  # the deal may be shown to all now
                await self.games.changes.race_finished(rid)
            status = RaceStatus.FINISHED
        players.sort(key=lambda p: (p["place"] is None, p["place"] or 0, -p["foundation"]))
        await self._rate(rid, info, status, players, games, places)
        for p in players:
            if p.get("left"):
                p["player"] = ""
        starts_at = info.get("starts_at")
        rematch = None
        if info.get("rematch") and info.get("rematch_code"):
            rematch = {"race_id": info["rematch"].decode(), "code": info["rematch_code"].decode()}
        return {
            "race_id": rid,
            "code": info.get("code", b"").decode(),
            "game": info["game"].decode(),
            "status": status,
            "starts_at": int(starts_at) if starts_at else None,
            "players": players,
            "creator": info.get("creator", b"").decode(),
            "rematch": rematch,
            "date": _text(info.get("date")) or None,
            "seed_chosen": info.get("chosen") == b"1",
            "away_after_ms": self.away_after_ms,
            "absent_limit_ms": self.absent_limit_ms,
            "watchers": await self.watchers_of(rid) if self.watchers_of else 0,
            "url": self.url(info.get("code", b"").decode()),
        }

    async def _rate(
        self,
        rid: str,
        info: Mapping[str, bytes],
        status: RaceStatus,
        players: list[dict[str, Any]],
        games: Mapping[str, str],
        places: Mapping[str, int],
    ) -> None:
        """Each row's ``rating`` and ``rating_change``: null until the race is over,
        and in a race on a deal that could be seen in advance; once over, the race is
        rated (once, whichever instance gets here first: ``Ratings.rate``) and its
        outcome kept in the race's hash. A member dealt a game who left the running race
        (``race_leave``) is rated too, as if last (unless they had won a place)."""
        for p in players:
            p["rating"] = p["rating_change"] = None
        if status != RaceStatus.FINISHED or self.ratings is None or not rated(info):
            return
        text = _text(info.get("rated"))
        if text:
            outcome = json.loads(text)
        else:
            here = {p["player"] for p in players}
            left = [
                {"player": m, "place": places.get(m), "foundation": 0, "out": "left"}
                for m in games
                if m not in here
            ]
            rows = [*players, *left]
            address = {r["player"]: _text(info.get(f"addr:{r['player']}")) for r in rows}
            outcome = await self.ratings.rate(info["game"].decode(), rid, rows, address)
            await self.store.race_set_field(rid, "rated", json.dumps(outcome, sort_keys=True))
        for p in players:
            mine = outcome.get(p["player"])
            if mine is not None:
                p["rating"], p["rating_change"] = mine["rating"], mine["change"]

    async def publish(self, rid: str, *, games: dict[str, str] | None = None) -> dict[str, Any]:
        """Build the race and publish it to every instance; returns it."""
        race = await self.build(rid)
        news = RaceNews(race, games or {})
        await self.store.spublish(self.store.keys.race_channel(rid), news.to_bytes())
        return race


def _creator_only(info: Mapping[str, bytes], player: str, what: str) -> None:
    if info.get("creator", b"").decode() != player:
        raise ProtocolError(
            ErrorCode.FORBIDDEN, f"only the race's creator {what}", key="error.creator_only"
        )


def _text(value: bytes | None) -> str:
    return value.decode() if value else ""
