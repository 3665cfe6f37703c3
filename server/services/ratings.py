"""Ratings from races (issue 51): every player has a rating at each game, moved by the
races they finish on a deal nobody could see in advance.

The rating is openskill's Plackett–Luce model (a Bayesian skill ``mu`` with its
uncertainty ``sigma``, for any number of players, with ties): each rated race gives
the members' final order to the library, which moves each member's rating; no formula
of ours. What players see (:func:`shown`) is the conservative estimate ``mu - 3·sigma``
(openskill's ordinal) scaled: ``BASE + SCALE·ordinal``, so a new player starts at
1500 and rises as their results and the fewer unknowns allow. A player is provisional
(shown with "?") for their first :data:`PROVISIONAL_RACES` rated races, and only then
on the game's rating board.

Which races are rated, and how (docs/protocol.md, "Fair play"):

- only a race on a fresh deal the server drew when it was made: not one on a chosen
  seed, not one on a daily deal (which others may have played already that day);
- the final order: the winners by place, then the others by cards founded (equal
  counts tie); a member who left the running race (``race_leave``), or whose game was
  given up because they were away (``timed_out``) or dropped (``dropped``), is placed
  last, below every finisher;
- members who joined from one client address (``client_address``, issue 36; recorded
  when they joined) do not move each other's ratings: each member is rated against
  the members of other addresses only, and a member with none is not rated by the race
  (so a solo race, or one between accounts of one address, moves nothing).

A race is rated once, whichever instances see it end: the ratings it moves and its
outcome are written by one compare-and-set script under the game's hash tag
(``RatingStore.rate_race``); a second caller gets the outcome written first, and a
rating moved in between (another race of the same player) makes it read again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from protocol import ErrorCode, ProtocolError

from ..patience import registry
from ..store import Store

#: rated races before a player's rating is established (shown without "?")
PROVISIONAL_RACES = 5
#: what a displayed rating is: BASE + SCALE × (mu − 3·sigma)
BASE, SCALE = 1500, 40
#: how long a race's outcome is kept (past the race's own day in Redis)
OUTCOME_TTL_MS = 2 * 86_400_000
#: members who left a running race (``left``: ``race_leave``), or whose game the
#: server gave up because they were away or dropped: placed last
LEFT = frozenset({"left", "timed_out", "dropped"})

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float
    races: int

    @classmethod
    def parse(cls, text: str) -> Skill:
        if not text:
            return cls(MODEL.mu, MODEL.sigma, 0)
        mu, sigma, races = text.split("|")
        return cls(float(mu), float(sigma), int(races))

    def pack(self) -> str:
        return f"{self.mu!r}|{self.sigma!r}|{self.races}"

    @property
    def value(self) -> int:
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.races < PROVISIONAL_RACES

    def wire(self) -> dict[str, Any]:
        """The ``Rating`` object (docs/protocol.md)."""
        return {
            "value": self.value,
            "uncertainty": round(SCALE * self.sigma),
            "races": self.races,
            "provisional": self.provisional,
        }


def rated(info: Mapping[str, bytes]) -> bool:
    """Whether a race (its hash) is on a deal nobody could see in advance: made on a
    fresh deal (``rates``, by a server that notes its members' addresses), not on a
    chosen seed or a daily."""
    return info.get("rates") == b"1" and not info.get("chosen") and not info.get("date")


def ranks(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each member's rank in the race's final order (1 best; equal ranks tie)."""
    out: dict[str, int] = {}
    placed = sorted((r for r in rows if r.get("place")), key=lambda r: int(r["place"]))
    for r in placed:
        out[r["player"]] = int(r["place"])
    after = len(placed)
    rest = [r for r in rows if not r.get("place") and r.get("out") not in LEFT]
    counts = sorted({int(r["foundation"]) for r in rest}, reverse=True)
    for r in rest:
        out[r["player"]] = after + 1 + counts.index(int(r["foundation"]))
    last = after + len(counts) + 1
    for r in rows:
        if r["player"] not in out:
            out[r["player"]] = last
    return out


def moved(
    skills: Mapping[str, Skill], rank: Mapping[str, int], address: Mapping[str, str]
) -> dict[str, Skill]:
    """The new skill of each member the race rates: against the members of other
    addresses (an unknown address is its own); members with none are left out."""
    out: dict[str, Skill] = {}
    for player, skill in skills.items():
        mine = address.get(player) or ""
        field = [player] + [
            q for q in skills if q != player and (not mine or address.get(q) != mine)
        ]
        if len(field) < 2:
            continue
        teams = [[MODEL.rating(mu=skills[q].mu, sigma=skills[q].sigma)] for q in field]
        new = MODEL.rate(teams, ranks=[rank[q] for q in field])[0][0]
        out[player] = Skill(float(new.mu), float(new.sigma), skill.races + 1)
    return out


class Ratings:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def of(self, slug: str, players: Sequence[str]) -> dict[str, Skill]:
        """Each player's skill at ``slug`` (a new one for a player with none)."""
        texts = await self.store.ratings(slug, players)
        return {p: Skill.parse(t) for p, t in zip(players, texts, strict=True)}

    async def shown(self, players: Sequence[str]) -> list[dict[str, dict[str, Any]]]:
        """Each player's ratings, slug → ``Rating``, at the games they have one
        (``stats`` and ``friends``)."""
        rows = await self.store.players_ratings(players, sorted(registry.slugs()))
        return [{s: Skill.parse(t).wire() for s, t in row.items()} for row in rows]

    async def rate(
        self,
        slug: str,
        rid: str,
        rows: Sequence[Mapping[str, Any]],
        address: Mapping[str, str],
    ) -> dict[str, dict[str, Any]]:
        """Rate a finished race once (see the module): each member → ``{"rating",
        "change"}`` (``change`` None when the race did not move them)."""
        players = [str(r["player"]) for r in rows]
        rank = ranks(rows)
        for _ in range(50):
            done = await self.store.rating_outcome(slug, rid)
            if done is not None:
                return dict(json.loads(done))
            texts = await self.store.ratings(slug, players)
            skills = {p: Skill.parse(t) for p, t in zip(players, texts, strict=True)}
            new = moved(skills, rank, address)
            outcome = {
                p: {
                    "rating": new.get(p, skills[p]).wire(),
                    "change": new[p].value - skills[p].value if p in new else None,
                }
                for p in players
            }
            text = json.dumps(outcome, sort_keys=True)
            writes = [
                (
                    p.casefold(),
                    texts[players.index(p)],
                    s.pack(),
                    "" if s.provisional else str(s.value),
                    p,
                )
                for p, s in new.items()
            ]
            code, written = await self.store.rate_race(slug, rid, text, writes, OUTCOME_TTL_MS)
            if code >= 0:
                return dict(json.loads(written))
        raise RuntimeError(f"race {rid}: ratings kept moving while it was rated")

    async def board(
        self,
        slug: str,
        *,
        limit: int,
        cursor: str | None,
        around_me: bool,
        player: str | None,
        among: list[str] | None = None,
    ) -> dict[str, Any]:
        """A page of the game's rating board (``leaderboard`` with ``board: rating``):
        the players past provisional, highest first."""
        if among is not None:
            skills = await self.of(slug, among)
            ranked = sorted(
                ((p, s) for p, s in skills.items() if not s.provisional),
                key=lambda ps: (-ps[1].value, ps[0]),
            )
            rows = [(p, s.value) for p, s in ranked]
            size = len(rows)
            mine = next((i for i, (p, _) in enumerate(rows) if p == player), None)
        else:
            size = await self.store.rating_size(slug)
            mine = await self.store.rating_rank(slug, player) if player else None
            rows = []
        if cursor is not None:
            if not cursor.isdigit() or len(cursor) > 9:
                raise ProtocolError(
                    ErrorCode.BAD_REQUEST,
                    "'cursor' is not a cursor of this board",
                    key="error.bad_cursor",
                )
            start = int(cursor)
        elif around_me and mine is not None:
            start = max(0, mine - limit // 2)
        else:
            start = 0
        if among is not None:
            page = [(p, float(v)) for p, v in rows[start : start + limit]]
        else:
            page = await self.store.rating_page(slug, start, start + limit - 1)
        skills = await self.of(slug, [p for p, _ in page] + ([player] if player else []))
        entries = [
            {"rank": start + i + 1, "player": p, "rating": skills[p].wire()}
            for i, (p, _) in enumerate(page)
        ]
        me = None
        if player is not None and mine is not None:
            me = {"rank": mine + 1, "player": player, "rating": skills[player].wire()}
        return {
            "game": slug,
            "board": "rating",
            "date": None,
            "entries": entries,
            "me": me,
            "cursor": str(start + limit) if start + limit < size else None,
            "total": size,
            "friends": among is not None,
        }
