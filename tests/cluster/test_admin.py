"""``pasyans-server admin`` on a real Redis Cluster (issue 49): a ban takes a player's
results off the boards across the cluster's slots and unban puts them back; a backup
copies every primary's snapshot."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from deploy.local import LocalDeployment
from tests.races.test_ban import play_daily, players
from tests.support import connect
from tests.support.admin import run_here

from .test_cluster import name

pytestmark = pytest.mark.cluster


async def admin(deployment: LocalDeployment, *args: str, here: bool = False) -> tuple[int, str]:
    """``pasyans-server admin ARGS`` on the deployment's cluster, as a process of its
    own, or (``here``) through the same ``main`` in this process: its exit code and
    output (both streams)."""
    flags = deployment.server_args
    prefix = flags[flags.index("--key-prefix") + 1]
    assert deployment.cluster is not None
    if here:
        storage = ["--redis-cluster", deployment.cluster.spec, "--key-prefix", prefix]
        code, out, err = await run_here(["admin", *args, *storage])
        return code, out + err
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "admin",
        *args,
        "--redis-cluster",
        deployment.cluster.spec,
        "--key-prefix",
        prefix,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    both, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, both.decode()


async def test_ban_unban_and_backup_on_a_cluster(
    deployment: LocalDeployment, tmp_path: Path
) -> None:
    one, two = deployment.urls
    cheat = name("cheat")
    async with connect(one) as c, connect(two) as look:
        await c.register(cheat)
        await look.register(name("look"))
        await play_daily(c)
        assert cheat in await players(look)
        code, out = await admin(deployment, "ban", cheat, "--reason", "bot")
        assert code == 0 and "2 results taken off" in out, out
        assert cheat not in await players(look)
        assert cheat not in await players(look, board="alltime")
        code, out = await admin(deployment, "unban", cheat, here=True)
        assert code == 0 and "2 results back" in out, out
        assert cheat in await players(look)
    code, out = await admin(deployment, "backup", str(tmp_path / "b"))
    assert code == 0, out
    manifest: dict[str, Any] = json.loads((tmp_path / "b" / "backup.json").read_text())
    assert manifest["kind"] == "cluster" and len(manifest["nodes"]) == deployment.masters
    assert all((tmp_path / "b" / n["file"]).stat().st_size > 0 for n in manifest["nodes"])
    code, out = await admin(deployment, "log", here=True)
    assert [line.split()[4] for line in out.splitlines()][-2:] == ["ban", "unban"]
