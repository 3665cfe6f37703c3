"""What each op does: the request handlers, in a dispatch table keyed by op, and the
one place where a handler's outcome becomes a reply.

Public ops (``protocol.PUBLIC_OPS``) get the connection; every other op needs a
signed-in player, checked once in :meth:`Routes.dispatch`, and its handler gets the
player's name. Nothing a handler raises escapes: protocol errors get their code,
a storage outage is logged and answered ``unavailable`` with a ``retry_after``
(:data:`server.store.errors.OUTAGE`), anything unexpected ``internal``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.exceptions

import protocol as P
from protocol import Activity, ErrorCode, Op, ProtocolError

from ..services import OUTAGE, Services, catalogue, daily_overview
from ..services.accounts import digest
from ..services.games import find_game
from ..services.ids import race_of_game_id
from ..services.limits import Kind
from ..services.records import Change
from ..settings import Settings
from ..workers import REQUESTER, WorkerDied
from .metrics import Metrics
from .relay import Relay
from .session import ANSWERING, Conn, Hub, Reply
from .tournament_routes import TournamentRoutes

log = logging.getLogger("pasyans.server")

Result = dict[str, Any]
#: What a handler answers: the reply's fields, or (the hot path: ``move``) the reply's
#: ``state`` already encoded.
Answer = Result | bytes

#: what an op spends of its client address's limits (``server.services.limits``),
#: before it runs: the kinds it counts, then the kinds it only must not have used up
SPENDS: dict[Op, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {
    Op.REGISTER: ((Kind.REGISTER,), ()),
    Op.RACE_JOIN: ((Kind.RACE_JOIN,), (Kind.RACE_JOIN_FAILED,)),
    # a race's code opens it to a spectator as to a member: the same limits
    Op.RACE_WATCH: ((Kind.RACE_JOIN,), (Kind.RACE_JOIN_FAILED,)),
    # issue 49: a device signed in by a code counts as a wrong code before it runs
    # (given back when it signs in), so that guesses racing on many connections
    # never pass the limit of wrong codes
    Op.LINK: ((Kind.LINK, Kind.LINK_FAILED), ()),
}
#: ops that spend their address's limits even when refused before they run (malformed,
#: or past the connection's bucket): every ``register`` attempt counts
SPENT_WHEN_REFUSED = frozenset({Op.REGISTER, Op.LINK})
#: what an op refused with a code spends afterwards: a join by a code that names no
#: race is someone guessing codes
FAILS: dict[tuple[Op, ErrorCode], Kind] = {
    (Op.RACE_JOIN, ErrorCode.NOT_FOUND): Kind.RACE_JOIN_FAILED,
    (Op.RACE_WATCH, ErrorCode.NOT_FOUND): Kind.RACE_JOIN_FAILED,
}


#: what a player is doing after a successful op, as friends see it (``Presence``);
#: the ops not named change nothing (a move goes on playing); those of :data:`LOOKS`
#: say home but end no race or watching (a racer looks at friends from the lobby)
ACTIVITY: dict[Op, Activity] = {
    Op.REGISTER: Activity.HOME,
    Op.AUTH: Activity.HOME,
    Op.LINK: Activity.HOME,
    Op.START: Activity.PLAYING,
    Op.RESUME: Activity.PLAYING,
    Op.CHALLENGE_ACCEPT: Activity.PLAYING,
    Op.RACE_CREATE: Activity.RACING,
    Op.RACE_JOIN: Activity.RACING,
    Op.RACE_REMATCH: Activity.RACING,
    Op.RACE_WATCH: Activity.WATCHING,
    Op.RACE_LEAVE: Activity.HOME,
    Op.RACE_UNWATCH: Activity.HOME,
    Op.FRIENDS: Activity.HOME,
    Op.INBOX: Activity.HOME,
    Op.CALENDAR: Activity.HOME,
    Op.MY_GAMES: Activity.HOME,
    Op.CHALLENGES: Activity.HOME,
}


LOOKS = frozenset({Op.FRIENDS, Op.INBOX, Op.CALENDAR, Op.MY_GAMES, Op.CHALLENGES})


def ok_packed(re: int, state: bytes) -> bytes:
    """``P.encode(P.ok(re, state=...))`` for a state already encoded."""
    return P.encode_map(P.ok(re), P.Encoded("state", state))


class Routes(TournamentRoutes):
    def __init__(
        self,
        services: Services,
        hub: Hub,
        settings: Settings,
        metrics: Metrics,
        *,
        relay: Relay | None = None,
    ):
        self.sv = services
        #: who watches which race from here (the app's; a bare one without it)
        self.relay = relay or Relay(hub, services.watch)
        self.hub = hub
        self.settings = settings
        self.metrics = metrics
        self.addresses = services.addresses
        #: each op's handler is the method named after it (derived from the protocol's
        #: request types): ops open to anyone get the connection, the others the
        #: signed-in player's name
        self.public: dict[Op, Callable[[Conn, Any], Awaitable[Answer]]] = {
            op: getattr(self, op.value) for op in P.REQUESTS if op in P.PUBLIC_OPS
        }
        self.signed_in: dict[Op, Callable[[str, Any], Awaitable[Answer]]] = {
            op: getattr(self, op.value) for op in P.REQUESTS if op not in P.PUBLIC_OPS
        }

    async def dispatch(self, conn: Conn, req: P.Request) -> Reply:
        """The reply to a valid request; never raises."""
        op = req.op
        start = time.perf_counter()
        REQUESTER.set(conn.address or None)  # whose share its solver jobs count against
        try:
            try:
                if op in P.PUBLIC_OPS:
                    if op in SPENDS:
                        await self.spend(conn, op)
                    result = await self.public[op](conn, req)
                else:
                    player = conn.need_player()
                    if op in SPENDS:
                        await self.spend(conn, op)
                    result = await self.signed_in[op](player, req)
            except ProtocolError as exc:
                kind = FAILS.get((op, exc.code))
                if kind is not None:
                    await self.addresses.count(kind, conn.address)
                raise
            self.metrics.count_op(op, "ok")
            if op in ACTIVITY and conn.player is not None:
                await self.note(conn.player, op, result)
            if isinstance(result, bytes):
                return ok_packed(req.id, result)
            return P.ok(req.id, **result)
        except ProtocolError as exc:
            self.metrics.count_op(op, exc.code)
            return P.error(req.id, exc.code, exc.message, **exc.wire())
        except OUTAGE as exc:
            log.error("storage outage in %s (id %s, player %s): %r", op, req.id, conn.player, exc)
            self.metrics.count_op(op, ErrorCode.UNAVAILABLE)
            retry = self.settings.unavailable_retry
            return P.error(
                req.id,
                ErrorCode.UNAVAILABLE,
                f"storage is unavailable; try again in {retry:g} s",
                params={"seconds": round(retry)},
                retry_after=retry,
            )
        except WorkerDied as exc:  # a path that did not say it: the pool logged the death
            log.warning("%s (id %s, player %s): %s", op, req.id, conn.player, exc)
            self.metrics.count_op(op, ErrorCode.UNAVAILABLE)
            return P.error(
                req.id,
                ErrorCode.UNAVAILABLE,
                "the solver's process stopped before it answered: try again",
                key="error.search_stopped",
                params={},
                retry_after=1.0,
            )
        except redis.exceptions.RedisError as exc:
            log.error("redis error in %s (id %s, player %s): %r", op, req.id, conn.player, exc)
            self.metrics.count_op(op, "internal")
            return P.error(req.id, ErrorCode.INTERNAL, "internal error")
        except Exception:
            log.exception("unexpected error in %r (player %s)", req, conn.player)
            self.metrics.count_op(op, "internal")
            return P.error(req.id, ErrorCode.INTERNAL, "internal error")
        finally:
            if op is Op.MOVE:
                self.metrics.move_seconds.observe(time.perf_counter() - start)

    async def note(self, player: str, op: Op, result: Answer) -> None:
        """Note what ``player`` does after ``op`` (``Presence``); never fails the op."""
        activity = ACTIVITY[op]
        race = result.get("race") if isinstance(result, dict) else None
        rid = str(race["race_id"]) if activity is Activity.RACING and race else ""
        if rid and isinstance(race, dict):  # sharded pub/sub: follow the race here
            self.sv.news.race_here(race, player)
            await self.sv.news.settled()
        try:
            await self.sv.presence.note(player, activity, rid, soft=op in LOOKS)
        except OUTAGE as exc:  # a storage outage: said in a line, as for an op
            log.warning("could not note %s's presence: %r", player, exc)
        except Exception:
            log.warning("could not note %s's presence", player, exc_info=True)

    async def spend(self, conn: Conn, op: Op) -> None:
        """Count ``op`` against its connection's client address (:data:`SPENDS`);
        ``rate_limited`` past a limit."""
        counts, checks = SPENDS[op]
        for kind in checks:
            await self.addresses.check(kind, conn.address)
        for kind in counts:
            await self.addresses.spend(kind, conn.address)

    async def refused(self, conn: Conn, op: object, rid: int | None) -> Reply | None:
        """A request refused before it was dispatched (``Sessions.refused``): an op of
        :data:`SPENT_WHEN_REFUSED` still spends its address's limits; past them the
        refusal says so (``rate_limited``). Never raises: a storage outage leaves the
        first refusal standing."""
        spent = next((o for o in SPENT_WHEN_REFUSED if o.value == op), None)
        if spent is None:
            return None
        try:
            await self.spend(conn, spent)
        except ProtocolError as exc:
            self.metrics.count_op(spent, exc.code)
            return P.error(rid, exc.code, exc.message, **exc.wire())
        except OUTAGE as exc:
            log.error("storage outage counting a refused %s against %s: %r", op, conn.address, exc)
        except redis.exceptions.RedisError as exc:
            log.error("storage error counting a refused %s against %s: %r", op, conn.address, exc)
        return None

    # -- open to anyone ---------------------------------------------------------------

    @property
    def limits(self) -> dict[str, float]:
        """The request budget of every connection, told at sign-in so that a client
        can pace itself: ``rate`` requests a second, ``burst`` at once."""
        return {"rate": self.settings.rate, "burst": self.settings.burst}

    async def register(self, conn: Conn, req: P.RegisterRequest) -> Result:
        token = await self.sv.accounts.register(req.name)
        self.hub.login(conn, req.name)
        conn.digest = digest(token)
        await self.sv.news.settled()  # news for them reaches this instance now
        deployment = await self.sv.deployment()
        return {"player": req.name, "token": token, "limits": self.limits, "deployment": deployment}

    async def auth(self, conn: Conn, req: P.AuthRequest) -> Result:
        name = await self.sv.accounts.authenticate(req.token)
        self.hub.login(conn, name)
        conn.digest = digest(req.token)
        await self.sv.news.settled()  # news for them reaches this instance now
        result = {"player": name, "limits": self.limits, "deployment": await self.sv.deployment()}
        renamed = await self.sv.moderation.renamed_from(name)  # issue 49: told once
        if renamed:
            result["renamed_from"] = renamed
        return result

    async def games(self, conn: Conn, req: P.GamesRequest) -> Result:
        return {"games": catalogue.games(), "deployment": await self.sv.deployment()}

    async def rules(self, conn: Conn, req: P.RulesRequest) -> Result:
        return await catalogue.rules(req.game, req.lang)

    async def daily(self, conn: Conn, req: P.DailyRequest) -> Result:
        return await daily_overview(self.sv.games, req.date, conn.player)

    async def leaderboard(self, conn: Conn, req: P.LeaderboardRequest) -> Result:
        find_game(req.game)
        date = await self.sv.dailies.check_date(req.date)
        among = None
        if req.friends:
            if conn.player is None:
                raise ProtocolError(
                    ErrorCode.UNAUTHORIZED,
                    "a friends board needs a player: auth first",
                    key="error.friends_board_login",
                )
            among = await self.sv.friends.among(conn.player)
        return await self.sv.boards.page(
            req.game,
            req.board,
            date,
            limit=req.limit,
            cursor=req.cursor,
            around_me=req.around_me,
            player=conn.player,
            among=among,
        )

    async def replay(self, conn: Conn, req: P.ReplayRequest) -> Result:
        return await self.sv.replays.replay(
            conn.player,
            game_id=req.game_id,
            game=req.game,
            date=req.date,
            player=req.player,
            step=req.step,
        )

    async def stats(self, conn: Conn, req: P.StatsRequest) -> Result:
        player = req.player or conn.player
        if player is None:
            raise ProtocolError(
                ErrorCode.UNAUTHORIZED,
                "name a 'player', or register or auth first",
                key="error.stats_need_player",
            )
        return await self.sv.stats.stats(player, req.game)

    # -- a signed-in player's ---------------------------------------------------------

    async def start(self, player: str, req: P.StartRequest) -> Result:
        state = await self.sv.games.start(player, req.game, req.mode, req.seed, req.date)
        return {"state": state}

    async def resume(self, player: str, req: P.ResumeRequest) -> Result:
        state = await self.sv.games.resume(player, req.game_id)
        rid = race_of_game_id(req.game_id) if state.get("mode") == "race" else ""
        if rid:  # a racer back on this instance (sharded pub/sub): follow the race here
            self.sv.news.race_here({"race_id": rid, "players": []}, player)
            await self.sv.news.settled()
        return {"state": state}

    async def move(self, player: str, req: P.MoveRequest) -> Answer:
        change = await self.sv.games.move(player, req.game_id, req.seq, req.move)
        return self.answer(change, req.reply)

    async def undo(self, player: str, req: P.UndoRequest) -> Answer:
        change = await self.sv.games.undo(player, req.game_id, req.seq)
        return self.answer(change, req.reply)

    def answer(self, change: Change, form: P.ReplyForm) -> Answer:
        """A written change as its reply asks: the whole state (its bytes, shaped by
        ``Views.answer``: ``{"state": …}``), or ``{"delta": …}``."""
        views = self.sv.games.views
        if form is P.ReplyForm.DELTA:
            return {"delta": views.delta(change.before, change.after)}
        return views.answer(change)

    async def resign(self, player: str, req: P.ResignRequest) -> Result:
        return {"state": await self.sv.games.resign(player, req.game_id)}

    async def hint(self, player: str, req: P.HintRequest) -> Result:
        return await self.sv.assist.hint(player, req.game_id)

    async def auto(self, player: str, req: P.AutoRequest) -> Result:
        assist = self.sv.assist
        before, after, played = await assist.auto(player, req.game_id, req.seq)
        delta = req.reply is P.ReplyForm.DELTA
        return self.sv.games.views.moved(before, after, played, delta=delta)

    async def finish(self, player: str, req: P.FinishRequest) -> Result:
        assist = self.sv.assist
        if req.check:
            return await assist.finish_check(player, req.game_id, req.seq)
        before, after, played = await assist.finish(player, req.game_id, req.seq, assist=req.assist)
        delta = req.reply is P.ReplyForm.DELTA
        return self.sv.games.views.moved(before, after, played, delta=delta)

    async def my_games(self, player: str, req: P.MyGamesRequest) -> Result:
        return await self.sv.games.my_games(player, req.limit, req.cursor)

    async def friend_add(self, player: str, req: P.FriendAddRequest) -> Result:
        return await self.sv.friends.add(player, req.name)

    async def friend_remove(self, player: str, req: P.FriendRemoveRequest) -> Result:
        return await self.sv.friends.remove(player, req.name)

    async def friends(self, player: str, req: P.FriendsRequest) -> Result:
        return await self.sv.friends.overview(player)

    async def race_create(self, player: str, req: P.RaceCreateRequest) -> Result:
        return {"race": await self.sv.races.create(player, req.game, req.seed, daily=req.daily)}

    async def race_join(self, player: str, req: P.RaceJoinRequest) -> Result:
        await self.sv.watch.may_join(player, req.code)
        race = await self.sv.races.join(player, req.code)
        state = await self.sv.races.my_game(player, race["race_id"])
        return {"race": race} if state is None else {"race": race, "state": state}

    async def race_start(self, player: str, req: P.RaceStartRequest) -> Result:
        return {"race": await self.sv.races.start(player, req.race_id)}

    async def race_leave(self, player: str, req: P.RaceLeaveRequest) -> Result:
        return await self.sv.races.leave(player, req.race_id)

    async def race_rematch(self, player: str, req: P.RaceRematchRequest) -> Result:
        return {"race": await self.sv.races.rematch(player, req.race_id)}

    async def race_end(self, player: str, req: P.RaceEndRequest) -> Result:
        return {"race": await self.sv.races.end(player, req.race_id)}

    async def race_drop(self, player: str, req: P.RaceDropRequest) -> Result:
        return {"race": await self.sv.races.drop(player, req.race_id, req.player)}

    async def race_watch(self, player: str, req: P.RaceWatchRequest) -> Result:
        watched = await self.sv.watch.watch(player, req.code)
        self.relay.add(watched["race"]["race_id"], player)
        await self.sv.news.settled()  # sharded pub/sub: its channels followed here
        return watched

    async def race_unwatch(self, player: str, req: P.RaceUnwatchRequest) -> Result:
        here = self.relay.remove(req.race_id, player)
        if not await self.sv.watch.unwatch(req.race_id, [player]) and not here:
            raise ProtocolError(
                ErrorCode.NOT_FOUND, "you are not watching this race", key="error.not_watching"
            )
        return {}

    async def challenge_create(self, player: str, req: P.ChallengeCreateRequest) -> Result:
        return await self.sv.challenges.create(
            player, game_id=req.game_id, slug=req.game, seed=req.seed
        )

    async def challenge_accept(self, player: str, req: P.ChallengeAcceptRequest) -> Result:
        return await self.sv.challenges.accept(player, req.code)

    async def challenge(self, conn: Conn, req: P.ChallengeRequest) -> Result:
        # open to anyone (a challenge link opened before signing in shows what it is):
        # one who is not signed in sees what any account that has not played it sees
        if conn.player is None:
            return await self.sv.challenges.preview(req.code)
        return await self.sv.challenges.show(conn.player, req.code)

    async def challenges(self, player: str, req: P.ChallengesRequest) -> Result:
        return await self.sv.challenges.mine(player, req.limit)

    async def challenge_close(self, player: str, req: P.ChallengeCloseRequest) -> Result:
        return await self.sv.challenges.close(player, req.code)

    async def invite(self, player: str, req: P.InviteRequest) -> Result:
        friend = await self.sv.friends.registered(req.name)
        if req.tournament is not None:
            return await self.invite_tournament(player, friend, req.tournament)
        return await self.sv.inbox.invite(player, friend, race=req.race, challenge=req.challenge)

    async def inbox(self, player: str, req: P.InboxRequest) -> Result:
        return await self.sv.inbox.items(player)

    async def inbox_read(self, player: str, req: P.InboxReadRequest) -> Result:
        return await self.sv.inbox.mark_read(player, req.item)

    async def block(self, player: str, req: P.BlockRequest) -> Result:
        return await self.sv.friends.block(player, req.name, add=True)

    async def unblock(self, player: str, req: P.UnblockRequest) -> Result:
        return await self.sv.friends.block(player, req.name, add=False)

    # -- issue 49, operators' half ---------------------------------------------------

    async def report(self, player: str, req: P.ReportRequest) -> Result:
        reported = await self.sv.moderation.report(
            player, req.name, str(req.reason), req.text or "", req.game_id
        )
        return {"player": reported}

    async def presence(self, player: str, req: P.PresenceRequest) -> Result:
        return await self.sv.friends.hide(player, req.hidden)

    async def calendar(self, player: str, req: P.CalendarRequest) -> Result:
        return await self.sv.calendar.month(player, req.month, req.game)

    # -- accounts that last (issue 49): link a device, sign out everywhere, export, leave

    async def link(self, conn: Conn, req: P.LinkRequest) -> Result:
        name, token = await self.sv.accounts.link(req.code)
        await self.addresses.refund(Kind.LINK_FAILED, conn.address)  # not a wrong code
        self.hub.login(conn, name)
        conn.digest = digest(token)
        await self.sv.news.settled()  # news for them reaches this instance now
        deployment = await self.sv.deployment()
        return {"player": name, "token": token, "limits": self.limits, "deployment": deployment}

    async def link_code(self, player: str, req: P.LinkCodeRequest) -> Result:
        return await self.sv.accounts.link_code(player)

    async def token_rotate(self, player: str, req: P.TokenRotateRequest) -> Result:
        conn = ANSWERING.get()
        old = conn.digest if conn is not None else ""
        if conn is not None:
            conn.digest = ""  # replacing it: no check of its token closes it meanwhile
        try:
            # refused when another connection replaced this one's token first (and
            # so closes this one)
            token = await self.sv.accounts.rotate(player, old)
        except BaseException:
            if conn is not None:
                conn.digest = old
            raise
        if conn is not None:
            conn.digest = digest(token)
        self.hub.sign_out(player, keep=conn)
        await self.sv.news.signed_out(player)
        return {"token": token}

    async def account_export(self, player: str, req: P.AccountExportRequest) -> Result:
        return await self.sv.data.export(player, req.cursor)

    async def account_delete(self, player: str, req: P.AccountDeleteRequest) -> Result:
        conn = ANSWERING.get()
        old = conn.digest if conn is not None else ""
        if conn is not None:
            conn.digest = ""  # deleting it: no check of its token closes it meanwhile
        try:
            result = await self.sv.data.delete(player, req.name)
        except BaseException:
            if conn is not None:
                conn.digest = old
            raise
        self.hub.sign_out(player, keep=conn)
        if conn is not None:
            self.hub.logout(conn)
        await self.sv.news.signed_out(player)
        return result
