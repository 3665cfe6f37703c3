"""Server speed: validated, persisted moves per second and latency over WebSocket +
msgpack + Redis, next to a bare websockets + msgpack echo server and a *floor* server
measured in the same run; and idle connections per process with memory per connection.

Each server runs in its own process (the pasyans server on a real redis-server with
AOF ``everysec`` on a unix socket, as the embedded default; the echo server bare);
the load client runs here, on the same cores. Its players keep their state by delta
replies (``"reply": "delta"``, applied with :func:`protocol.delta.apply_delta`), as
the terminal client does.

    python -m bench.load_server [--seconds 4] [--rounds 4] [--players 1,100,1000] [--idle 10000]
                           [--cluster-players 100,1000] [--preparing-players 100]
                           [--prepare-args '--no-solver-idle'] [--paced-players 1000]
                           [--pace 1] [--json] [--save]

The *floor* does per move only what any server of this design must: read the frame,
persist a real state with one Lua script call on the same pipelined Redis connection,
answer with a real delta of the benchmarked game the size of pasyans's (the median
of the deltas of whole games played as the load client plays: ~180 bytes for
Crescent); no validation and no engine. The *engine* figure is the game's own work
per move (:func:`~.game.engine_cost`), measured in this process before the servers start,
in CPU time, each row's figure at the moves its players made (by index in the game)
and with as many games played at once as the row has players (``"engine_us"``; one
game at a time: ``"engine_one_game_us"``, the figure of the rows before 2026-11-26's
second run: 1,000 games' positions do not stay in the CPU's caches as one game's do).
Beside them runs the *floor plus the engine* (:func:`~.servers.floor_engine_server`): the
floor's work and the engine's in one process, driven by the same load client as
pasyans, and nothing else (no validation, records, clock or cache). It is the least a
server running our engine can spend a move, measured as the servers are: the engine
figure above is measured apart, and in a server's process, beside its sockets and
buffers, the same work costs up to ~1.7 × as much (docs/history/performance-rounds.md,
"Issue 28, third round"). ``"floor_engine_cpu_us"``, ``"floor_engine_p99_ms"``,
``"cpu_vs_floor_engine"`` (pasyans's CPU a move over it: what our own code adds) and
``"floor_engine_p99_ratio"`` (its p99 over the floor's) are in each single-Redis row.
Targets (issue 15): pasyans's server CPU per move ≤ 1.2 × (the floor's + the
engine's), and p99 ≤ 1.5 × the floor's, at 1, 100 and 1,000 players; ``--json``
prints those rows (``{"rows": [{"players", "pasyans_moves_s", "floor_moves_s",
"pasyans_cpu_us", "floor_cpu_us", "engine_us", "pasyans_p99_ms", "floor_p99_ms",
"cpu_ratio", "p99_ratio", …}]}``). Then rows of pasyans on a local Redis Cluster of
three primaries with a replica each (deploy/local) at each of ``--cluster-players``
(``"store": "cluster"``, ``"vs_redis"``: its CPU per move over the single-Redis row's
at that count, issue 28's target ≤ 1.3; its floor figures are the single Redis's),
and rows at ``--preparing-players`` on a server certifying dailies meanwhile
(``"preparing": true``, ``"p99_vs_idle"``: its p99 over the single-Redis row's, issue
28's target ≤ 1.5; ``"dailies_before"``/``"dailies_after"``: dailies chosen and being
chosen, candidates tried, solver CPU seconds, which show the solver was at work).
Older targets (DESIGN.md): throughput ≥ 0.5 × the echo's, p99 ≤ 2 × the echo's;
10,000 idle connections at ≤ 20 KiB each.

Paced rows (``--paced-players``, none by default): each player thinks ``--pace``
seconds between its moves (on average, at random), as people do, so a server answers
at a fraction of its capacity and a move's latency is its own, not a queue's; the
floor, the floor plus the engine and pasyans take turns in them too (``"paced_s"`` in
their ``--json`` rows). Their CPU per move counts the idle server's wake-ups: only
their latencies mean something.

The servers of a row take turns: each row's ``--seconds`` are split into
``--rounds`` turns of every server (the echo, the floor, the floor plus the engine,
pasyans, pasyans on the Redis Cluster when the count is among ``--cluster-players``
and the server preparing dailies when it is among ``--preparing-players``), in one
order in even rounds and the reverse in odd ones, their players connected
throughout; a server's figures pool its turns (moves and CPU summed, latencies
together). The preparing server's solver processes are frozen (SIGSTOP) outside its
own turns, or they would take the other servers' CPU in theirs. On this shared
machine the speed of everything drifts by ±30 % within minutes: measured one after
another, a ratio of two servers read the drift as much as the servers
(docs/history/performance-rounds.md, "Issue 28, fourth round").

Each run is compared with the saved baseline ``bench/load_server_baseline.json`` when
present (the ratios to the echo count: absolute figures move with the machine's load);
``--save`` makes this run the baseline.

Fairness, checked: the load client is not the bottleneck of the pasyans rows (the
server process is at ~100 % of a core while the client uses ~30–40 %); in the echo
rows both processes share the two cores, which if anything flatters pasyans. The
echo answers each request with the request itself (~100 bytes). The time a player
spends starting a new game after one ends is in the elapsed time, not in the move
count or the latencies.

The server gets ``--rate``/``--burst`` high enough that the per-connection rate limit
never bites (the bench measures the server, not the limiter), and does not prepare
dailies (no solver at work meanwhile), except in the preparing rows.

The modules, by job: :mod:`.servers` (the echo, the floor, the floor plus the engine),
:mod:`.game` (the benchmarked game, its canned delta, the engine's cost a move),
:mod:`.players` (the load: players, echoers, idle connections), :mod:`.rounds` (driving
a server's players, a row's figures, the interleaved rounds), :mod:`.preparing` (the
server preparing dailies and its frozen solvers), :mod:`.procs` (processes, CPU and
memory), :mod:`.report` (the lines, tables, ``--json`` and the baseline),
:mod:`.runner` (a run, row by row) and :mod:`.cli` (the options).
"""

from __future__ import annotations

# The names other benchmarks and the tests import from the package, as before it was
# split by job.
from .game import GAME as GAME
from .players import Player as Player
from .preparing import Solvers as Solvers
from .procs import child_pids as child_pids
from .procs import spawn as spawn
from .procs import wait_http as wait_http
from .rounds import Load as Load
from .rounds import measure_rounds as measure_rounds
from .servers import floor_engine_server as floor_engine_server
from .servers import reference_server as reference_server
