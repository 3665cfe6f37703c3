"""Redis bytes of a year of play (issue 50, "Memory of a year").

On a fresh redis-server of its own (loopback, no persistence) the real services play
realistic games, and Redis is asked what each thing costs:

- **players**: ``--players`` accounts (name, token, look-alike key), each following
  ``--follows`` others; their statistics and ratings as play fills them;
- **a game of each patience**, won and lost, at a sensible player's length (the
  greedy player of ``bench/winrate.py``: a deal it wins, a deal it does not win, played
  to its end and resigned when it stops; for a game the greedy player never wins, the
  solver's certified line of a deal, shorter than a person's): the game's hash and
  log as kept today (unpacked), then packed (``server/store/packing.py``);
- **practice games** (``--practice``): whole, packed, and summarised past their
  retention;
- **a day of dailies**: the sixteen choices (``daily:{date}``: seeds, commitments,
  lines), and every one of ``--players`` players playing the daily of
  ``--daily-game`` ranked (one day's board of them all, the all-time board, their
  claims);
- **races** (``--races`` of ``--race-size`` players, fresh deals, rated): the race's
  keys and the ratings they move;
- **a year's player**: one account playing ``--year-games`` games over a year (three
  a day), for what grows with every game a player ever played (their list of games,
  the set of games counted in their statistics, the statistics' days).

Bytes are ``MEMORY USAGE key SAMPLES 0`` (the key's value, its name and Redis's
object headers; not the keyspace's own table entry) summed by key family, and
``INFO`` ``used_memory`` before and after each phase (everything, allocator rounding
and the keyspace table included). From them, the RAM of a year of 100,000 and of
1,000,000 daily players under the mix stated in the output (``--json`` has every
figure; ``--save`` writes ``bench/redis_memory_baseline.json``; ``--compare`` prints
the baseline's figures beside).

    python -m bench.redis_memory [--players 200] [--json] [--save] [--compare]

Bounded: one to two minutes of CPU with the defaults (5–7 minutes of wall time on
the 2-core machine shared with other work at a load of 10–17); ``--daily-nodes``
bounds the dailies' choice, ``--seed-tries``, ``--win-seeds`` and ``--win-nodes`` the
search for deals won; smaller ``--players``, ``--year-games`` and ``--practice``
shorten the rest. The year's RAM is a model of the
measured figures (``year_model``: the mix of games a day is :data:`MIX`), not a year
played.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.winrate import Greedy
from deploy.procs import RedisProcess
from protocol import GameStatus, Mode
from server.patience import registry
from server.patience.engine import AnyGame, AnyState, Move
from server.services import FakeClock, Services
from server.settings import Settings
from server.solver import jobs
from server.solver.daily import Budget
from server.store import Store

BASELINE = Path(__file__).with_name("redis_memory_baseline.json")
PREFIX = "m:"
DAY_MS = 86_400_000
#: moves a greedy game is cut at (a game that goes round without end)
MOST_MOVES = 600


# -- playing ----------------------------------------------------------------------------


def greedy_line(game: AnyGame, state: AnyState) -> list[Move]:
    """The moves the greedy player of ``bench/winrate.py`` makes from ``state`` until it
    wins, has no move, or would repeat itself (where it resigns)."""
    policy = Greedy(game)
    seen = {policy.key(state)}
    last: Move | None = None
    line: list[Move] = []
    while len(line) < MOST_MOVES:
        legal = game.legal_moves(state)
        if not legal:
            break
        for move in sorted(legal, key=lambda m: policy.rank(m, last)):
            after = game.apply(state, move)
            if policy.key(after) not in seen:
                break
        else:
            break
        state, last = after, move
        seen.add(policy.key(state))
        line.append(move)
    return line


def seed_that(game: AnyGame, wins: bool, tries: int = 60) -> int | None:
    """The first seed (0, 1, …) whose deal the greedy player wins (or does not)."""
    for seed in range(tries):
        state = game.deal(seed)
        for move in greedy_line(game, state):
            state = game.apply(state, move)
        if (game.status(state) == GameStatus.WON) == wins:
            return seed
    return None


def solver_win(game: AnyGame, args: argparse.Namespace) -> tuple[int, list[Move]] | None:
    """A deal the greedy player does not win, won along the solver's certified line
    (within ``--win-nodes``): the seed and the line."""
    for seed in range(args.win_seeds):
        found = jobs.find_line(game.slug, game.dumps(game.deal(seed)), args.win_nodes, 10.0)
        if found.line:
            return seed, [game.parse_move(wire) for wire in found.line]
    return None


async def play_line(services: Services, player: str, gid: str, line: list[Move]) -> None:
    games = services.games
    for move in line:
        rec = await games.owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            break
        await games.move(player, gid, rec.seq, move.to_wire())
        games.clock.advance(seconds=1)  # type: ignore[attr-defined]


async def play_out(services: Services, player: str, state: dict[str, Any]) -> str:
    """Play a started game greedily to its end (resigned when the player stops): its id."""
    games = services.games
    gid = str(state["game_id"])
    rec = await games.owned(gid, player)
    for move in greedy_line(rec.game, rec.state):
        rec = await games.owned(gid, player, rec.seq)
        if rec.status != GameStatus.PLAYING:
            break
        rec = (await games.move(player, gid, rec.seq, move.to_wire())).after
        games.clock.advance(seconds=1)  # type: ignore[attr-defined]
    if (await games.owned(gid, player)).status == GameStatus.PLAYING:
        await games.resign(player, gid)
    return gid


# -- measuring --------------------------------------------------------------------------

_SLUGS = "|".join(sorted(registry.slugs(), key=len, reverse=True))
_PATTERNS = [
    (re.compile(r"\{[^}]*\}"), "{…}"),
    (re.compile(r"\d{4}-\d{2}-\d{2}"), "DATE"),
    (re.compile(rf"(?<=[:{{])({_SLUGS})(?=[:}}]|$)"), "SLUG"),
    (re.compile(r":\d+(?=:|$)"), ":N"),
    (re.compile(r":race:[\w-]+$"), ":race:ID"),
]


def family(key: str) -> str:
    """A key's family: its name with the varying parts (hash tag, date, game, number)
    written as placeholders."""
    key = key.removeprefix(PREFIX)
    for pattern, placeholder in _PATTERNS:
        key = pattern.sub(placeholder, key)
    return key


class Meter:
    def __init__(self, store: Store) -> None:
        self.redis = store.redis

    async def used(self) -> int:
        return int((await self.redis.info("memory"))["used_memory"])

    async def usage(self, keys: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in range(0, len(keys), 500):
            batch = keys[i : i + 500]
            pipe = self.redis.pipeline(transaction=False)
            for key in batch:
                pipe.memory_usage(key, samples=0)
            for key, n in zip(batch, await pipe.execute(), strict=True):
                out[key] = int(n or 0)
        return out

    async def keys(self) -> list[str]:
        return [k.decode() async for k in self.redis.scan_iter(match=f"{PREFIX}*", count=1000)]

    async def families(self) -> dict[str, dict[str, int]]:
        sizes = await self.usage(await self.keys())
        out: dict[str, dict[str, int]] = defaultdict(lambda: {"keys": 0, "bytes": 0})
        for key, n in sizes.items():
            f = out[family(key)]
            f["keys"] += 1
            f["bytes"] += n
        return dict(sorted(out.items()))

    async def encoding(self, key: str) -> str:
        raw = await self.redis.object("encoding", key)
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    async def game(self, store: Store, gid: str) -> int:
        """A game's own bytes: its hash, its log, its packed string."""
        keys = [store.keys.game(gid), store.keys.game_log(gid), store.keys.game_packed(gid)]
        return sum((await self.usage(keys)).values())


