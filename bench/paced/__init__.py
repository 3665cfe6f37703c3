"""Players at a person's pace on one server instance (issue 50): how many one instance
holds with a move's p99 ≤ 50 ms, and what each costs (server CPU and memory, Redis
CPU, memory and commands, bytes on the wire), for the capacity table.

    python -m bench.paced [--players 1000,5000,10000,20000] [--seconds 30] [--warm 10]
                          [--pace 5] [--friends-every 60] [--follows 3] [--racing 0.2]
                          [--race-size 4] [--per-process 5000] [--workers 1] [--json] [--save]

For each count N a fresh row: a real ``redis-server`` started as the server's embedded
one is (AOF ``everysec``, a unix socket: ``deploy.procs.RedisProcess``), one pasyans
server process on it (``--workers`` processes sharing the port, 1 by default), and the
load in processes of its own (``--per-process`` players each, raw ``websockets``
connections and msgpack: :mod:`bench.paced.worker`), so the server's, Redis's and the
load's CPU are read apart.

**The mix** (what each player does, documented as the row's defaults):

- signs in (its own account: ``register``), starts a practice game of Crescent (the
  game whose rules cost the most), follows ``--follows`` (3) other players of its load process;
- ``--racing`` (20 %) of the players are in races of ``--race-size`` (4), created,
  joined and started before the measurement: they play their race game, and every move
  of theirs is a ``race`` event to each member (three others);
- every ``--pace`` seconds on average (5 s; each pause drawn from 0.5–1.5 × it, the
  first a random part of it, so the players do not move in step) a legal move, taken
  from the ``legal`` moves the server sent, with ``reply: delta`` as the clients ask;
  a game over starts a new practice one (not timed);
- every ``--friends-every`` seconds (60 s; the same jitter) a look at ``friends`` (their
  presence, dailies and ratings): the web client asks once when its friends screen
  opens, the terminal client every 10 s while it is shown, neither during a game, so
  a look a minute a player is generous;
- presence is the server's own: each connection noted online and its activity, beaten
  every 10 s, race members every second.

Each row plays ``--warm`` seconds before its ``--seconds`` of measurement. Its figures:
``move_p50_ms``/``move_p99_ms`` (send to reply, at the load client), ``event_p99_ms``
(a race member's move sent to its ``race`` event read by each other member),
``friends_p99_ms``, ``moves_s``; ``server_cpu`` (cores: CPU seconds a second, the server
process and its children), ``server_us_move`` (its CPU over the moves),
``server_rss_mib`` and ``rss_kib_player`` (its growth from the idle server over N);
``redis_cpu`` (cores), ``redis_mib`` (``used_memory``), ``redis_ops_s``
(``total_commands_processed``), ``redis_net_in_s``/``redis_net_out_s`` (bytes a second);
``net_in_player_s``/``net_out_player_s`` (WebSocket payload bytes a second a player,
server to client and back); ``client_cpu`` (cores, every load process); ``load``
(the machine's 1-minute load average before and after the row), ``errors``.

Each run is compared with ``bench/paced_baseline.json`` (the row of the same N);
``--save`` makes this run the baseline. The machine's fd limit: each server process
holds a descriptor per player, so a row of N above the hard limit (``ulimit -Hn``) less
a few hundred runs more server processes than ``--workers`` (said on stderr, and in
the row's ``workers``); the row raises the soft limit to the hard one.
"""
