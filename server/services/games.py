"""Games: start, resume, move, undo, resign, list; and the wire ``state`` object.

A game lives in Redis as a hash (seed, player, mode, seq, status, the state bytes,
timestamps, score) and a log of its moves. Every change is one compare-and-set on
``seq`` (``Store.cas_game``): the reply goes out only after Redis accepted it, and of
two writers racing on one ``seq`` exactly one wins; the other gets ``stale_seq`` with
the current state.

A process-wide cache of recently used games saves the read before a move. It needs
no invalidation: a stale entry only makes the compare-and-set fail, and the game is
then read afresh.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from protocol import (
    Encoded,
    ErrorCode,
    GameStatus,
    Mode,
    ProtocolError,
    encode_array,
    encode_map,
    pack,
    unpack,
)

from .. import solver
from ..patience import registry
from ..patience.engine import (
    AnyGame,
    AnyState,
    Game,
    IllegalMove,
    InvalidMove,
    Move,
    UnknownGame,
)
from ..store import Store
from .clock import Clock, day_before, day_end_ms
from .daily import Dailies, commitment
from .ids import new_id
from .leaderboard import Entry, Leaderboards

UNDO = pack({"undo": 1})
RESIGN = pack({"resign": 1})
SUMMARY_FIELDS = [
    "slug",
    "mode",
    "status",
    "seq",
    "moves",
    "foundation",
    "total",
    "created",
    "updated",
    "date",
    "ranked",
    "clean",
    "auto",
    "out",
]
#: why a game ended other than by its rules (a game ``lost`` with no ``out`` had no
#: move left): the player resigned, or the server gave it up for them
RESIGNED, DAY_OVER = "resigned", "day_over"


_WIRE_MOVES: dict[Move, bytes] = {}
_WIRE_MOVES_MAX = 1 << 16


def _packed_move(move: Move) -> bytes:
    """``pack(move.to_wire())``, encoded once per process (a game's moves
    come from its fixed piles and actions, so there are few of them)."""
    packed = _WIRE_MOVES.get(move)
    if packed is None:
        if len(_WIRE_MOVES) >= _WIRE_MOVES_MAX:
            _WIRE_MOVES.clear()
        packed = _WIRE_MOVES[move] = pack(move.to_wire())
    return packed


def _packed_legal(legal: Sequence[Move]) -> bytes:
    """``pack([m.to_wire() for m in legal])``."""
    return encode_array([_packed_move(move) for move in legal])


def find_game(slug: str) -> AnyGame:
    try:
        return registry.get(slug)
    except UnknownGame:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"no patience is called {slug!r}") from None


NO_RACE_FINISH = (ErrorCode.FORBIDDEN, "no auto-complete in a race: everyone plays alone")
#: marks a key missing from a dict (None is a value)
_GONE = object()
#: how long a hint searches, in seconds
HINT_SECONDS = 2.0
#: practice and deal games a player may have in play: starting one more ends the
#: oldest still in play past this many (deleted if it has no move, else resigned), so
#: a player who starts games in a loop cannot pile them up (docs/operations.md)
MAX_IN_PLAY = 100
#: games whose hinted line is kept (a player who follows a hint gets the next move of
#: the same line at once)
HINTS_KEPT = 1024
#: safe moves one ``auto`` plays at most (a bound only: they run out long before)
AUTO_MAX = 1000
#: the budget of the search of ``finish``: seconds and positions (a position near its
#: end is decided in a few hundred; a short budget keeps the check cheap)
FINISH_SECONDS = 1.0
FINISH_NODES = 50_000


@dataclass(slots=True)
class Record:
    """One game as stored in Redis, with its state decoded. Treat it as frozen: a
    change makes a new record (plain slots rather than ``frozen=True`` only because a
    frozen dataclass is several times slower to build, and one is built per move)."""

    gid: str
    game: AnyGame
    seed: int
    player: str
    mode: str
    seq: int
    status: GameStatus
    state: AnyState
    created: int
    updated: int
    finished: int
    moves: int
    foundation: int
    date: str  # the daily's date for a daily deal, else ""
    ranked: bool
    clean: bool
    commitment: str
    recorded: bool
    race: str = ""  # the race id of a race game
    #: the server played the rest of the game along a certified line (``finish``)
    auto_completed: bool = False
    #: why the game ended other than by its rules ("" if it did not): RESIGNED, or why
    #: the server gave it up (a race's reasons, DAY_OVER)
    out: str = ""
    #: a race game whose race is over for every member (its seed may be shown)
    race_over: bool = False
    #: the encoded bytes (``pack``) of each pile of ``game.view(state)`` (see ``packed_wire``)
    packed_piles: tuple[bytes, ...] | None = None

    @classmethod
    def load(cls, gid: str, raw: dict[str, bytes]) -> Record:
        def text(name: str) -> str:
            return raw.get(name, b"").decode()

        game = find_game(text("slug"))
        return cls(
            gid=gid,
            game=game,
            seed=int(raw["seed"]),
            player=text("player"),
            mode=text("mode"),
            seq=int(raw["seq"]),
            status=GameStatus(text("status")),
            state=game.loads(raw["state"]),
            created=int(raw["created"]),
            updated=int(raw.get("updated", raw["created"])),
            finished=int(raw.get("finished", 0)),
            moves=int(raw.get("moves", 0)),
            foundation=int(raw.get("foundation", 0)),
            date=text("date"),
            ranked=raw.get("ranked") == b"1",
            clean=raw.get("clean", b"1") == b"1",
            commitment=text("commitment"),
            recorded=raw.get("recorded") == b"1",
            race=text("race"),
            auto_completed=raw.get("auto") == b"1",
            out=text("out"),
            race_over=raw.get("race_over") == b"1",
        )

    def fields(self) -> dict[str, Any]:
        return {
            "slug": self.game.slug,
            "seed": self.seed,
            "player": self.player,
            "mode": self.mode,
            "seq": self.seq,
            "status": self.status,
            "state": self.game.dumps(self.state),
            "created": self.created,
            "updated": self.updated,
            "moves": self.moves,
            "foundation": self.foundation,
            "total": self.game.total,
            "date": self.date,
            "ranked": int(self.ranked),
            "clean": int(self.clean),
            "commitment": self.commitment,
            "race": self.race,
        }


class Games:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        dailies: Dailies,
        boards: Leaderboards,
        *,
        cache_size: int = 4096,
    ) -> None:
        self.store = store
        self.clock = clock
        self.dailies = dailies
        self.boards = boards
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Record] = OrderedDict()
        #: per game: the position at which the rest of its last hinted line applies
        #: (the one after the hinted move), and that rest
        self._hints: dict[str, tuple[tuple[object, object], tuple[Move, ...]]] = {}
        #: called after every change of a race game (the race service publishes it)
        self.on_race_change: Callable[[Record], Awaitable[None]] | None = None
        #: called with every finished game as it ends (and again, harmlessly, when it
        #: is resumed): the statistics count it once
        self.on_finished: Callable[[Record], Awaitable[None]] | None = None

    # -- the wire state ---------------------------------------------------------------

    def wire(self, rec: Record) -> dict[str, Any]:
        """The state object of docs/protocol.md (plus ``clean``, ``ranked`` and ``date``)."""
        return {
            **self._head(rec),
            "view": rec.game.view(rec.state),
            "legal": [m.to_wire() for m in self._legal_now(rec)],
            **self._tail(rec),
        }

    def packed_wire(self, rec: Record) -> bytes:
        """``pack(self.wire(rec))``, byte for byte, with the view's piles taken from
        ``rec.packed_piles`` (encoded once per change of a pile) and each legal move's
        encoding cached."""
        piles = rec.packed_piles
        if piles is None:
            return pack(self.wire(rec))
        view = encode_map(Encoded("piles", encode_array(piles)), {"info": rec.game.info(rec.state)})
        return encode_map(
            self._head(rec),
            Encoded("view", view),
            Encoded("legal", _packed_legal(self._legal_now(rec))),
            self._tail(rec),
        )

    def moved(
        self, before: Record, after: Record, played: Sequence[Move], *, delta: bool
    ) -> dict[str, Any]:
        """The reply of ``auto`` and ``finish``: the moves ``played``, and the new
        ``state``, or with ``delta`` what changed since ``before`` (``from_seq`` says
        which state it follows, several moves back)."""
        moves = [m.to_wire() for m in played]
        if delta:
            return {"delta": {**self.delta(before, after), "from_seq": before.seq}, "played": moves}
        return {"state": self.wire(after), "played": moves}

    def delta(self, before: Record, after: Record) -> dict[str, Any]:
        """What changed from ``before`` to ``after``, for a ``"reply": "delta"``: the
        counters, the full legal list, the new cards of each pile whose cards changed,
        the whole object of a pile whose other fields changed (``pile_meta``), and the
        ``info`` keys that changed (None for a key that is gone)."""
        game = after.game
        old, new = before.state, after.state
        dynamic = type(game).pile_view is not Game.pile_view
        piles: dict[str, Any] = {}
        meta: dict[str, Any] = {}
        view_pile = game.view_pile
        for i, cards in enumerate(new.piles):
            if not dynamic and old.piles[i] == cards:
                continue  # a pile's view depends on its cards alone here
            was, now = view_pile(old, i), view_pile(new, i)
            if was == now:
                continue
            cards_was, cards_now = was.pop("cards"), now.pop("cards")
            if was != now:
                meta[now["id"]] = {**now, "cards": cards_now}
            elif cards_was != cards_now:
                piles[now["id"]] = cards_now
        info_was, info_now = game.info(old), game.info(new)
        info = {k: v for k, v in info_now.items() if info_was.get(k, _GONE) != v}
        info.update({k: None for k in info_was if k not in info_now})
        head = self._head(after)
        out: dict[str, Any] = {
            key: head[key] for key in ("game_id", "seq", "status", "moves", "time_ms", "foundation")
        }
        out.update(
            clean=after.clean,
            legal=[m.to_wire() for m in self._legal_now(after)],
            piles=piles,
            info=info,
        )
        if meta:
            out["pile_meta"] = meta
        return out

    @staticmethod
    def _packed_piles(game: AnyGame, state: AnyState, prev: Record) -> tuple[bytes, ...] | None:
        """The encoded piles of ``game.view(state)``, reusing those of ``prev`` whose
        cards did not change; None for a game whose piles' views depend on more than
        their cards (it overrides ``pile_view``)."""
        if type(game).pile_view is not Game.pile_view:
            return None
        old = prev.packed_piles
        before = prev.state.piles
        view_pile = game.view_pile
        out = []
        for i, cards in enumerate(state.piles):
            # A move rebuilds only the piles it changes: the others are the same tuple.
            if old is not None and before[i] is cards:
                out.append(old[i])
            else:
                out.append(pack(view_pile(state, i)))
        return tuple(out)

    @staticmethod
    def _legal_now(rec: Record) -> list[Move]:
        """The legal moves of a game still in play (the engine caches them)."""
        return rec.game.legal_moves(rec.state) if rec.status == GameStatus.PLAYING else []

    def _head(self, rec: Record) -> dict[str, Any]:
        """The state object's fields before ``view``."""
        game = rec.game
        hidden = self.seed_hidden(rec)
        end = rec.finished or self.clock.now_ms()
        return {
            "game_id": rec.gid,
            "game": game.slug,
            "mode": rec.mode,
            "seq": rec.seq,
            "status": rec.status,
            "moves": rec.moves,
            "time_ms": max(0, end - rec.created),
            "foundation": rec.foundation,
            "total": game.total,
            "deal": {"seed": None if hidden else rec.seed, "commitment": rec.commitment or None},
        }

    def seed_hidden(self, rec: Record) -> bool:
        """Whether the game's seed is still secret: on a daily deal until the day is
        over, in a race until the race is over for every member (a member who left
        early could otherwise deal the same layout elsewhere and solve it)."""
        return (bool(rec.date) and not self.dailies.revealed(rec.date)) or (
            bool(rec.race) and not rec.race_over
        )

    @staticmethod
    def _tail(rec: Record) -> dict[str, Any]:
        """The state object's fields after ``legal`` (``auto_completed`` and ``out``
        only when set)."""
        tail: dict[str, Any] = {"clean": rec.clean, "ranked": rec.ranked, "date": rec.date or None}
        if rec.auto_completed:
            tail["auto_completed"] = True
        if rec.out:
            tail["out"] = rec.out
        return tail

    def summary(self, gid: str, values: list[bytes | None]) -> dict[str, Any] | None:
        raw = dict(zip(SUMMARY_FIELDS, values, strict=True))
        if raw["slug"] is None:
            return None

        def num(name: str) -> int:
            value = raw[name]
            return int(value) if value is not None else 0

        def text(name: str) -> str | None:
            value = raw[name]
            return value.decode() if value else None

        return {
            "game_id": gid,
            "game": text("slug"),
            "mode": text("mode"),
            "status": text("status"),
            "seq": num("seq"),
            "moves": num("moves"),
            "foundation": num("foundation"),
            "total": num("total"),
            "created": num("created"),
            "updated": num("updated"),
            "date": text("date"),
            "ranked": raw["ranked"] == b"1",
            "clean": raw["clean"] != b"0",
            "auto_completed": raw["auto"] == b"1",
            "out": text("out"),
        }

    # -- reading ----------------------------------------------------------------------

    def _remember(self, rec: Record) -> Record:
        self._cache[rec.gid] = rec
        self._cache.move_to_end(rec.gid)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return rec

    async def _fetch(self, gid: str) -> Record:
        raw = await self.store.game(gid)
        if raw is None:
            self._cache.pop(gid, None)
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {gid!r}")
        return self._remember(Record.load(gid, raw))

    async def _owned(self, gid: str, player: str, seq: int | None = None) -> Record:
        """The game, from the cache when its ``seq`` is the one asked for."""
        rec = self._cache.get(gid)
        if rec is None or seq is None or rec.seq != seq:
            rec = await self._fetch(gid)
        if rec.player != player:
            raise ProtocolError(ErrorCode.FORBIDDEN, f"game {gid} is not yours")
        if rec.date and rec.status == GameStatus.PLAYING and self.dailies.revealed(rec.date):
            rec = await self._close_day(rec)
        return rec

    async def _close_day(self, rec: Record) -> Record:
        """A game on the daily deal of a day that is over: a day closes at midnight
        UTC for everything that ranks on it (its seed and par line are public from
        then on). A race game ends, ``out: day_over`` (so does its race, for everyone
        at once); any other plays on unranked, as practice."""
        if rec.race:
            return await self.give_up(rec, DAY_OVER)
        if rec.ranked:
            await self.store.set_game_fields(rec.gid, {"ranked": 0})
            rec = self._remember(replace(rec, ranked=False))
        return rec

    async def resume(self, player: str, gid: str) -> dict[str, Any]:
        rec = await self._owned(gid, player)
        await self._finish(rec)
        return self.wire(rec)

    async def my_games(self, player: str, limit: int, cursor: str | None) -> dict[str, Any]:
        if cursor is not None and (not cursor.isdigit() or len(cursor) > 9):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'cursor' is not a cursor of my_games")
        offset = int(cursor) if cursor else 0
        gids = await self.store.player_game_ids(player, offset, limit + 1)
        more = len(gids) > limit
        gids = gids[:limit]
        rows = await self.store.games(gids, SUMMARY_FIELDS) if gids else []
        games = [s for g, r in zip(gids, rows, strict=True) if (s := self.summary(g, r))]
        return {"games": games, "cursor": str(offset + limit) if more else None}

    # -- starting ---------------------------------------------------------------------

    async def start(self, player: str, slug: str, mode: Mode, seed: int | None) -> dict[str, Any]:
        game = find_game(slug)
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
                    return self.wire(await self._owned(first, player))
        elif mode is Mode.PRACTICE:
            seed = secrets.randbits(64)
        assert seed is not None
        rec = await self.create(
            player, game, seed, str(mode), gid=gid, date=date, commitment=commit, ranked=ranked
        )
        if mode in (Mode.PRACTICE, Mode.DEAL):
            await self._keep_in_play(player, rec)
        return self.wire(rec)

    async def _keep_in_play(self, player: str, rec: Record) -> None:
        """Only the player's newest :data:`MAX_IN_PLAY` practice and deal games may be
        in play: an older one still in play is deleted if it has no move (nothing to
        keep), else resigned for the player (it stays in their history, lost)."""
        key = self.store.keys.player_in_play(player)
        old = await self.store.keep_newest(key, rec.gid, rec.created, MAX_IN_PLAY)
        for gid in old:
            self._cache.pop(gid, None)
            if not await self.store.drop_unplayed_game(player, gid):
                try:
                    await self.resign(player, gid)
                except ProtocolError as exc:  # over already, or gone
                    if exc.code not in (ErrorCode.GAME_OVER, ErrorCode.NOT_FOUND):
                        raise
            self._cache.pop(gid, None)
        if old:
            await self.store.forget(key, old)

    async def create(
        self,
        player: str,
        game: AnyGame,
        seed: int,
        mode: str,
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
        self._remember(rec)
        await self._finish(rec)
        return rec

    # -- changing ---------------------------------------------------------------------

    async def move(self, player: str, gid: str, seq: int, wire: dict[str, Any]) -> dict[str, Any]:
        return self.wire(await self._move(player, gid, seq, wire))

    async def move_delta(
        self, player: str, gid: str, seq: int, wire: dict[str, Any]
    ) -> dict[str, Any]:
        """:meth:`move` answered with only what changed (:meth:`delta`)."""
        before = await self._playing(player, gid, seq)
        return self.delta(before, await self._move(player, gid, seq, wire, rec=before))

    async def move_packed(self, player: str, gid: str, seq: int, wire: dict[str, Any]) -> bytes:
        """:meth:`move`, its state already msgpack-encoded (the server's hot path)."""
        return self.packed_wire(await self._move(player, gid, seq, wire, pack=True))

    async def _move(
        self,
        player: str,
        gid: str,
        seq: int,
        wire: dict[str, Any],
        *,
        pack: bool = False,
        rec: Record | None = None,
    ) -> Record:
        rec = rec or await self._playing(player, gid, seq)
        game = rec.game
        try:
            move = game.parse_move(wire)
            state = game.apply(rec.state, move)  # raises IllegalMove with the reason
        except InvalidMove as exc:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"malformed move: {exc}") from None
        except IllegalMove as exc:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, exc.reason) from None
        entry = _packed_move(move)
        return await self._commit(rec, state, entry, clean=rec.clean, pack=pack)

    async def undo(self, player: str, gid: str, seq: int, *, delta: bool = False) -> dict[str, Any]:
        """Take back the last move (replayed from the deal: "a game is its seed plus its
        moves"); the new state, or with ``delta`` only what changed."""
        rec = await self._playing(player, gid, seq)
        played = effective_moves(await self.store.game_log(gid))
        if not played:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "there is no move to undo")
        game = rec.game
        state = game.deal(rec.seed)
        for wire in played[:-1]:
            state = game.apply(state, game.parse_move(wire))
        if compared(rec) and game.reveals(state, rec.state):
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                f"{'this race' if rec.race else 'a ranked game'} takes back no move that "
                "showed a card (a card turned from the stock or uncovered, a redeal): "
                "what was seen stays seen",
            )
        after = await self._commit(rec, state, UNDO, clean=False)
        return self.delta(rec, after) if delta else self.wire(after)

    async def resign(self, player: str, gid: str, *, out: str = "") -> dict[str, Any]:
        """End the game ``lost``: the player resigns it, or with ``out`` the server
        gives it up for them, saying why (a race's reasons)."""
        for _ in range(8):
            rec = await self._owned(gid, player)
            if rec.status != GameStatus.PLAYING:
                raise ProtocolError(ErrorCode.GAME_OVER, f"the game is over ({rec.status})")
            try:
                return self.wire(await self.give_up(rec, out or RESIGNED))
            except ProtocolError as exc:
                if exc.code is not ErrorCode.STALE_SEQ:
                    raise
        raise ProtocolError(ErrorCode.STALE_SEQ, "the game keeps changing; try again")

    async def give_up(self, rec: Record, out: str) -> Record:
        """End a game in play ``lost``, noting ``out`` (why) in it before the change
        is published."""
        await self.store.set_game_fields(rec.gid, {"out": out})
        return await self._commit(
            replace(rec, out=out),
            rec.state,
            RESIGN,
            clean=rec.clean,
            status=GameStatus.LOST,
            count=False,
        )

    async def hint(self, player: str, gid: str, *, seconds: float = HINT_SECONDS) -> dict[str, Any]:
        """One move of a winning line from the game's position, found off the event
        loop within about ``seconds``, or None. The game becomes *assisted*: it no
        longer ranks on a daily board. Races refuse hints."""
        rec = await self._owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(ErrorCode.GAME_OVER, f"the game is over ({rec.status})")
        if rec.race:
            raise ProtocolError(ErrorCode.FORBIDDEN, "no hints in a race: everyone plays alone")
        if rec.ranked:
            rec = await self._assist(rec)
        kept = self._hints.get(gid)
        if kept is not None and kept[0] == (rec.state.piles, rec.state.vars) and kept[1]:
            line = kept[1]  # the player followed the last hint: go on along its line
        else:
            found = await asyncio.to_thread(solver.solve, rec.game, rec.state, max_seconds=seconds)
            line = found.line or ()
        if not line:
            self._hints.pop(gid, None)
            return {"move": None, "assisted": True, "message": "no win found from here"}
        after = rec.game.apply(rec.state, line[0])
        self._hints[gid] = ((after.piles, after.vars), line[1:])
        if len(self._hints) > HINTS_KEPT:
            self._hints.pop(next(iter(self._hints)))
        return {"move": line[0].to_wire(), "assisted": True, "message": f"try {line[0]}"}

    async def leave_race(self, player: str, gid: str) -> bool:
        """Take a ranked daily attempt out of its race (the race is ended, or the
        player dropped or timed out): it plays on as the player's daily, since nobody
        but its player may spend it. False for a game that is no ranked attempt (the
        race gives it up); ``game_over`` when it is over."""
        rec = await self._owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(ErrorCode.GAME_OVER, f"the game is over ({rec.status})")
        if not rec.ranked:
            return False
        await self.store.set_game_fields(gid, {"race": "", "mode": str(Mode.DAILY)})
        self._remember(replace(rec, race="", mode=str(Mode.DAILY)))
        return True

    async def race_over(self, gids: Sequence[str]) -> None:
        """The race of these games is over for every member: their seed may be shown."""
        for gid in gids:
            await self.store.set_game_fields(gid, {"race_over": 1})
            self._cache.pop(gid, None)

    async def _assist(self, rec: Record) -> Record:
        """The solver helps this game: it is *assisted*, no longer ranked."""
        await self.store.set_game_fields(rec.gid, {"ranked": 0, "assisted": 1})
        return self._remember(replace(rec, ranked=False))

    async def auto(self, player: str, gid: str, seq: int) -> tuple[Record, Record, list[Move]]:
        """Play the game's safe moves (``Game.safe_moves``, the first listed each time)
        one by one until none is left, the game ends or AUTO_MAX were played; each is
        a move like any other (logged, counted, undoable). The record before, the one
        after, and the moves played."""
        first = await self._playing(player, gid, seq)
        last, played = await self._play_line(first, None)
        return first, last, played

    async def finish(
        self,
        player: str,
        gid: str,
        seq: int,
        *,
        assist: bool = False,
        seconds: float = FINISH_SECONDS,
    ) -> tuple[Record, Record, list[Move]]:
        """Play the rest of the game along a winning line the solver certifies from
        here (``illegal_move`` when none is found within the budget). The game is
        marked *auto-completed*. Races refuse it. A ranked game is finished only when
        it is trivially won (:meth:`Game.trivial_line`: its safe moves win it, no
        search), and stays ranked; any other finish of it needs ``assist``, and the
        game is then assisted, as after a hint: the solver's search would otherwise
        win a ranked daily for anyone at move 0."""
        rec = first = await self._playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        line = rec.game.trivial_line(rec.state) if rec.ranked else None
        if rec.ranked and line is None:
            if not assist:
                raise ProtocolError(
                    ErrorCode.ILLEGAL_MOVE,
                    "on a ranked game the server finishes only a rest its safe moves win: "
                    "play on, or finish with the solver's help (assist: the game then no "
                    "longer ranks)",
                    state=self.wire(rec),
                )
            rec = await self._assist(rec)
        if line is None:
            line = await self.finish_line(rec, seconds=seconds)
        if line is None:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                "no certain win found from here: play on",
                state=self.wire(rec),
            )
        if not rec.auto_completed:
            await self.store.set_game_fields(gid, {"auto": 1})
            rec = self._remember(replace(rec, auto_completed=True))
        last, played = await self._play_line(rec, line)
        return first, last, played

    async def finish_check(
        self, player: str, gid: str, seq: int, *, seconds: float = FINISH_SECONDS
    ) -> dict[str, Any]:
        """Whether ``finish`` would play the rest from here: ``certain`` and the line's
        ``moves`` (None when not certain). Changes nothing; the line is kept, so the
        ``finish`` that follows plays it at once. On a ranked game it is no oracle:
        ``certain`` only for a trivially won rest, and nothing is searched."""
        rec = await self._playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        if rec.ranked:
            line = rec.game.trivial_line(rec.state)
        else:
            line = await self.finish_line(rec, seconds=seconds)
        return {"certain": line is not None, "moves": None if line is None else len(line)}

    async def finish_line(self, rec: Record, *, seconds: float) -> tuple[Move, ...] | None:
        """A certified winning line from the game's position: the rest of the line
        last found for this game when it applies here (a hint's, a check's), else one
        searched off the event loop within ``seconds`` and FINISH_NODES positions."""
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        here = (rec.state.piles, rec.state.vars)
        kept = self._hints.get(rec.gid)
        if kept is not None and kept[0] == here and kept[1]:
            return kept[1]
        found = await asyncio.to_thread(
            solver.solve, rec.game, rec.state, max_seconds=seconds, max_nodes=FINISH_NODES
        )
        line = found.line
        if not line or not solver.certify(rec.game, rec.state, line):
            return None
        self._hints[rec.gid] = (here, line)
        if len(self._hints) > HINTS_KEPT:
            self._hints.pop(next(iter(self._hints)))
        return line

    async def _play_line(
        self, rec: Record, line: Sequence[Move] | None
    ) -> tuple[Record, list[Move]]:
        """Play ``line`` (None: each time the first safe move) from ``rec`` through the
        normal path of a move, at most AUTO_MAX (a line: its length); the last record
        and the moves played."""
        game = rec.game
        played: list[Move] = []
        todo = iter(line) if line is not None else None
        while rec.status == GameStatus.PLAYING and len(played) < AUTO_MAX:
            if todo is None:
                safe = game.safe_moves(rec.state)
                move = safe[0] if safe else None
            else:
                move = next(todo, None)
            if move is None:
                break
            state = game.apply(rec.state, move)
            rec = await self._commit(rec, state, _packed_move(move), clean=rec.clean)
            played.append(move)
        return rec, played

    async def _playing(self, player: str, gid: str, seq: int) -> Record:
        rec = await self._owned(gid, player, seq)
        if rec.seq != seq:
            raise ProtocolError(
                ErrorCode.STALE_SEQ, f"seq is {rec.seq}, not {seq}", state=self.wire(rec)
            )
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(ErrorCode.GAME_OVER, f"the game is over ({rec.status})")
        return rec

    async def _commit(
        self,
        rec: Record,
        state: AnyState,
        entry: bytes,
        *,
        clean: bool,
        status: GameStatus | None = None,
        count: bool = True,
        pack: bool = False,
    ) -> Record:
        """Write the new position with the compare-and-set on ``seq``; the new record
        (with its view's piles encoded when ``pack``)."""
        game = rec.game
        foundation = game.score(state)[0]
        if status is None:
            status = game.status(state)
        now = self.clock.now_ms()
        moves = rec.moves + 1 if count else rec.moves
        finished = status != GameStatus.PLAYING
        done, current = await self.store.cas_game(
            rec.gid,
            seq=rec.seq,
            state=game.dumps(state),
            entry=entry,
            status=status,
            moves=moves,
            foundation=foundation,
            now_ms=now,
            finished=finished,
            clean=clean,
        )
        if done != 1:
            self._cache.pop(rec.gid, None)
            if done == 0:
                fresh = await self._fetch(rec.gid)
                raise ProtocolError(
                    ErrorCode.STALE_SEQ,
                    f"seq is {current}, not {rec.seq}: the game moved on elsewhere",
                    state=self.wire(fresh),
                )
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {rec.gid!r}")
        new = replace(
            rec,
            seq=current,
            status=status,
            state=state,
            updated=now,
            finished=now if finished else 0,
            moves=moves,
            foundation=foundation,
            clean=clean,
            packed_piles=self._packed_piles(game, state, rec) if pack else None,
        )
        self._remember(new)
        if finished:
            await self._finish(new)
        if new.race and self.on_race_change is not None:
            await self.on_race_change(new)
        return new

    async def _finish(self, rec: Record) -> None:
        """Rank a finished ranked daily (idempotent: redone on resume if a crash came
        between the move and the ranking)."""
        if rec.status != GameStatus.PLAYING and self.on_finished is not None:
            await self.on_finished(rec)
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
            time_ms=max(0, rec.finished - rec.created),
            finished_ms=rec.finished,
            clean=rec.clean,
        )
        await self.boards.record(rec.game.slug, rec.date, entry)
        if by_the_rules(rec):
            await self.store.count_streak(rec.player, rec.date, day_before(rec.date))
        await self.store.set_game_fields(rec.gid, {"recorded": 1})
        self._remember(replace(rec, recorded=True))