@dataclass
class Report:
    redis_version: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    per_game: list[dict[str, Any]] = field(default_factory=list)
    figures: dict[str, float] = field(default_factory=dict)
    phases: dict[str, int] = field(default_factory=dict)
    families: dict[str, dict[str, int]] = field(default_factory=dict)
    year: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def mean(xs: list[int] | list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


# -- the phases -------------------------------------------------------------------------


async def measure(args: argparse.Namespace) -> Report:
    report = Report(settings={k: v for k, v in vars(args).items() if k not in ("save",)})
    rnd = random.Random(50)
    started = time.perf_counter()
    with RedisProcess() as server:
        store = Store(server.url, prefix=PREFIX)
        clock = FakeClock("2026-03-14T08:00:00")
        services = Services.build(
            store,
            clock,
            budget=Budget(args.daily_nodes // 10, args.daily_nodes),
            countdown=0.0,
            daily_wait=600.0,
            limits=Settings(),
        )
        assert services.compaction is not None
        compaction = services.compaction
        compaction.at_finish = False  # measured unpacked first, packed after
        meter = Meter(store)
        info = await store.redis.info("server")
        report.redis_version = str(info["redis_version"])
        try:
            await phases(args, report, services, store, meter, rnd)
        finally:
            await services.races.close()
            await store.close()
    report.seconds = round(time.perf_counter() - started, 1)
    year_model(report, args)
    return report


async def phases(
    args: argparse.Namespace,
    report: Report,
    services: Services,
    store: Store,
    meter: Meter,
    rnd: random.Random,
) -> None:
    fig, ph = report.figures, report.phases
    games, compaction = services.games, services.compaction
    assert compaction is not None
    say = print if args.verbose else (lambda *a, **k: None)
    base = await meter.used()

    # players, and whom they follow
    names = [f"p{i:06d}" for i in range(args.players)]
    for name in names:
        await services.accounts.register(name)
    for name in names:
        for other in rnd.sample(names, min(args.follows, len(names) - 1)):
            if other != name:
                await services.friends.add(name, other)
    ph["players"] = await meter.used() - base
    fams = await meter.families()
    account = ("pl:{…}", "tok:{…}", "alike:{…}")
    friends = ("pl:{…}:follows", "pl:{…}:followers")
    fig["account_bytes"] = sum(fams[f]["bytes"] for f in account if f in fams) / len(names)
    fig["friends_bytes"] = sum(fams[f]["bytes"] for f in friends if f in fams) / len(names)
    fig["player_used_memory"] = ph["players"] / len(names)
    say(f"players: {fig['account_bytes']:.0f} B account, {fig['friends_bytes']:.0f} B friends")

    # a game of each patience, won and lost, by the greedy player
    for slug in registry.slugs():
        game = registry.get(slug)
        for wins in (True, False):
            seed = seed_that(game, wins, args.seed_tries)
            solved = solver_win(game, args) if wins and seed is None else None
            if seed is None and solved is None:
                continue
            player = names[len(report.per_game) % len(names)]
            if solved is not None:
                seed, line = solved
                state = await games.start(player, slug, Mode.DEAL, seed)
                gid = str(state["game_id"])
                await play_line(services, player, gid, line)
            else:
                state = await games.start(player, slug, Mode.DEAL, seed)
                gid = await play_out(services, player, state)
            rec = await games.owned(gid, player)
            whole = await meter.game(store, gid)
            encoding = await meter.encoding(store.keys.game(gid))
            assert await compaction.compact(gid) == 1
            packed = await meter.game(store, gid)
            report.per_game.append(
                {
                    "game": slug,
                    "result": ("won (solver)" if solved else str(rec.status))
                    if wins
                    else "lost/resigned",
                    "seed": seed,
                    "moves": rec.moves,
                    "log": len(await store.game_log(gid)),
                    "whole_bytes": whole,
                    "packed_bytes": packed,
                    "encoding_whole": encoding,
                    "encoding_packed": await meter.encoding(store.keys.game(gid)),
                }
            )
            say(f"  {slug} {report.per_game[-1]['result']}: {whole} → {packed} B")
    won = [g for g in report.per_game if g["result"].startswith("won")]
    lost = [g for g in report.per_game if not g["result"].startswith("won")]
    fig["game_whole_bytes"] = mean([g["whole_bytes"] for g in report.per_game])
    fig["game_packed_bytes"] = mean([g["packed_bytes"] for g in report.per_game])
    fig["game_won_moves"] = mean([g["moves"] for g in won])
    fig["game_lost_moves"] = mean([g["moves"] for g in lost])

    # practice games: whole, packed, summarised
    before = await meter.used()
    gids = []
    for i in range(args.practice):
        player = names[i % len(names)]
        slug = registry.slugs()[i % len(registry.slugs())]
        gids.append(
            await play_out(services, player, await games.start(player, slug, Mode.PRACTICE, None))
        )
    whole_sizes = [await meter.game(store, g) for g in gids]
    ph["practice_whole"] = await meter.used() - before
    for gid in gids:
        await compaction.compact(gid)
    packed_sizes = [await meter.game(store, g) for g in gids]
    fig["practice_whole_bytes"] = mean(whole_sizes)
    fig["practice_packed_bytes"] = mean(packed_sizes)
    fig["practice_index_bytes"] = (await meter.usage([store.keys.practice_done()]))[
        store.keys.practice_done()
    ] / len(gids)
    games.clock.advance(days=int(compaction.retention_days) + 1)  # type: ignore[attr-defined]
    summarised = await compaction.sweep()
    fig["practice_summary_bytes"] = mean([await meter.game(store, g) for g in gids])
    say(
        f"practice: {mean(whole_sizes):.0f} → {mean(packed_sizes):.0f} → "
        f"{fig['practice_summary_bytes']:.0f} B ({summarised})"
    )

    # a day of dailies: the choices, then players' ranked attempts (from 01:00 UTC of
    # a new day, so that every attempt ends on its day and ranks)
    now = games.clock.now_ms()
    games.clock.advance(ms=DAY_MS - now % DAY_MS + 3_600_000)  # type: ignore[attr-defined]
    day = services.dailies.today()
    before = await meter.used()
    for slug in registry.slugs():
        await services.dailies.deal(day, slug)
    ph["daily_choices"] = await meter.used() - before
    fig["daily_choices_bytes"] = (await meter.usage([store.keys.daily(day)]))[store.keys.daily(day)]
    before = await meter.used()
    attempts = 0
    daily_gids = []
    for name in names:  # every player the same daily: one day's board of them all
        state = await games.start(name, args.daily_game, Mode.DAILY, None)
        daily_gids.append(await play_out(services, name, state))
        attempts += 1
    for gid in daily_gids:
        await compaction.compact(gid)
    ph["daily_attempts"] = await meter.used() - before
    keys = store.keys
    day_board = [keys.board(args.daily_game, day), keys.board_players(args.daily_game, day)]
    all_board = [keys.board(args.daily_game, "all"), keys.board_players(args.daily_game, "all")]
    sizes = await meter.usage(day_board + all_board)
    fams = await meter.families()
    claims = fams.get("pl:{…}:daily", {"bytes": 0})["bytes"]
    fig["daily_attempts"] = attempts
    fig["board_bytes_per_attempt"] = sum(sizes[k] for k in day_board) / attempts
    fig["alltime_bytes_per_player_game"] = sum(sizes[k] for k in all_board) / attempts
    fig["claim_bytes_per_attempt"] = claims / attempts
    report.year["board_encoding"] = await meter.encoding(day_board[0])
    fig["daily_game_packed_bytes"] = mean([await meter.game(store, g) for g in daily_gids])
    say(
        f"dailies: {fig['daily_choices_bytes']} B of choices, "
        f"{fig['board_bytes_per_attempt']:.0f} B of boards an attempt"
    )

    # races
    before = await meter.used()
    race_fams_before = await meter.families()
    for r in range(args.races):
        members = rnd.sample(names, args.race_size)
        race = await services.races.create(members[0], registry.slugs()[r % 16], None)
        for m in members[1:]:
            await services.races.join(m, race["code"])
        await services.races.start(members[0], race["race_id"])
        states: dict[str, dict[str, Any]] = {}
        for _ in range(200):
            for m in members:
                if m not in states and (s := await services.races.my_game(m, race["race_id"])):
                    states[m] = s
            if len(states) == len(members):
                break
            await asyncio.sleep(0.01)
        for m, s in states.items():
            await compaction.compact(await play_out(services, m, s))
        for _ in range(200):
            info, _, _, _ = await store.race(race["race_id"])
            if info.get("status") == b"finished":
                break
            await asyncio.sleep(0.01)
    ph["races"] = await meter.used() - before
    fams = await meter.families()
    race_bytes = 0
    for f, v in fams.items():
        if f.startswith(("race:", "racecode:", "rt:")):
            race_bytes += v["bytes"] - race_fams_before.get(f, {"bytes": 0})["bytes"]
    fig["race_bytes"] = race_bytes / max(1, args.races)
    say(f"races: {fig['race_bytes']:.0f} B a race")

    # a year's player: three games a day for a year
    await services.accounts.register("yearly")
    compaction.at_finish = True
    before = await meter.used()
    keys_before = await meter.usage(await meter.keys())
    for i in range(args.year_games):
        slug = registry.slugs()[i % 16]
        state = await games.start("yearly", slug, Mode.PRACTICE, None)
        gid = str(state["game_id"])
        rec = games.cache[gid]
        for move in greedy_line(rec.game, rec.state)[: 3 + i % 5]:
            rec = games.cache[gid]
            await games.move("yearly", gid, rec.seq, move.to_wire())
        if games.cache[gid].status == GameStatus.PLAYING:
            await games.resign("yearly", gid)
        games.clock.advance(seconds=86_400 // 3)  # type: ignore[attr-defined]
    keys = store.keys
    mine = [
        keys.player_games("yearly"),
        keys.player_counted("yearly"),
        keys.player_stats("yearly"),
        keys.player_in_play("yearly"),
    ]
    sizes = await meter.usage(mine)
    n = args.year_games
    fig["list_bytes_per_game"] = sizes[mine[0]] / n
    fig["counted_bytes_per_game"] = sizes[mine[1]] / n
    fig["year_stats_bytes"] = sizes[mine[2]]
    fig["in_play_bytes"] = sizes[mine[3]]
    report.year["player_games_encoding"] = await meter.encoding(mine[0])
    report.year["counted_encoding"] = await meter.encoding(mine[1])
    ph["year_player"] = await meter.used() - before
    keys_after = await meter.usage(await meter.keys())
    grown = sum(keys_after.values()) - sum(keys_before.values())
    fig["overhead_per_key"] = (ph["year_player"] - grown) / max(
        1, len(keys_after) - len(keys_before)
    )
    say(
        f"a year's player: {fig['list_bytes_per_game']:.0f} + "
        f"{fig['counted_bytes_per_game']:.0f} B a game in lists, {fig['year_stats_bytes']} B stats"
    )

    fams = await meter.families()
    fig["stats_bytes"] = fams.get("pl:{…}:stats", {"bytes": 0})["bytes"] / (len(names) + 1)
    fig["ratings_bytes"] = sum(
        v["bytes"] for f, v in fams.items() if f.startswith("rt:{…}") and ":race:" not in f
    ) / len(names)
    report.families = fams
    ph["total"] = await meter.used() - base
    fig["keys_total_bytes"] = sum(v["bytes"] for v in fams.values())


# -- a year ------------------------------------------------------------------------------

#: bytes a key costs beyond its MEMORY USAGE: its entry in the keyspace's table (a
#: 24-byte dictEntry, 32 with jemalloc's rounding, and an 8-byte bucket). The
#: ``overhead_per_key`` figure measures it from ``used_memory``, but other allocations
#: move ``used_memory`` as much on a run this small (7–37 bytes in two runs)
KEYSPACE_ENTRY = 40
#: the mix of a daily player's three games a day
MIX = {"daily": 1.0, "practice": 1.7, "race": 0.3}
RETENTION_DAYS = 30


def year_model(report: Report, args: argparse.Namespace) -> None:
    """Bytes a year of one daily player takes (under :data:`MIX`), with finished
    games packed (and practice games summarised past :data:`RETENTION_DAYS`) and as
    kept before (whole); every key also costs its place in the keyspace
    (:data:`KEYSPACE_ENTRY`)."""
    f = report.figures
    oh = KEYSPACE_ENTRY
    days = 365
    lists = f["list_bytes_per_game"] + f["counted_bytes_per_game"]
    fixed = f["account_bytes"] + f["friends_bytes"] + f["year_stats_bytes"] + f["in_play_bytes"]
    fixed += f["ratings_bytes"] + 16 * f["alltime_bytes_per_player_game"] + 12 * oh
    daily_extra = f["board_bytes_per_attempt"] + f["claim_bytes_per_attempt"]
    race_share = (f["race_bytes"] + 8 * oh) / args.race_size
    today = fixed + days * (
        MIX["daily"] * (f["game_whole_bytes"] + 2 * oh + lists + daily_extra)
        + MIX["practice"] * (f["practice_whole_bytes"] + 2 * oh + lists)
        + MIX["race"] * (f["game_whole_bytes"] + 2 * oh + lists + race_share)
    )
    recent = RETENTION_DAYS * MIX["practice"]
    older = (days - RETENTION_DAYS) * MIX["practice"]
    packed = fixed + days * (
        MIX["daily"] * (f["daily_game_packed_bytes"] + 2 * oh + lists + daily_extra)
        + MIX["race"] * (f["game_packed_bytes"] + 2 * oh + lists + race_share)
    )
    packed += recent * (f["practice_packed_bytes"] + 2 * oh + lists + f["practice_index_bytes"])
    packed += older * (f["practice_summary_bytes"] + oh + lists)
    choices = days * (f["daily_choices_bytes"] + oh)
    out: dict[str, Any] = {
        "mix_per_day": MIX,
        "retention_days": RETENTION_DAYS,
        "bytes_per_player_year_whole": round(today),
        "bytes_per_player_year_packed": round(packed),
        "dailies_choices_bytes_year": round(choices),
    }
    for n in (100_000, 1_000_000):
        for kind, per in (("whole", today), ("packed", packed)):
            out[f"gib_{n}_{kind}"] = round((n * per + choices) / 2**30, 1)
    report.year |= out


# -- output ------------------------------------------------------------------------------


def table(report: Report, baseline: Report | None = None) -> str:
    f, y = report.figures, report.year
    b = baseline.figures if baseline else {}
    lines = [
        f"Redis {report.redis_version}; {report.seconds} s",
        "",
        "| game | result | moves | log entries | bytes whole | bytes packed | packed ÷ whole |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for g in report.per_game:
        ratio = g["packed_bytes"] / g["whole_bytes"]
        lines.append(
            f"| {g['game']} | {g['result']} | {g['moves']} | {g['log']} | {g['whole_bytes']:,} "
            f"| {g['packed_bytes']:,} | {ratio:.2f} |"
        )
    lines += ["", "| what | bytes | baseline |", "|---|---:|---:|"]
    for key, value in f.items():
        old = f"{b[key]:,.0f}" if key in b else ""
        lines.append(f"| {key} | {value:,.1f} | {old} |")
    lines += ["", "| a year of daily players | value |", "|---|---:|"]
    for key, value in y.items():
        lines.append(f"| {key} | {value} |")
    lines += ["", "| key family | keys | bytes |", "|---|---:|---:|"]
    for fam, v in report.families.items():
        lines.append(f"| `{fam}` | {v['keys']:,} | {v['bytes']:,} |")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench.redis_memory",
        description=(
            "Redis bytes per player, per finished game of each patience (whole and "
            "packed), per practice game (whole, packed, summarised), per day of "
            "dailies and per race, on a fresh redis-server; and the RAM of a year of "
            "100k and 1M daily players."
        ),
        epilog="Every figure is in --json; the table's last column is the saved baseline's.",
    )
    p.add_argument("--players", type=int, default=160, help="accounts (default 160)")
    p.add_argument("--follows", type=int, default=10, help="players each follows (default 10)")
    p.add_argument("--practice", type=int, default=32, help="practice games (default 32)")
    p.add_argument(
        "--daily-game", default="short", help="the daily every player plays (default short)"
    )
    p.add_argument("--races", type=int, default=10, help="races (default 10)")
    p.add_argument("--race-size", type=int, default=3, help="players a race (default 3)")
    p.add_argument(
        "--year-games",
        type=int,
        default=400,
        help="games of the year's player, one each 8 hours (default 400)",
    )
    p.add_argument(
        "--daily-nodes",
        type=int,
        default=20_000,
        help="solver nodes a daily's choice may spend (default 20,000; a server's: 2,500,000)",
    )
    p.add_argument(
        "--seed-tries", type=int, default=30, help="deals tried for a greedy win (default 30)"
    )
    p.add_argument(
        "--win-seeds",
        type=int,
        default=2,
        help="deals the solver tries for a game the greedy player never won (default 2)",
    )
    p.add_argument(
        "--win-nodes",
        type=int,
        default=20_000,
        help="solver nodes for each of those deals (default 20,000)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--save", action="store_true", help=f"write them to {BASELINE.name}")
    p.add_argument("--compare", action="store_true", help="show the baseline's figures beside")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="say each phase's figures as it goes"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.disable(logging.WARNING)  # the dailies' incidents of a small budget
    report = asyncio.run(measure(args))
    data = report.__dict__
    if args.save:
        BASELINE.write_text(json.dumps(data, indent=1) + "\n")
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        base = None
        if args.compare and BASELINE.exists():
            base = Report(**json.loads(BASELINE.read_text()))
        print(table(report, base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
