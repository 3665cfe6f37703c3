"""Games: start, resume, move, undo, resign, list.

A game lives in Redis as a hash and a log of its moves (:mod:`.records`). A move goes
forward: the game is read (:meth:`Games.playing`), the rules apply the move, the
change is decided from the record alone (:func:`.records.step`), written by one
compare-and-set on ``seq`` (:meth:`Games.commit`: the reply goes out only after Redis
accepted it, and of two writers racing on one ``seq`` exactly one wins; the other
gets ``stale_seq`` with the current state), the listeners are told
(:class:`.changes.Changes`), and the reply is shaped once, by :mod:`.views`. The
solver's help (hint, auto, finish) is :mod:`.assistance`.

A process-wide cache of recently used games saves the read before a move. It needs
no invalidation: a stale entry only makes the compare-and-set fail, and the game is
then read afresh.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError

from ..patience import registry
from ..patience.engine import AnyGame, AnyState, IllegalMove, InvalidMove, Move
from ..solver import jobs
from ..solver.daily import commitment
from ..store import Store
from ..workers import Busy, Lane, SolverPool, WorkerDied
from .changes import Changes
from .clock import Clock, day_before, day_end_ms
from .daily import Dailies
from .ids import new_id
from .leaderboard import Entry, Leaderboards
from .records import (
    DAY_OVER,
    RESIGN,
    RESIGNED,
    SUMMARY_FIELDS,
    UNDO,
    Change,
    Record,
    by_the_rules,
    compared,
    effective_moves,
    find_game,
    packed_move,
    step,
)
from .views import Views

#: moves a way from the deal to a position is replayed on the event loop at most (a
#: replay's step, an undo); a longer one (a 5,000-move game) is a solver process's
#: job, so that a flood of them cannot slow anyone's moves
INLINE_MOVES = 200

__all__ = [
    "DAY_OVER",
    "RESIGNED",
    "SUMMARY_FIELDS",
    "Games",
    "Record",
    "compared",
    "current_streak",
    "daily_overview",
    "effective_moves",
    "find_game",
]


class Games:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        dailies: Dailies,
        boards: Leaderboards,
        changes: Changes,
        *,
        pool: SolverPool,
        cache_size: int = 4096,
        idle_gap: float = 60.0,
        max_in_play: int = 100,
    ) -> None:
        """``max_in_play`` is the setting's (``Settings.max_in_play``): a player who
        starts games in a loop cannot pile them up past it. ``pool``: the solver's
        processes, where a long way to a position is replayed (:meth:`replayed`)."""
        self.store = store
        self.pool = pool
        self.views = Views(clock, dailies, idle_gap=idle_gap)
        #: the longest pause between two changes that counts in a game's time, in ms
        self.idle_gap_ms = self.views.idle_gap_ms
        self.max_in_play = max_in_play
        self.clock = clock
        self.dailies = dailies
        self.boards = boards
        self.cache_size = cache_size
        #: recently used games: a stale entry only makes the compare-and-set fail
        self.cache: OrderedDict[str, Record] = OrderedDict()
        #: who is told of a game written (registered in ``Services.build``)
        self.changes = changes

    def remember(self, rec: Record) -> Record:
        self.cache[rec.gid] = rec
        self.cache.move_to_end(rec.gid)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return rec

    async def _fetch(self, gid: str) -> Record:
        raw = await self.store.game(gid)
        if raw is None:
            self.cache.pop(gid, None)
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {gid!r}", key="error.no_game")
        return self.remember(Record.load(gid, raw))

    async def owned(self, gid: str, player: str, seq: int | None = None) -> Record:
        """The game, from the cache when its ``seq`` is the one asked for."""
        rec = self.cache.get(gid)
        if rec is None or seq is None or rec.seq != seq:
            rec = await self._fetch(gid)
        if rec.player != player:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"game {gid} is not yours", key="error.not_yours"
            )
        if rec.date and rec.status == GameStatus.PLAYING and self.dailies.revealed(rec.date):
            rec = await self._close_day(rec)
        return rec

    async def _close_day(self, rec: Record) -> Record:
        """A game on the daily deal of a day that is over: a day closes at midnight
        UTC for everything that ranks on it (its seed and par line are public from
        then on). A race game ends, ``out: day_over`` (so does its race, for everyone
        at once); any other plays on unranked, as practice."""
        if rec.race:
            return (await self.give_up(rec, DAY_OVER)).after
        if rec.ranked:
            await self.store.set_game_fields(rec.gid, {"ranked": 0})
            rec = self.remember(replace(rec, ranked=False))
        return rec

    async def resume(self, player: str, gid: str) -> dict[str, Any]:
        rec = await self.owned(gid, player)
        if rec.status != GameStatus.PLAYING:  # again: a crash may have come between
            await self.changes.finished(rec)  # its last write and its listeners
        return self.views.wire(rec)

    async def my_games(self, player: str, limit: int, cursor: str | None) -> dict[str, Any]:
        if cursor is not None and (not cursor.isdigit() or len(cursor) > 9):
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "'cursor' is not a cursor of my_games",
                key="error.bad_cursor",
            )
        offset = int(cursor) if cursor else 0
        gids = await self.store.player_game_ids(player, offset, limit + 1)
        more = len(gids) > limit
        gids = gids[:limit]
        rows = await self.store.games(gids, SUMMARY_FIELDS) if gids else []
        games = [s for g, r in zip(gids, rows, strict=True) if (s := self.views.summary(g, r))]
        return {"games": games, "cursor": str(offset + limit) if more else None}

    async def start(
        self, player: str, slug: str, mode: Mode, seed: int | None, date: str | None = None
    ) -> dict[str, Any]:
        game = find_game(slug)
        if date is not None and date != self.dailies.today():
            return await self.start_past(player, game, await self.dailies.check_date(date))
        gid = new_id()
        date = commit = ""
        ranked = False
        if mode is Mode.DAILY:
            date = self.dailies.today()
            seed, commit = await self.dailies.deal(date, slug)
            first = await self.store.claim_daily(player, date, slug, gid)
            if first == gid:
                ranked = True
            else:
                raw = await self.store.game(first)
                if raw is None:  # claimed by a start that died before creating it
                    gid, ranked = first, True
                else:
                    # One daily deal per player, game and day: the ranked attempt it
                    # is, in play or over, and no second copy of the deal (with undo,
                    # hints and finish) before the day is over.
                    return self.views.wire(await self.owned(first, player))
        elif mode is Mode.PRACTICE:
            seed = secrets.randbits(64)
        assert seed is not None
        rec = await self.create(
            player, game, seed, mode, gid=gid, date=date, commitment=commit, ranked=ranked
        )
        if mode in (Mode.PRACTICE, Mode.DEAL):
            await self._keep_in_play(player, rec)
        return self.views.wire(rec)

    async def start_past(self, player: str, game: AnyGame, date: str) -> dict[str, Any]:
        """A past day's daily deal, played after its day: one game per player, game
        and day, like the day's own (the same claim in the player's dailies, so
        ``daily``, ``calendar`` and ``my_games`` tell of that one game), never ranked
        (its seed is public once the day is over: ``daily`` shows it), of mode
        ``daily`` with its ``date``. Asked again, it is that game, in play or over
        (the game played on the day itself, if any). Never a past day chosen on
        request (``Dailies.past``: ``unavailable`` until the background has chosen it)."""
        choice = await self.dailies.past(date, game.slug)
        gid = new_id()
        first = await self.store.claim_daily(player, date, game.slug, gid)
        if first != gid:
            if await self.store.game(first) is not None:
                return self.views.wire(await self.owned(first, player))
            gid = first  # claimed by a start that died before creating it, or dropped
        rec = await self.create(
            player,
            game,
            choice.seed,
            Mode.DAILY,
            gid=gid,
            date=date,
            commitment=commitment(choice.seed, date, game.slug),
        )
        await self._keep_in_play(player, rec)
        return self.views.wire(rec)

    async def _keep_in_play(self, player: str, rec: Record) -> None:
        """Only the player's newest ``max_in_play`` practice and deal games may be
        in play: an older one still in play is deleted if it has no move (nothing to
        keep), else resigned for the player (it stays in their history, lost)."""
        key = self.store.keys.player_in_play(player)
        old = await self.store.keep_newest(key, rec.gid, rec.created, self.max_in_play)
        for gid in old:
            self.cache.pop(gid, None)
            if not await self.store.drop_unplayed_game(player, gid):
                try:
                    await self.resign(player, gid)
                except ProtocolError as exc:  # over already, or gone
                    if exc.code not in (ErrorCode.GAME_OVER, ErrorCode.NOT_FOUND):
                        raise
            self.cache.pop(gid, None)
        if old:
            await self.store.forget(key, old)

    async def create(
        self,
        player: str,
        game: AnyGame,
        seed: int,
        mode: Mode,
        *,
        gid: str | None = None,
        date: str = "",
        commitment: str = "",
        ranked: bool = False,
        race: str = "",
    ) -> Record:
        """A new game of ``player`` on the deal of ``seed``, stored in Redis."""
        gid = gid or new_id()
        now = self.clock.now_ms()
        state = game.deal(seed)
        status = game.status(state)
        rec = Record(
            gid=gid,
            game=game,
            seed=seed,
            player=player,
            mode=mode,
            seq=0,
            status=status,
            state=state,
            created=now,
            updated=now,
            finished=now if status != GameStatus.PLAYING else 0,
            moves=0,
            foundation=game.score(state)[0],
            date=date,
            ranked=ranked,
            clean=True,
            commitment=commitment,
            recorded=False,
            race=race,
        )
        fields = rec.fields()
        if rec.finished:
            fields["finished"] = now
        if not await self.store.create_game(gid, fields, player):
            # A concurrent start of the same daily created it first.
            return await self._fetch(gid)
        self.remember(rec)
        if rec.status != GameStatus.PLAYING:
            await self.changes.finished(rec)
        return rec

    async def move(self, player: str, gid: str, seq: int, wire: dict[str, Any]) -> Change:
        """The ``move`` op: the player's move in their game at ``seq``, written (the
        reply is :meth:`Views.answer` or :meth:`Views.delta` of the change)."""
        rec = await self.playing(player, gid, seq)
        try:
            move = rec.game.parse_move(wire)
        except InvalidMove as exc:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, f"malformed move: {exc}", key="error.malformed_move"
            ) from None
        return await self.play(rec, move)

    async def play(self, rec: Record, move: Move) -> Change:
        """``move`` in the game ``rec`` (in play, as read): the rules apply it
        (``illegal_move`` with their reason), and the change is written."""
        try:
            state = rec.game.apply(rec.state, move)
        except IllegalMove as exc:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, exc.reason) from None
        now = self.clock.now_ms()
        change = step(rec, state, packed_move(move), now=now, gap=self.idle_gap_ms, clean=rec.clean)
        return await self.commit(change)

    async def undo(self, player: str, gid: str, seq: int) -> Change:
        """Take back the last move (replayed from the deal: "a game is its seed plus its
        moves"), written."""
        rec = await self.playing(player, gid, seq)
        if rec.state.moves - 1 > INLINE_MOVES:
            self.admit(player)  # a solver process's job: refused before the log is read
        played = effective_moves(await self.store.game_log(gid))
        if not played:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE, "there is no move to undo", key="error.nothing_to_undo"
            )
        game = rec.game
        state = await self.replayed(game, rec.seed, played[:-1], player)
        if compared(rec) and game.reveals(state, rec.state):
            what, key = (
                ("this race", "error.undo_shown_race")
                if rec.race
                else ("a tournament", "error.undo_shown_tournament")
                if rec.mode is Mode.TOURNAMENT
                else ("a ranked game", "error.undo_shown_ranked")
                if rec.ranked
                else ("a challenge", "error.undo_shown_challenge")
            )
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                f"{what} takes back no move that showed a card (a card turned from the stock "
                "or uncovered, a redeal): what was seen stays seen",
                key=key,
            )
        now = self.clock.now_ms()
        return await self.commit(step(rec, state, UNDO, now=now, gap=self.idle_gap_ms, clean=False))

    def admit(self, account: str) -> None:
        """``unavailable`` at once if a job of ``account`` would be refused by the solver's
        processes now (it has one under way, or the queue is full)."""
        try:
            self.pool.admit(account)
        except Busy as busy:
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                busy.reason,
                retry_after=busy.retry_after,
                key="error.solver_busy",
                params={"seconds": max(1, round(busy.retry_after))},
            ) from None

    async def replayed(
        self, game: AnyGame, seed: int, line: Sequence[dict[str, Any]], account: str
    ) -> AnyState:
        """The position after ``line`` (wire moves) from the deal of ``seed``. A way of
        more than :data:`INLINE_MOVES` moves is replayed in a solver process, as a
        player's job of ``account`` under the pool's limits (``unavailable`` at once
        when it has one under way or the queue is full): an undo or a replay step
        deep into a 5,000-move game is a quarter of a second of CPU, which the event
        loop that serves every player's moves does not spend."""
        if len(line) <= INLINE_MOVES:
            state = game.deal(seed)
            for wire in line:
                state = game.apply(state, game.parse_move(wire))
            return state
        try:
            packed = await self.pool.run(
                Lane.PLAYER, jobs.replay_to, game.slug, seed, tuple(line), account=account
            )
        except Busy as busy:
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                busy.reason,
                retry_after=busy.retry_after,
                key="error.solver_busy",
                params={"seconds": max(1, round(busy.retry_after))},
            ) from None
        except WorkerDied:
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                "the replay stopped before it answered: try again",
                retry_after=1.0,
                key="error.replay_stopped",
            ) from None
        return game.loads(packed)

    async def resign(self, player: str, gid: str, *, out: str = "") -> dict[str, Any]:
        """End the game ``lost``: the player resigns it, or with ``out`` the server
        gives it up for them, saying why (a race's reasons)."""
        for _ in range(8):
            rec = await self.owned(gid, player)
            if rec.status != GameStatus.PLAYING:
                raise ProtocolError(
                    ErrorCode.GAME_OVER, f"the game is over ({rec.status})", key="error.game_over"
                )
            try:
                return self.views.wire((await self.give_up(rec, out or RESIGNED)).after)
            except ProtocolError as exc:
                if exc.code is not ErrorCode.STALE_SEQ:
                    raise
        raise ProtocolError(
            ErrorCode.STALE_SEQ,
            "the game keeps changing; try again",
            key="error.game_keeps_changing",
        )

    async def give_up(self, rec: Record, out: str) -> Change:
        """End a game in play ``lost``, noting ``out`` (why) in it before the change
        is published."""
        await self.store.set_game_fields(rec.gid, {"out": out})
        now = self.clock.now_ms()
        change = step(
            replace(rec, out=out),
            rec.state,
            RESIGN,
            now=now,
            gap=self.idle_gap_ms,
            clean=rec.clean,
            status=GameStatus.LOST,
            count=False,
        )
        return await self.commit(change)

    async def leave_race(self, player: str, gid: str) -> bool:
        """Take a ranked daily attempt out of its race (the race is ended, or the
        player dropped or timed out): it plays on as the player's daily, since nobody
        but its player may spend it. False for a game that is no ranked attempt (the
        race gives it up); ``game_over`` when it is over."""
        rec = await self.owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(
                ErrorCode.GAME_OVER, f"the game is over ({rec.status})", key="error.game_over"
            )
        if not rec.ranked:
            return False
        await self.store.set_game_fields(gid, {"race": "", "mode": str(Mode.DAILY)})
        self.remember(replace(rec, race="", mode=Mode.DAILY))
        return True

    async def race_over(self, gids: Sequence[str]) -> None:
        """The race of these games is over for every member: their seed may be shown."""
        for gid in gids:
            await self.store.set_game_fields(gid, {"race_over": 1})
            self.cache.pop(gid, None)

    async def playing(self, player: str, gid: str, seq: int) -> Record:
        rec = await self.owned(gid, player, seq)
        if rec.seq != seq:
            raise ProtocolError(
                ErrorCode.STALE_SEQ,
                f"seq is {rec.seq}, not {seq}",
                state=self.views.wire(rec),
                key="error.stale_seq",
            )
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(
                ErrorCode.GAME_OVER, f"the game is over ({rec.status})", key="error.game_over"
            )
        return rec

    async def commit(self, change: Change) -> Change:
        """Write a decided change with the compare-and-set on ``seq`` (``stale_seq``
        with the game as it is when another write came first), remember it, and tell
        the listeners. Decides nothing: :func:`~.records.step` did."""
        before, after = change.before, change.after
        done, current = await self.store.cas_game(
            before.gid,
            seq=before.seq,
            state=after.game.dumps(after.state),
            entry=change.entry,
            status=after.status,
            moves=after.moves,
            foundation=after.foundation,
            now_ms=after.updated,
            finished=bool(after.finished),
            clean=after.clean,
            active_ms=after.active,
        )
        if done != 1:
            self.cache.pop(before.gid, None)
            if done == 0:
                fresh = await self._fetch(before.gid)
                raise ProtocolError(
                    ErrorCode.STALE_SEQ,
                    f"seq is {current}, not {before.seq}: the game moved on elsewhere",
                    state=self.views.wire(fresh),
                    key="error.stale_seq",
                )
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {before.gid!r}", key="error.no_game")
        after.seq = current  # the script's count (the next seq: what step said)
        self.remember(after)
        await self.changes.written(after)
        return change

    async def rank(self, rec: Record) -> None:
        """Rank a finished ranked daily (a listener of finished games: idempotent, so
        resuming a finished game does it again if a crash came between the move and
        the ranking)."""
        if rec.status == GameStatus.PLAYING or not rec.ranked or rec.recorded:
            return
        if rec.finished >= day_end_ms(rec.date):
            return  # finished after its day closed: it ranks nowhere
        won = rec.status == GameStatus.WON
        entry = Entry(
            player=rec.player,
            won=won,
            foundation=rec.foundation,
            moves=rec.moves,
            time_ms=self.views.time_ms(rec),
            finished_ms=rec.finished,
            clean=rec.clean,
            resigned=not won and bool(rec.out),
        )
        await self.boards.record(rec.game.slug, rec.date, entry)
        if by_the_rules(rec):
            await self.store.count_streak(rec.player, rec.date, day_before(rec.date))
        await self.store.set_game_fields(rec.gid, {"recorded": 1})
        self.remember(replace(rec, recorded=True))