def compared(rec: Record) -> bool:
    """Whether the game's result is compared with others' (a ranked daily, a race
    game): what it shows may not be taken back, and the server's solver may not play
    it (docs/protocol.md, "Fair play")."""
    return rec.ranked or bool(rec.race)


def by_the_rules(rec: Record) -> bool:
    """Whether a finished game ended by the rules: won, or lost with no move left. A
    resigned game (a player's, or an absent race member's timed out) is marked lost
    while its position still has moves; it ends no streak day (docs/client.md,
    "Streak")."""
    return rec.status == GameStatus.WON or rec.game.status(rec.state) != GameStatus.PLAYING


def current_streak(player: Mapping[str, bytes], today: str) -> tuple[int, int]:
    """``(current, best)`` streak of a player's hash (``Keys.player``): the UTC days in
    a row, ending today or yesterday, with a ranked daily finished by the rules (see
    :func:`by_the_rules`); the current one is 0 once a day was missed."""
    last = player.get("streak_day", b"").decode()
    current = int(player.get("streak", b"0")) if last and last >= day_before(today) else 0
    return current, max(current, int(player.get("best_streak", b"0")))


def effective_moves(log: list[bytes]) -> list[dict[str, Any]]:
    """The moves in force after a log's undos: "a game is its seed plus its moves"."""
    moves: list[dict[str, Any]] = []
    for raw in log:
        item = unpack(raw)
        if item.get("undo"):
            if moves:
                moves.pop()
        elif not item.get("resign"):
            moves.append(item)
    return moves


