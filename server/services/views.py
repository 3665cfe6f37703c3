"""What a player receives of a game: the wire ``state`` object (docs/protocol.md, "The
state object"), packed once per change of a pile on the hot path; the delta of a
``"reply": "delta"``; the summary of ``my_games``; the game's time; whether its seed is
still secret. The one place a reply's shape is decided: a written change
(:class:`~.records.Change`) comes here last, and goes out as it leaves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from protocol import Encoded, GameStatus, Mode, encode_array, encode_map, pack

from ..patience.engine import AnyGame, AnyState, Game, Move
from .clock import Clock
from .daily import Dailies
from .records import (
    SUMMARY_FIELDS,
    Change,
    Record,
    active_time,
    assisted,
    assisted_summary,
    packed_moves,
    tournament_secret,
)

#: marks a key missing from a dict (None is a value)
_GONE = object()


def packed_legal(legal: Sequence[Move]) -> bytes:
    """``pack([m.to_wire() for m in legal])``, each move's encoding cached."""
    return encode_array(packed_moves(legal))


#: a challenge game stored before its challenge's closing was kept on it (issue 36):
#: its seed stays hidden as long as a challenge could have stayed open, in ms (the
#: default --challenge-days, 30, and the day its keys outlive it)
LEGACY_REVEAL_MS = 31 * 86_400_000


def reveal_at(rec: Record) -> int:
    """When a challenge game's seed may be shown: its challenge's closing (ms)."""
    return rec.reveal_at or rec.created + LEGACY_REVEAL_MS


