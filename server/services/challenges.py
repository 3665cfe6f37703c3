"""Challenges: friends who are not online together play the same deal, each when
they like, and compare results.

A challenge is a deal (a game and its seed) under a short code, and the results of
those who played it. Made from a finished game of its creator (``challenge_create``
with ``game_id``: that game's result is the mark to beat) or from a deal alone (a
``game``, with or without a ``seed``: nobody has a mark yet). Anyone with the code
plays the deal once (``challenge_accept``): a game of mode ``challenge``, whose seed
is hidden from its player until it is over, as a race's is, and which follows the
rules of play of a compared game (``games.compared``: undo takes back no move that
showed a card, ``finish`` plays only a trivially won rest unless ``assist``); hints
are allowed but mark the result ``assisted``. When such a game ends its result is
noted in the challenge (once: a listener of finished games, ``Changes``) and the creator is told
(``challenge_result``, through the ``ch:chal`` channel, by the instance they are
connected to).

Nobody learns the deal before the challenge **closes** (its code expires, or its
creator closes it with ``challenge_close``): not its seed, which its players' states,
replays and the challenge object show only then (a second account that resigned at
once could otherwise solve the deal for the first), nor its cards beyond what a
player saw of their own game. Results are final when it closes: none is noted after.
A challenge says who could know its seed: ``seed_known`` (its creator could see it
while playing: a practice or ``deal`` mark, a daily played on after its day, a chosen
seed), whose results then rank apart (``rank`` null), and ``seed_public`` (others may
have seen it: a past daily's deal, a race's once the race was over, another
challenge's once it closed). A challenge of a daily whose day is not over yet is made
at once and ``opens`` to accepters when the day closes.

Keys: ``chal:{CODE}`` (the challenge), ``:games`` (player → game id), ``:results``
(player → result); per player the challenges they made or accepted, their open ones
(``challenge_open`` at most at once) and how many results of each they have seen
(what is *unread*). A code lasts ``challenge_days`` (by the service's clock; its keys
a day longer in Redis, so a closed challenge still shows for a day).
"""

from __future__ import annotations

import base64
import bisect
import datetime as dt
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError, pack, unpack

from ..store import Store
from .clock import Clock, day_end_ms
from .games import Games
from .records import Record, assisted, find_game, tournament_secret
from .views import reveal_at

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_ALPHABET = CODE_LETTERS + "23456789"
CODE_LENGTH = 8
#: challenges listed per player (made or accepted); older ones drop off the list
KEPT = 200
#: how long a challenge's keys outlive its code in Redis (a result being written
#: as it expires still finds them), in ms
GRACE_MS = 86_400_000
DAY_MS = 86_400_000
#: how long a player's ``challenges`` is answered again as it was, in ms: a list of 100
#: reads 300 Redis values, 13 moves' worth of the server's CPU (bench.op_costs), which
#: a flood of it would repeat 50 times a second. What the player does through this
#: server (create, accept, view a challenge) lists afresh.
FRESH_MS = 2000
#: players whose last list is kept
LISTS_KEPT = 1024


def new_code() -> str:
    """A fresh code: a letter, then letters and digits that are not look-alikes."""
    rest = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))
    return secrets.choice(CODE_LETTERS) + rest


def challenge_game_id(code: str, player: str) -> str:
    """The id of ``player``'s game on challenge ``code``: the same on every instance
    (two accepts at once make one game), of the id alphabet whatever the name's
    script, starting with the code's letter."""
    digest = hashlib.sha256(f"{code.upper()}\0{player}".encode()).digest()[:9]
    return f"{code.upper()}-{base64.urlsafe_b64encode(digest).decode()}"