async def daily_overview(games: Games, date: str | None, player: str | None) -> dict[str, Any]:
    """The ``daily`` op: per game the commitment, par, the seed once the day is over,
    and the player's own ranked game of that day; plus the player's streak."""
    dailies = games.dailies
    day = dailies.check_date(date)
    today = dailies.today()
    revealed = dailies.revealed(day)
    mine_ids = await games.store.player_dailies(player, day) if player else {}
    slugs = registry.slugs()
    ids = [mine_ids[s] for s in slugs if s in mine_ids]
    rows = await games.store.games(ids, SUMMARY_FIELDS) if ids else []
    mine = {g: games.summary(g, r) for g, r in zip(ids, rows, strict=True)}
    out: dict[str, Any] = {}
    choices = await dailies.ready(day, slugs)
    waiting = [slug for slug, choice in choices.items() if choice is None]
    progress = await dailies.progress(day, waiting) if waiting else {}
    for slug, choice in choices.items():
        gid = mine_ids.get(slug)
        if choice is None:  # still being certified: ask again in a few seconds
            out[slug] = dict.fromkeys(("commitment", "par", "certified", "best_founded", "seed"))
            out[slug] |= {"preparing": progress.get(slug) or {"tried": 0, "elapsed_ms": 0}}
            out[slug] |= {"mine": mine.get(gid) if gid else None}
            continue
        out[slug] = {
            "commitment": commitment(choice.seed, day, slug),
            "par": choice.par,
            "certified": choice.certified,
            "best_founded": choice.best_founded,
            "total": registry.get(slug).total,
            "label": choice.label(slug),
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
