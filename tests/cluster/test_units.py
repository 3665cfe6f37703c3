"""Redis Cluster without a cluster: the hash slots of every script's keys, what
``--redis-cluster`` accepts, and how the settings read it."""

from __future__ import annotations

import pytest
from redis.crc import key_slot

from server.__main__ import main
from server.settings import Settings
from server.store import Keys
from server.store.cluster import ClusterSpec, check_prefix

pytestmark = pytest.mark.cluster

PREFIXES = ["", "t1:", "pasyans:prod:"]


def slots(*keys: str) -> set[int]:
    return {key_slot(k.encode()) for k in keys}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_script_touches_one_slot(prefix: str) -> None:
    k = Keys(prefix)
    # The KEYS each Lua script gets from the Store (scripts.py says which).
    groups = {
        "MOVE": [k.game("Ab3_x-9"), k.game_log("Ab3_x-9")],
        "CREATE": [k.game("Ab3_x-9")],
        "STREAK": [k.player("Alice_1")],
        "STATS": [k.player_stats("Alice_1"), k.player_counted("Alice_1")],
        "BOARD_PUT daily": [
            k.board("crescent", "2026-03-14"),
            k.board_players("crescent", "2026-03-14"),
        ],
        "BOARD_PUT all": [k.board("st_helena", "all"), k.board_players("st_helena", "all")],
        "RACE_STATUS": [k.race("r-1")],
        "RACE_JOIN": [k.race("r-1"), k.race_players("r-1")],
        "RACE_PLACE": [k.race("r-1"), k.race_places("r-1")],
    }
    for name, keys in groups.items():
        assert len(slots(*keys)) == 1, f"{name}: {keys} span slots {slots(*keys)}"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_one_things_keys_share_a_slot(prefix: str) -> None:
    """Not required (no command names two of them) but it keeps one player's, one
    game's or one race's work on one node."""
    k = Keys(prefix)
    assert (
        len(slots(k.player("Bob"), k.player("bob"), k.player_games("BOB"), k.player_dailies("bOb")))
        == 1
    )
    assert slots(k.player_stats("BoB"), k.player_counted("bob")) == slots(k.player("Bob"))
    assert slots(k.player_follows("bOB")) == slots(k.player("Bob"))
    rid = "xYz_12"
    race = [
        k.race(rid),
        k.race_players(rid),
        k.race_games(rid),
        k.race_places(rid),
        k.race_dealer(rid),
    ]
    assert len(slots(*race)) == 1


def test_different_games_spread_over_slots() -> None:
    k = Keys()
    assert len(slots(*(k.game(f"g{i}") for i in range(50)))) > 40


def test_cluster_spec_forms() -> None:
    spec = ClusterSpec.parse(" 127.0.0.1:7000, 10.0.0.2:7001 ,[::1]:7002")
    assert spec.nodes == (("127.0.0.1", 7000), ("10.0.0.2", 7001), ("::1", 7002))
    assert spec.password is None and not spec.ssl
    assert str(spec) == "127.0.0.1:7000,10.0.0.2:7001,[::1]:7002"
    assert ClusterSpec.parse(str(spec)) == spec
    url = ClusterSpec.parse("rediss://app:s%40cret@redis.example:6380")
    assert url.nodes == (("redis.example", 6380),)
    assert (url.username, url.password, url.ssl) == ("app", "s@cret", True)
    assert "s@cret" not in str(url) and "cret" not in repr(url)
    with pytest.raises(ValueError) as bad:
        ClusterSpec.parse("redis://app:hush@host:7000/3")
    assert "hush" not in str(bad.value) and "***" in str(bad.value)
    assert ClusterSpec.parse("redis://10.0.0.5/0").nodes == (("10.0.0.5", 6379),)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        " , ",
        "localhost",
        "host:",
        ":7000",
        "host:port",
        "host:70000",
        "unix:///tmp/r.sock",
        "redis://10.0.0.5:7000/2",
        "redis://:7000",
        "http://x:1",
    ],
)
def test_cluster_spec_refuses(bad: str) -> None:
    with pytest.raises(ValueError):
        ClusterSpec.parse(bad)


def test_a_prefix_with_braces_is_refused() -> None:
    check_prefix("t1:")
    for bad in ("{t}", "a{", "}"):
        with pytest.raises(ValueError, match="braces"):
            check_prefix(bad)


def test_settings_read_the_cluster_from_flag_and_env() -> None:
    env = {"PASYANS_REDIS_CLUSTER": "127.0.0.1:7000,127.0.0.1:7001"}
    assert Settings.load([], env).redis_cluster == "127.0.0.1:7000,127.0.0.1:7001"
    assert Settings.load(["--redis-cluster", "h:1"], env).redis_cluster == "h:1"
    assert Settings.load([], {}).redis_cluster is None
    serve_help = Settings.parser().format_help()
    assert "--redis-cluster" in serve_help and "PASYANS_REDIS_CLUSTER" in serve_help


def test_a_bad_cluster_stops_the_server_at_once() -> None:
    with pytest.raises(SystemExit, match="--redis-cluster: a Redis Cluster node is host:port"):
        main(["serve", "--redis-cluster", "nowhere"])
    with pytest.raises(SystemExit, match="braces"):
        main(["serve", "--redis-cluster", "127.0.0.1:7000", "--key-prefix", "{x}"])