def ranked(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Results in the order races and boards rank them, each with its ``rank``: wins
    first, by fewer moves, then less time; then losses by more cards founded (losses
    that founded as many share a rank); ties listed by earlier finish. A result whose
    player could see the seed (``seed_known``) ranks apart: after the others, in the
    same order, ``rank`` null."""

    def key(r: Mapping[str, Any]) -> tuple[int, int, int]:
        if r["won"]:
            return (0, int(r["moves"]), int(r["time_ms"]))
        return (1, -int(r["foundation"]), 0)

    out = sorted(results, key=lambda r: (key(r), int(r.get("finished") or 0)))
    clean = [r for r in out if not r.get("seed_known")]
    keys = [key(r) for r in clean]  # in order: those before a key are bisected, not counted
    rows = [
        {**r, "rank": 1 + bisect.bisect_left(keys, k)} for r, k in zip(clean, keys, strict=True)
    ]
    return rows + [{**r, "seed_known": True, "rank": None} for r in out if r.get("seed_known")]


def _text(value: bytes | None) -> str:
    return value.decode() if value else ""


def _ms(info: Mapping[str, bytes], name: str) -> int:
    return int(info.get(name) or 0)


def _flag(info: Mapping[str, bytes], name: str) -> bool:
    return info.get(name) == b"1"


class Challenges:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        games: Games,
        *,
        days: float = 30.0,
        most_open: int = 20,
    ) -> None:
        self.store = store
        self.clock = clock
        self.games = games
        #: how long a code lasts, in ms
        self.ttl_ms = int(days * DAY_MS)
        self.most_open = most_open
        #: player → (listed at, limit, their ``challenges``)
        self._lists: OrderedDict[str, tuple[int, int, dict[str, Any]]] = OrderedDict()
        #: a challenge's full link (``Links.challenge``)
        self.url: Callable[[str], str] = link
        #: told of a result for a challenge's creator: (creator, the result's news)
        self.on_result: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None

    # -- ops ----------------------------------------------------------------------------

    async def create(
        self, player: str, *, game_id: str | None, slug: str | None, seed: int | None
    ) -> dict[str, Any]:
        """``challenge_create``: ``{"challenge": …}`` (see :meth:`view`)."""
        now = self.clock.now_ms()
        mark: dict[str, Any] | None = None
        opens = 0
        if game_id is not None:
            rec, raw = await self._source(player, game_id)
            slug, seed = rec.game.slug, rec.seed
            chosen = await self._chosen(rec, raw)
            known = chosen or await self._known(rec, raw)
            public = bool(rec.date or rec.race) or rec.mode is Mode.CHALLENGE
            if rec.date and not self.games.dailies.revealed(rec.date):
                opens = day_end_ms(rec.date)  # today's daily: it opens when the day closes
            mark = {**self.result(rec, raw), "mark": True, "seed_known": known}
        else:
            assert slug is not None
            find_game(slug)
            chosen = known = seed is not None
            public = False
            if seed is None:
                seed = secrets.randbits(64)
        fields: dict[str, str | int] = {
            "game": slug,
            "seed": seed,
            "creator": player,
            "created": now,
            "expires": now + self.ttl_ms,
            "chosen": int(chosen),
            "known": int(known),
            "public": int(public),
            "opens": opens,
            "source": game_id or "",
        }
        for _ in range(8):
            code = new_code()
            if await self.store.create_challenge(code, fields, self.ttl_ms + GRACE_MS):
                break
        else:
            raise ProtocolError(
                ErrorCode.INTERNAL, "no free challenge code; try again", key="error.no_free_code"
            )
        first = await self.store.count_open_challenge(
            player, code, now, now + self.ttl_ms, self.most_open
        )
        if first:
            await self.store.drop_challenge(code)
            when = dt.datetime.fromtimestamp(first / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"you have {self.most_open} open challenges, the most a player may have: "
                f"the oldest expires on {when} UTC",
                key="error.challenge_limit",
                params={"n": self.most_open, "when": when},
            )
        if mark is not None:
            await self.store.challenge_result(code, player, pack(mark), self.ttl_ms + GRACE_MS)
        await self.store.player_challenge(player, code, now, KEPT)
        self._lists.pop(player, None)
        return {"challenge": await self.view(player, code)}

    async def accept(self, player: str, code: str) -> dict[str, Any]:
        """``challenge_accept``: the challenge and ``state``, the player's game on its
        deal (made once; accepting again gives the same game, in play or over)."""
        code = code.upper()
        info, games, _ = await self._found(code)
        creator = _text(info.get("creator"))
        if player == creator and info.get("source"):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "your own result is this challenge's mark: share the code with friends",
                key="error.own_challenge",
            )
        if player not in games:  # a newcomer: only to an open challenge
            self._open_now(code, info)
        game = find_game(_text(info.get("game")))
        gid = await self.store.claim_challenge_game(
            code, player, challenge_game_id(code, player), self.ttl_ms + GRACE_MS
        )
        rec = await self.games.create(player, game, int(info["seed"]), Mode.CHALLENGE, gid=gid)
        # Its seed is shown when the challenge closes: when it expires, unless its
        # creator closes it sooner (``close`` moves this on every game of it).
        closes = _ms(info, "closed") or _ms(info, "expires")
        await self.store.set_game_fields(gid, {"challenge": code, "reveal_at": closes})
        self.games.cache.pop(gid, None)
        rec = replace(rec, reveal_at=closes)
        if rec.status != GameStatus.PLAYING:  # over at the deal: noted now it is tagged
            await self.finished(rec)
        await self.store.player_challenge(player, code, self.clock.now_ms(), KEPT)
        self._lists.pop(player, None)
        state = await self.games.resume(player, gid)
        return {"challenge": await self.view(player, code), "state": state}

    async def close(self, player: str, code: str) -> dict[str, Any]:
        """``challenge_close``: its creator closes the challenge now: nobody accepts it
        any more, its results are final (a game still in play is noted nowhere), and
        its seed is shown to its players (in each game, once that game is over)."""
        code = code.upper()
        info, games, _ = await self._found(code)
        if _text(info.get("creator")) != player:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "only the challenge's creator closes it",
                key="error.creator_only",
            )
        now = self.clock.now_ms()
        if not self._closed(info) and await self.store.close_challenge(code, player, now):
            for gid in games.values():
                await self.store.set_game_fields(gid, {"reveal_at": now})
                self.games.cache.pop(gid, None)
            for listed in (player, *games):
                self._lists.pop(listed, None)
        return {"challenge": await self.view(player, code)}

    async def show(self, player: str, code: str) -> dict[str, Any]:
        """``challenge``: the challenge as ``player`` sees it; its results are read."""
        view = await self.view(player, code.upper())
        others = sum(1 for r in view["results"] if r["player"] != player)
        await self.store.see_challenge(player, view["code"], others)
        self._lists.pop(player, None)
        return {"challenge": {**view, "unread": 0}}

    async def preview(self, code: str) -> dict[str, Any]:
        """``challenge`` before signing in: the challenge as a player who has neither
        made nor played it sees it (no seed until it closes); nothing is marked read."""
        return {"challenge": {**await self.view("", code.upper()), "unread": 0}}

    async def mine(self, player: str, limit: int) -> dict[str, Any]:
        """``challenges``: the challenges ``player`` made or accepted, newest first, each
        with its ``unread`` results (others' results not yet seen with ``challenge``);
        as listed up to :data:`FRESH_MS` before."""
        now = self.clock.now_ms()
        kept = self._lists.get(player)
        if kept is not None and kept[1] == limit and now - kept[0] < FRESH_MS:
            return kept[2]
        codes = await self.store.player_challenge_codes(player, limit)
        seen = await self.store.challenges_seen(player)
        out: list[dict[str, Any]] = []
        for code, (info, games, results) in zip(
            codes, await self.store.challenges(codes), strict=True
        ):
            if not info:
                continue  # gone from Redis
            rows = ranked([unpack(v) for v in results.values()])
            others = sum(1 for r in rows if r["player"] != player)
            leader = next((r["player"] for r in rows if r["rank"] is not None), None)
            out.append(
                {
                    "code": code,
                    "link": link(code),
                    "url": self.url(code),
                    "game": _text(info.get("game")),
                    "creator": _text(info.get("creator")),
                    "created": _ms(info, "created"),
                    "expires": _ms(info, "expires"),
                    "expired": now >= _ms(info, "expires"),
                    "closed": self._closed(info),
                    "opens": self._opens(info),
                    "seed_known": _flag(info, "known"),
                    "seed_public": _flag(info, "public"),
                    "results": len(rows),
                    "leader": leader,
                    "played": player in results,
                    "game_id": games.get(player),
                    "unread": max(0, others - seen.get(code, 0)),
                }
            )
        listed = {"challenges": out, "unread": sum(c["unread"] for c in out)}
        self._lists[player] = (now, limit, listed)
        self._lists.move_to_end(player)
        while len(self._lists) > LISTS_KEPT:
            self._lists.popitem(last=False)
        return listed

    # -- the challenge object -----------------------------------------------------------

    async def view(self, player: str, code: str) -> dict[str, Any]:
        """The ``challenge`` object of docs/protocol.md, as ``player`` sees it: the seed
        only once it is closed, or to its creator when they know it anyway (a chosen
        seed; their mark's, once their own game shows it)."""
        info, games, results = await self._found(code)
        rows = ranked([unpack(v) for v in results.values()])
        creator = _text(info.get("creator"))
        closed = self._closed(info)
        mine = bool(info.get("source")) and self._opens(info) is None
        knows = closed or (player == creator and (_flag(info, "chosen") or mine))
        playing = sorted(p for p in games if p not in results)
        others = sum(1 for r in rows if r["player"] != player)
        seen = (await self.store.challenges_seen(player)).get(code, 0) if player else 0
        return {
            "code": code,
            "link": link(code),
            "url": self.url(code),
            "game": _text(info.get("game")),
            "creator": creator,
            "created": _ms(info, "created"),
            "expires": _ms(info, "expires"),
            "opens": self._opens(info),
            "closed": closed,
            "seed_chosen": _flag(info, "chosen"),
            "seed_known": _flag(info, "known"),
            "seed_public": _flag(info, "public"),
            "seed": int(info["seed"]) if knows else None,
            "mark": any(r.get("mark") for r in rows),
            "results": rows,
            "playing": playing,
            "played": player in results,
            "game_id": games.get(player),
            "unread": max(0, others - seen),
        }

    def result(self, rec: Record, raw: Mapping[str, bytes]) -> dict[str, Any]:
        """A finished game's result as a challenge lists it."""
        won = rec.status == GameStatus.WON
        return {
            "player": rec.player,
            "status": str(rec.status),
            "won": won,
            "foundation": rec.foundation,
            "total": rec.game.total,
            "moves": rec.moves,
            "time_ms": self.games.views.time_ms(rec),
            "clean": rec.clean,
            "assisted": assisted(rec),
            "auto_completed": rec.auto_completed,
            "out": rec.out or None,
            "finished": rec.finished or rec.updated,
        }

    # -- a challenge game ends ------------------------------------------------------------

    async def finished(self, rec: Record) -> None:
        """Note a finished challenge game's result (once), and tell the creator (a
        listener of finished games: any other game is none of its business)."""
        if rec.mode is not Mode.CHALLENGE:
            return
        raw = await self.store.game(rec.gid)
        if raw is None:
            return
        code = _text(raw.get("challenge"))
        if not code:
            return  # not tagged yet: ``accept`` notes it
        info, _, _ = await self.store.challenge(code)
        if not info or self._closed(info):
            return  # its results were final when it closed
        result = self.result(rec, raw)
        creator = _text(info.get("creator"))
        if rec.player == creator and _flag(info, "known"):
            result["seed_known"] = True  # they chose the seed: their result ranks apart
        if not await self.store.challenge_result(
            code, rec.player, pack(result), self.ttl_ms + GRACE_MS
        ):
            return
        for player in (rec.player, creator):
            self._lists.pop(player, None)
        if creator == rec.player:
            return
        _, _, results = await self.store.challenge(code)
        rows = ranked([unpack(v) for v in results.values()])
        mine = next(r for r in rows if r["player"] == rec.player)
        others = sum(1 for r in rows if r["player"] != creator)
        seen = (await self.store.challenges_seen(creator)).get(code, 0)
        event = {
            "code": code,
            "game": _text(info.get("game")),
            "player": rec.player,
            "result": mine,
            "results": len(rows),
            "unread": max(0, others - seen),
        }
        news = {"creator": creator, "event": event}
        await self.store.publish(self.store.keys.challenge_channel(), pack(news))
        if self.on_result is not None:
            await self.on_result(creator, event)

    # -- helpers ------------------------------------------------------------------------

    async def _found(self, code: str) -> tuple[dict[str, bytes], dict[str, str], dict[str, bytes]]:
        """The challenge of ``code``, open or closed (its keys outlive its closing by a
        day); ``not_found`` when there is none."""
        info, games, results = await self.store.challenge(code)
        if not info or not info.get("seed"):
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no challenge has the code {code!r}",
                key="error.no_challenge",
                params={"code": code},
            )
        return info, games, results

    def _closed(self, info: Mapping[str, bytes]) -> bool:
        """Whether the challenge is closed: expired, or closed by its creator."""
        return bool(info.get("closed")) or self.clock.now_ms() >= _ms(info, "expires")

    def _opens(self, info: Mapping[str, bytes]) -> int | None:
        """When a challenge not open yet opens to accepters (ms), else None."""
        opens = _ms(info, "opens")
        return opens if opens > self.clock.now_ms() else None

    def _open_now(self, code: str, info: Mapping[str, bytes]) -> None:
        """Refuse a newcomer unless the challenge takes one now."""
        if self.clock.now_ms() >= _ms(info, "expires"):
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"the challenge {code} has expired",
                key="error.challenge_expired",
                params={"code": code},
            )
        if info.get("closed"):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the challenge {code} was closed by its creator: its results are final",
                key="error.challenge_closed_final",
                params={"code": code},
            )
        opens = self._opens(info)
        if opens is not None:
            when = dt.datetime.fromtimestamp(opens / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the challenge {code} is on a daily whose day is not over: it opens at "
                f"{when} UTC, once the deal ranks for nobody",
                key="error.challenge_not_open",
                params={"code": code, "when": when},
            )

    async def _source(self, player: str, gid: str) -> tuple[Record, dict[str, bytes]]:
        """The finished game of ``player`` a challenge is made from: not one whose
        deal is secret for long (a race still running, a challenge still open); a
        daily whose day is not over is (the challenge opens when the day closes)."""
        raw = await self.store.game(gid)
        if raw is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {gid!r}", key="error.no_game")
        rec = Record.load(gid, raw)
        if rec.player != player:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"game {gid} is not yours", key="error.not_yours"
            )
        if rec.status == GameStatus.PLAYING:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"game {gid} is still in play: finish it first, and its result is the mark to beat",
                key="error.challenge_in_play",
            )
        if tournament_secret(rec):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the deal of game {gid} is a tournament's: challenge it once it is over",
                key="error.challenge_tournament_secret",
            )
        if rec.race and not rec.race_over:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the deal of game {gid} is still secret (a race until it is over for "
                "everyone): challenge it then",
                key="error.challenge_race_secret",
            )
        if self.games.views.challenge_hidden(rec):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the deal of game {gid} is still secret (a challenge's until that "
                "challenge closes): challenge it then",
                key="error.challenge_challenge_secret",
            )
        return rec, raw

    async def _known(self, rec: Record, raw: Mapping[str, bytes]) -> bool:
        """Whether the source game's player could see its seed while playing it: a
        practice game (its seed is shown), a daily played on after its day closed, a
        challenge game whose challenge its creator knew the seed of or that closed
        before the game ended (a ``deal`` game's and a chosen seed are ``_chosen``)."""
        if rec.mode is Mode.PRACTICE:
            return True
        if rec.date and rec.finished >= day_end_ms(rec.date):
            return True
        code = _text(raw.get("challenge"))
        if code:
            if rec.finished >= reveal_at(rec):
                return True
            info, _, _ = await self.store.challenge(code)
            return _flag(info, "known")
        return False

    async def _chosen(self, rec: Record, raw: Mapping[str, bytes]) -> bool:
        """Whether the source game's seed was chosen by a player: a ``deal`` game, a
        race on a chosen seed, a challenge on one."""
        if rec.mode is Mode.DEAL:
            return True
        if rec.race:
            info, _, _, _ = await self.store.race(rec.race)
            return info.get("chosen") == b"1"
        code = _text(raw.get("challenge"))
        if code:
            info, _, _ = await self.store.challenge(code)
            return info.get("chosen") == b"1"
        return False


def link(code: str) -> str:
    """The link form of a code: the fragment a web client opens."""
    return f"#challenge/{code}"
