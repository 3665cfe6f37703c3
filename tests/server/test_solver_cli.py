"""``pasyans-server solve`` and ``pasyans-server prepare-dailies`` (on a real Redis)."""

from __future__ import annotations

import uuid

import pytest

from server.__main__ import main
from server.patience import registry


def test_solve_prints_the_verdict_and_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "travellers_classic", "0", "--nodes", "20000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("travellers_classic 0: win ·") and out[1].startswith("par ")
    # a deal searched out (no win) exits 1: cotillion's deal 0 in a few hundred nodes
    # (travellers_aces' deal 0, here before, takes 40,000: six CPU-seconds)
    assert main(["solve", "cotillion", "0", "--nodes", "60000"]) == 1
    assert "cotillion 0: none ·" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no game 'nope'"):
        main(["solve", "nope", "0"])


def test_prepare_dailies_chooses_and_keeps_every_game(
    redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "prepare-dailies",
        "--redis-url",
        redis_url,
        "--key-prefix",
        f"p{uuid.uuid4().hex[:8]}:",
        "--date",
        "2030-01-01",
        "--days",
        "1",
        "--candidate-nodes",
        "40",
        "--daily-nodes",
        "80",
    ]
    assert main(args) == 0
    first = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in first] == [f"2030-01-01 {s}" for s in registry.slugs()]
    assert main([*args[:-4], "--candidate-nodes", "4000", "--daily-nodes", "8000"]) == 0
    assert capsys.readouterr().out.splitlines() == first  # chosen once, then kept
