"""``pasyans-server admin backup DIR`` and ``admin restore DIR`` (issue 49).

**Backup**, while the server serves: Redis forks and writes a snapshot (``BGSAVE``)
of the data as it was at the fork, so it holds every write acknowledged before the
backup began and none made after. The command waits until ``LASTSAVE`` moves past
the time before it asked (and Redis says the save went well), then copies the
snapshot (``dump.rdb``) into DIR with a ``backup.json`` saying when and of what. The
append-only file is not copied: it is being written while the server serves, so a
copy of it is no single moment; the snapshot is.

For an external Redis or a Cluster the same is done on every primary; the snapshot is
copied when its directory is on this machine, else the command prints, for each
node, ``redis-cli --rdb FILE`` (which fetches a snapshot over the connection), the
documented way with Redis's own tools.

**Restore**, into a stopped deployment's data directory (the embedded Redis's): the
command refuses while a server runs on it (it holds the directory's lock itself
meanwhile, so none starts), sets the old append-only file aside
(``appendonly.aof.before-restore-<time>``), loads the snapshot into a redis-server of
its own with persistence off, turns the append-only file on (Redis writes it whole
from the data) and shuts that Redis down: the next ``serve`` loads it.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .settings import Settings
from .store import Store

#: seconds a snapshot may take before the backup gives up (a big dataset on a slow disk)
SAVE_TIMEOUT = 3600.0
SNAPSHOT = "dump.rdb"
MANIFEST = "backup.json"


def fail(message: str) -> SystemExit:
    return SystemExit(f"pasyans-server admin: {message}")


@asynccontextmanager
async def connect(settings: Settings) -> AsyncIterator[Store]:
    """The deployment's store: its Redis as the settings say; for the embedded one, the
    running server's socket, else (no server running) the data directory's Redis
    started for the command and stopped after."""
    from .store import EmbeddedRedis
    from .store.embedded import has_aof, ping

    embedded = None
    url = settings.redis_cluster or settings.redis_url
    if url is None:
        sock = Path(settings.data_dir) / "redis.sock"
        if ping(str(sock)):
            url = f"unix://{sock}"
        else:
            if not has_aof(Path(settings.data_dir)):
                raise fail(
                    f"no pasyans data in {settings.data_dir}: give --data-dir or --redis-url"
                )
            embedded = EmbeddedRedis(settings.data_dir, binary=settings.redis_server)
            await embedded.start()
            url = embedded.url
    store = Store(url, cluster=bool(settings.redis_cluster), prefix=settings.key_prefix)
    try:
        yield store
    finally:
        await store.close()
        if embedded is not None:
            await embedded.stop()


async def snapshot(client: aioredis.Redis) -> float:
    """A fresh snapshot by ``client``'s Redis, begun after this call was made; when it
    began (Redis's clock, seconds)."""
    while int((await client.info("persistence")).get("rdb_bgsave_in_progress", 0)):
        await asyncio.sleep(0.05)  # someone else's save: ours must begin after now
    before = int(await _lastsave(client))
    # LASTSAVE counts whole seconds: begin in a second after the last save's, so that
    # ours moves it
    while int((await client.time())[0]) <= before:
        await asyncio.sleep(0.05)
    began = float((await client.time())[0])
    await client.execute_command("BGSAVE", "SCHEDULE")  # type: ignore[no-untyped-call]
    deadline = time.monotonic() + SAVE_TIMEOUT
    while int(await _lastsave(client)) <= before:
        if time.monotonic() > deadline:
            raise fail(f"the snapshot took over {SAVE_TIMEOUT:g} s")
        await asyncio.sleep(0.05)
    info = await client.info("persistence")
    if info.get("rdb_last_bgsave_status") != "ok":
        raise fail("Redis could not write its snapshot (see its log: disk full?)")
    return began


async def _lastsave(client: aioredis.Redis) -> float:
    value: Any = await client.lastsave()
    return value.timestamp() if hasattr(value, "timestamp") else float(value)


async def rdb_path(client: aioredis.Redis) -> Path | None:
    """Where the node writes its snapshot, if this machine can read it."""
    try:
        conf: dict[Any, Any] = {}
        for name in ("dir", "dbfilename"):
            conf.update(await client.config_get(name))
        conf = {(k.decode() if isinstance(k, bytes) else k): v for k, v in conf.items()}
        conf = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in conf.items()}
    except redis.exceptions.ResponseError:  # CONFIG renamed or refused
        return None
    path = Path(conf.get("dir", "")) / conf.get("dbfilename", SNAPSHOT)
    return path if path.is_file() and os.access(path, os.R_OK) else None