def current_streak(player: Mapping[str, bytes], today: str) -> tuple[int, int]:
    """``(current, best)`` streak of a player's hash (``Keys.player``): the UTC days in
    a row, ending today or yesterday, with a ranked daily finished by the rules (see
    :func:`by_the_rules`); the current one is 0 once a day was missed."""
    last = player.get("streak_day", b"").decode()
    current = int(player.get("streak", b"0")) if last and last >= day_before(today) else 0
    return current, max(current, int(player.get("best_streak", b"0")))


async def daily_overview(games: Games, date: str | None, player: str | None) -> dict[str, Any]:
    """The ``daily`` op: per game the commitment, par, the seed once the day is over,
    and the player's own ranked game of that day; plus the player's streak."""
    dailies = games.dailies
    day = await dailies.check_date(date)
    today = dailies.today()
    revealed = dailies.revealed(day)
    slugs = registry.slugs()
    mine_ids = await games.store.player_dailies(player, day, slugs) if player else {}
    ids = [mine_ids[s] for s in slugs if s in mine_ids]
    rows = await games.store.games(ids, SUMMARY_FIELDS) if ids else []
    mine = {g: games.views.summary(g, r) for g, r in zip(ids, rows, strict=True)}
    out: dict[str, Any] = {}
    choices = await dailies.ready(day, slugs)
    waiting = [slug for slug, choice in choices.items() if choice is None]
    progress = await dailies.progress(day, waiting) if waiting else {}
    for slug, choice in choices.items():
        gid = mine_ids.get(slug)
        if choice is None:  # still being certified: ask again in a few seconds
            out[slug] = dict.fromkeys(
                ("commitment", "par", "certified", "best_founded", "seed", "label")
            )
            out[slug] |= {
                "preparing": progress.get(slug)
                or {"tried": 0, "elapsed_ms": 0, "estimate_ms": None},
                "total": registry.get(slug).total,
                "mine": mine.get(gid) if gid else None,
            }
            continue
        out[slug] = {
            "commitment": commitment(choice.seed, day, slug),
            "par": choice.par,
            "certified": choice.certified,
            "best_founded": choice.best_founded,
            "total": registry.get(slug).total,
            "label": choice.label(slug),
            "difficulty": dailies.difficulty(choice, slug),
            "seed": choice.seed if revealed else None,
            "mine": mine.get(gid) if gid else None,
        }
        if revealed:
            out[slug]["k"] = choice.k
            out[slug]["line"] = list(choice.line)
    streak = 0
    if player:
        streak = current_streak(await games.store.player(player), today)[0]
    return {"date": day, "games": out, "streak": streak}
