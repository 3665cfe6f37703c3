"""bench/op_costs.py's figures mean something only if its long games are as long as it
says and its CPU readings split the server from its solver processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.op_costs import GAME, LONG_SEED, SHUTTLE, children_cpu, cpu, spent
from server.patience import registry
from server.patience.engine import MOVE_CAP


def test_the_long_game_shuttles_to_the_move_cap_and_ends_there() -> None:
    """The two moves of the bench's long games take each other back for as long as a
    game lasts: MOVE_CAP moves end it lost; two fewer leave it in play, with its next
    move legal (the undo row's game)."""
    game = registry.get(GAME)
    state = game.deal(LONG_SEED)
    start = game.position_key(state)
    for i in range(MOVE_CAP):
        if i == MOVE_CAP - 2:
            assert game.status(state) == "playing"
            assert game.parse_move(SHUTTLE[i % 2]) in game.legal_moves(state)
            assert game.position_key(state) == start
        state = game.apply(state, game.parse_move(SHUTTLE[i % 2]))
    assert state.moves == MOVE_CAP and game.status(state) == "lost"


def test_cpu_readings_split_a_process_from_its_children() -> None:
    """A child's CPU is the child's, not its parent's own (the server's figure), and a
    child started between two readings counts whole."""
    me = os.getpid()
    before_own, before_children = cpu(me), children_cpu(me)
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
    child = subprocess.Popen(
        [sys.executable, "-c", burn + "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        while children_cpu(me).get(child.pid, 0.0) < 0.3:
            time.sleep(0.02)  # waiting costs this process (nearly) nothing
        children = spent(before_children, children_cpu(me))
        assert children >= 0.3
        assert cpu(me) - before_own < children  # the wait is the test's own, not 0.3 s
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
