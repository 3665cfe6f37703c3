"""Issue 49: ``pasyans-server admin backup`` while 50 players play on the embedded
Redis, play going on; the deployment destroyed (server killed, data directory
removed); ``admin restore`` into a fresh data directory; the server started on it.
Every move acknowledged before the backup began is there, the server serves (every
player signs in and plays on), and nothing after the backup is claimed: no game is
further on than its player had been acknowledged when the backup returned (plus the
one move each player may have had in flight), and the later moves are gone."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

from bench.load import Player, make_players
from client.connection import Connection, ServerError
from protocol import ErrorCode
from server.store.embedded import has_aof
from tests.faults.conftest import server_args
from tests.faults.procs import children, command
from tests.support import ServerProcess, eventually

PLAYERS = 50
MOVES = 24
#: moves each player plays after the backup returned
AFTER = 6
BACKUP_AFTER = PLAYERS * 6  # acknowledged moves before the backup
#: the load's hang guard: players stop at it unfinished (they finish in seconds)
SECONDS = 180.0


async def admin(*args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "admin",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def seq_of(conn: Connection, gid: str) -> int:
    """The game's ``seq`` as the server has it; -1 when it has no such game (a game
    begun after the backup's snapshot, though before the backup returned)."""
    try:
        return int((await conn.resume(gid))["seq"])
    except ServerError as exc:
        if exc.code != ErrorCode.NOT_FOUND:
            raise
        return -1


async def test_backup_while_serving_then_restore_a_destroyed_deployment(tmp_path: Path) -> None:
    data, saved = tmp_path / "data", tmp_path / "backup"
    args = server_args("--data-dir", str(data))
    prefix = args[args.index("--key-prefix") + 1]
    storage = ["--data-dir", str(data), "--key-prefix", prefix]
    server = ServerProcess(*args).start()
    try:
        players = make_players(server.url, PLAYERS, stem="bk")
        deadline = time.monotonic() + SECONDS
        load = asyncio.gather(*(p.play(MOVES, deadline=deadline) for p in players))
        await eventually(
            lambda: sum(p.moves for p in players) >= BACKUP_AFTER, what=f"{BACKUP_AFTER} moves"
        )
        before = {gid: seq for p in players for gid, seq in p.acked.items()}
        code, out = await admin("backup", str(saved), *storage)
        returned = {gid: seq for p in players for gid, seq in p.acked.items()}
        assert code == 0, out
        print(f"\n{out.strip()} ({sum(before.values())} moves acknowledged before it began)")
        code, out = await admin("restore", str(saved), *storage)
        assert code != 0 and "a server is running" in out, out  # not under a live server
        await load
        # and on: every player plays more after the backup returned
        await asyncio.gather(*(p.play(MOVES + AFTER, deadline=deadline) for p in players))
        final = {gid: seq for p in players for gid, seq in p.acked.items()}
        assert not [p.error for p in players if p.error]
        assert all(p.moves == MOVES + AFTER for p in players)
    finally:
        assert server.process is not None
        redis = [p for p in children(server.process.pid) if command(p) == "redis-server"]
        server.kill()  # destroyed: no clean shutdown, then its data gone
    # its Redis (told to go by PR_SET_PDEATHSIG) ends too, removing its socket file as
    # it goes: wait for it, or it would remove the restored server's socket
    await eventually(lambda: not any(command(p) for p in redis), what="the old Redis gone")
    shutil.rmtree(data)

    code, out = await admin("restore", str(saved), *storage)
    assert code == 0, out
    restored = ServerProcess(*args).start()
    try:
        seqs: dict[str, int] = {}

        async def audit(share: list[Player]) -> None:
            """Each sign-in waits for the server's listener (up to a 50 ms poll): ten
            auditors at once, each a share of the players."""
            conn = await Connection(restored.url).open()
            try:
                for p in share:
                    await conn.auth(p.token)  # every account is there
                    for gid in p.acked:
                        if gid in returned:
                            seqs[gid] = await seq_of(conn, gid)
            finally:
                await conn.close()

        await asyncio.gather(*(audit(players[i::10]) for i in range(10)))
        missing = [g for g, seq in before.items() if seqs.get(g, -1) < seq]
        assert not missing, f"{len(missing)} games lost acknowledged moves"
        claimed = [g for g, seq in seqs.items() if seq > returned[g] + 1]
        assert not claimed, f"{len(claimed)} games hold moves made after the backup"
        later = sum(final[g] - max(seqs[g], 0) for g in seqs)
        assert later > 0  # the moves after the backup are not there
        print(
            f"restored: {sum(max(s, 0) for s in seqs.values())} moves in "
            f"{sum(s >= 0 for s in seqs.values())} games; "
            f"{sum(before.values())} acknowledged before the backup all there; "
            f"{later} played after it not claimed"
        )
        # the server serves: each player plays on from the restored games
        for p in players:  # (a game begun after the backup is not there: new games)
            p.url, p.moves, p.conn, p.state = restored.url, 0, None, {}
        await asyncio.gather(*(p.play(2, deadline=time.monotonic() + SECONDS) for p in players))
        assert all(p.moves == 2 for p in players), [p.error for p in players if p.error][:3]
        assert "Traceback" not in restored.output()
        assert has_aof(data)
    finally:
        restored.kill()