async def backup(settings: Settings, target: Path) -> int:
    if target.exists() and any(target.iterdir()):
        raise fail(f"{target} is not empty: give a new directory for each backup")
    target.mkdir(parents=True, exist_ok=True, mode=0o700)
    async with connect(settings) as store:
        clients = await _primaries(store)
        nodes: list[dict[str, Any]] = []
        missing = []
        for name, client in clients:
            began = await snapshot(client)
            source = await rdb_path(client)
            file = SNAPSHOT if len(clients) == 1 else f"dump-{name.replace(':', '-')}.rdb"
            if source is None:
                missing.append((name, file))
            else:
                shutil.copy2(source, target / file)
            nodes.append({"node": name, "file": file, "began": began, "copied": source is not None})
            if client is not store.redis:  # a cluster node's own client
                await client.aclose()
    manifest = {
        "kind": "cluster" if settings.redis_cluster else "redis",
        "embedded": not (settings.redis_url or settings.redis_cluster),
        "key_prefix": settings.key_prefix,
        "nodes": nodes,
    }
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    for name, file in missing:
        host, _, port = name.rpartition(":")
        print(
            f"{name}: its snapshot is not on this machine; fetch it with "
            f"redis-cli -h {host} -p {port} --rdb {target / file}"
        )
    copied = sum(n["copied"] for n in nodes)
    print(f"backup in {target}: {copied} of {len(nodes)} snapshots copied")
    return 0 if not missing else 3


async def _primaries(store: Any) -> list[tuple[str, aioredis.Redis]]:
    """Each primary's name and a client of it (the one client of a single Redis)."""
    from redis.asyncio.cluster import RedisCluster

    if not isinstance(store.redis, RedisCluster):
        return [("redis", store.redis)]
    await store.redis.initialize()  # the slots' map: the primaries are known after it
    kwargs: dict[str, Any] = getattr(store.redis, "connection_kwargs", {})
    out = []
    for node in store.redis.get_primaries():
        client = aioredis.Redis(
            host=node.host,
            port=int(node.port),
            username=kwargs.get("username"),
            password=kwargs.get("password"),
        )
        out.append((f"{node.host}:{node.port}", client))
    return out


# -- restore -----------------------------------------------------------------------------


def restore(settings: Settings, source: Path) -> int:
    from .store.embedded import find_redis_server, has_aof, ping, redis_command, wait_ready

    if settings.redis_url or settings.redis_cluster:
        raise fail(
            "restore writes an embedded Redis's --data-dir; for an external Redis or a "
            "Cluster, stop each node and put its snapshot in its dir (docs/operations.md, "
            "Runbook: restoring)"
        )
    snap = source / SNAPSHOT
    if not snap.is_file():
        raise fail(f"{source} holds no {SNAPSHOT}: not a directory admin backup wrote")
    data = Path(settings.data_dir)
    data.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(data / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise fail(f"a server is running on {data}: stop it first") from None
        sock = data / "redis.sock"
        if ping(str(sock)):
            raise fail(f"a redis-server still serves {sock}: stop it first")
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        for old in ("appendonly.aof", "appendonlydir", SNAPSHOT):
            if (data / old).exists():
                (data / old).rename(data / f"{old}.before-restore-{stamp}")
        shutil.copy2(snap, data / SNAPSHOT)
        binary = settings.redis_server or find_redis_server()
        restoring = data / "restore.sock"
        cmd = redis_command(binary, data, unixsocket=restoring, appendonly=False)
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        try:
            wait_ready(str(restoring), timeout=SAVE_TIMEOUT)
            # no retries: SHUTDOWN closes the connection, and redis-py 8 would retry it
            # with backoff for seconds before it gave up
            client = redis.Redis(
                unix_socket_path=str(restoring), retry=Retry(NoBackoff(), retries=0)
            )
            keys = client.dbsize()
            client.config_set("appendonly", "yes")  # Redis writes the AOF from the data
            deadline = time.monotonic() + SAVE_TIMEOUT
            while True:
                info = client.info("persistence")
                done = not int(info.get("aof_rewrite_in_progress", 0)) and not int(
                    info.get("aof_rewrite_scheduled", 0)
                )
                if done and info.get("aof_last_bgrewrite_status") == "ok":
                    break
                if time.monotonic() > deadline:
                    raise fail("Redis did not write the append-only file in time")
                time.sleep(0.05)
            client.shutdown(nosave=True)
        except redis.exceptions.ConnectionError:
            pass  # SHUTDOWN closes the connection
        finally:
            if proc.poll() is None:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        (data / SNAPSHOT).unlink(missing_ok=True)
        if not has_aof(data):
            raise fail("the restored append-only file is missing: see redis.log in the data dir")
        print(f"restored {source} into {data}: {keys} keys; start the server on it")
        return 0
    finally:
        os.close(fd)