class Views:
    """The views of games, on the server's clock and the dailies' calendar (what
    time it is decides a game's time and whether a daily's seed may be shown)."""

    def __init__(self, clock: Clock, dailies: Dailies, *, idle_gap: float = 60.0) -> None:
        self.clock = clock
        self.dailies = dailies
        #: the longest pause between two changes that counts in a game's time, in ms
        self.idle_gap_ms = int(idle_gap * 1000)

    def wire(self, rec: Record, *, written: bool = False) -> dict[str, Any]:
        """The state object of docs/protocol.md (plus ``clean``, ``ranked`` and ``date``);
        ``written``: ``rec`` was written just now (its time is the one it holds)."""
        return {
            **self._head(rec, written=written),
            "view": rec.game.view(rec.state),
            "legal": [m.to_wire() for m in self._legal_now(rec)],
            **self._tail(rec),
        }

    def answer(self, change: Change) -> bytes:
        """The reply to a written change: ``pack(self.wire(change.after))``, byte for
        byte, its view's piles encoded only where the change touched them (the others'
        bytes kept from the record before: a move touches one or two piles), each legal
        move's encoding cached, and the game's time the one the change decided."""
        after = change.after
        piles = self.packed_piles(after.game, after.state, change.before)
        if piles is None:
            return pack(self.wire(after, written=True))
        after.packed_piles = piles  # kept for the next change's reply (a cache)
        info = {"info": after.game.info(after.state)}
        view = encode_map(Encoded("piles", encode_array(piles)), info)
        return encode_map(
            self._head(after, written=True),
            Encoded("view", view),
            Encoded("legal", packed_legal(self._legal_now(after))),
            self._tail(after),
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
        old_piles = old.piles
        for i, cards in enumerate(new.piles):
            if not dynamic:
                # A pile's view depends on its cards alone here, and only its cards
                # change; a move rebuilds only the piles it changes (the others are the
                # same tuple: no comparison needed).
                held = old_piles[i]
                if held is cards or held == cards:
                    continue
                shown = game.shown_cards(new, i)
                # A card for a card (a face-down card each): a pile that grew or shrank
                # shows otherwise, with no need to build what it showed before.
                if len(held) != len(cards) or game.shown_cards(old, i) != shown:
                    piles[game.ids[i]] = shown
                continue
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
        # The counters of the state object's head (:meth:`_head`), built alone: the rest
        # of the head (the deal, whether its seed is hidden) is no part of a delta.
        out: dict[str, Any] = {
            "game_id": after.gid,
            "seq": after.seq,
            "status": after.status,
            "moves": after.moves,
            "time_ms": self.time_ms(after, written=True),
            "idle_left_ms": self.idle_left_ms(after, written=True),
            "foundation": after.foundation,
            "clean": after.clean,
            "legal": [m.to_wire() for m in self._legal_now(after)],
            "piles": piles,
            "info": info,
        }
        if meta:
            out["pile_meta"] = meta
        return out

    @staticmethod
    def packed_piles(game: AnyGame, state: AnyState, prev: Record) -> tuple[bytes, ...] | None:
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

    def _head(self, rec: Record, *, written: bool = False) -> dict[str, Any]:
        """The state object's fields before ``view``."""
        game = rec.game
        hidden = self.seed_hidden(rec)
        return {
            "game_id": rec.gid,
            "game": game.slug,
            "mode": rec.mode,
            "seq": rec.seq,
            "status": rec.status,
            "moves": rec.moves,
            "time_ms": self.time_ms(rec, written=written),
            "idle_left_ms": self.idle_left_ms(rec, written=written),
            "foundation": rec.foundation,
            "total": game.total,
            "deal": {"seed": None if hidden else rec.seed, "commitment": rec.commitment or None},
        }

    def time_ms(self, rec: Record, *, written: bool = False) -> int:
        """The game's time: its player's active time. A pause between two changes
        counts at most ``idle_gap`` (the player was away, or the server was down); a
        game in play counts the time since its last change the same way. A record
        ``written`` just now holds its time (:func:`~.records.step` decided it)."""
        if written and rec.active >= 0:
            return rec.active
        return active_time(
            rec.active,
            created=rec.created,
            updated=rec.updated,
            finished=rec.finished,
            now=rec.updated if written else self.clock.now_ms(),
            gap=self.idle_gap_ms,
        )

    def idle_left_ms(self, rec: Record, *, written: bool = False) -> int:
        """How long the game's clock runs on from ``time_ms`` with no change: the idle
        gap less the pause ``time_ms`` already counts (0 once the game is over). A
        client's clock adds at most this, so it shows what the next move will count."""
        if rec.status != GameStatus.PLAYING:
            return 0
        if written:
            return self.idle_gap_ms
        return max(0, self.idle_gap_ms - max(0, self.clock.now_ms() - rec.updated))

    def seed_hidden(self, rec: Record) -> bool:
        """Whether the game's seed is still secret: on a daily deal until the day is
        over, in a race until the race is over for every member (a member who left
        early could otherwise deal the same layout elsewhere and solve it), in a
        challenge until the challenge closes and its player's game is over (a player
        who resigned at once could otherwise solve the deal for another account)."""
        return (
            (bool(rec.date) and not self.dailies.revealed(rec.date))
            or (bool(rec.race) and not rec.race_over)
            or tournament_secret(rec)
            or self.challenge_hidden(rec)
        )

    def solver_helps(self, rec: Record) -> bool:
        """Whether the solver may search this game for its player (``hint``, a
        searched ``finish``): only where the deal is no longer anyone else's to play —
        not on today's daily (any play of it), in a race, or on a challenge, whose
        deal other players are playing now: the solver's line from it would be
        theirs too, copied by a second account."""
        return not self.seed_hidden(rec)

    def challenge_hidden(self, rec: Record) -> bool:
        """Whether a challenge game's seed is still secret: until the challenge closes
        (expires, or its creator closes it) and the game is over."""
        return rec.mode is Mode.CHALLENGE and (
            rec.status == GameStatus.PLAYING or self.clock.now_ms() < reveal_at(rec)
        )

    def _tail(self, rec: Record) -> dict[str, Any]:
        """The state object's fields after ``legal`` (``auto_completed`` and ``out``
        only when set)."""
        tail: dict[str, Any] = {
            "clean": rec.clean,
            "ranked": rec.ranked,
            "assisted": assisted(rec),
            "hints": self.solver_helps(rec),
            "date": rec.date or None,
        }
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
            "assisted": assisted_summary(raw),
            "out": text("out"),
            "time_ms": active_time(
                int(raw["active"]) if raw["active"] is not None else -1,
                created=num("created"),
                updated=num("updated"),
                finished=num("updated") if raw["status"] != b"playing" else 0,
                now=self.clock.now_ms(),
                gap=self.idle_gap_ms,
            ),
        }
