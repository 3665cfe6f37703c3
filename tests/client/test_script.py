"""Script mode against a real server: notation in, plain-text boards out."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import Protocol

import pytest

from client import config
from client.cli import EXIT_OK, EXIT_REFUSED, main
from client.connection import Connection
from client.notation import format_move
from client.script import Script
from protocol.messages import Mode
from server.patience import registry

from .views import engine_state


class Play(Protocol):
    def __call__(self, lines: str, *argv: str, command: str = "play") -> tuple[int, str]: ...


@pytest.fixture
def play(
    server_env: str,
    account: config.Credentials,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Play:
    """``pasyans COMMAND ARGV… --script`` as a signed-in player, ``lines`` on stdin:
    the exit status and what it printed."""

    def run(lines: str, *argv: str, command: str = "play") -> tuple[int, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
        code = main([command, *argv, "--script"])
        return code, capsys.readouterr().out

    return run


def boards(out: str) -> list[str]:
    """The boards printed, one per accepted command (the first is the deal)."""
    return [b for b in out.split("\n> ") if b]


def test_a_move_undo_and_the_same_board_again(play: Play) -> None:
    code, out = play("T3 FA-H\nundo\n", "crescent", "--deal", "0")
    assert code == EXIT_OK
    first, moved, undone = out.split("\n> ")
    assert first.startswith("Crescent — Полумесяц · deal 0")  # "deal" once (issue 47)
    assert "FA-H A↑" in first
    assert "moves 1 · " in moved and "foundation 9/104" in moved
    assert " 2♥ ×2" in moved  # the two of hearts went up on the ace
    assert "moves 2 · " in undone and "foundation 8/104" in undone
    # undo gives back the position of the deal (the counters aside)
    board = first.split("\n\nmoves")[0]
    assert board.split("\n", 1)[1] in undone


def test_the_deal_matches_the_engine_snapshot(play: Play) -> None:
    from client.drawing import draw

    code, out = play("", "crescent", "--deal", "0")
    assert code == EXIT_OK
    assert draw(engine_state("crescent", 0)["view"]["piles"]).plain() in out


def test_errors_are_reported_and_the_script_goes_on(play: Play) -> None:
    lines = "T1 T7\nnonsense words here\n# a comment\n\nt3 fa-h\nlegal\n"
    code, out = play(lines, "crescent", "--deal", "0")
    assert code == EXIT_REFUSED
    assert "error: 9♣ from T1 cannot go to T7 now" in out and "illegal_move" not in out
    assert "error: cannot read 'nonsense words here'" in out
    assert "> t3 fa-h" in out
    assert "moves 1 · " in out  # lower-case ids work
    assert "legal (12): T1 T5 ·" in out


def test_resign_ends_the_game(play: Play) -> None:
    code, out = play("resign\nT3 FA-H\n", "crescent", "--deal", "3")
    assert code == EXIT_REFUSED  # no move after the end
    assert "· lost (resigned)" in out
    assert "Game over. You resigned." in out
    assert "no move left" not in out
    assert "error: The game is over." in out and "game_over" not in out


def test_the_end_says_why_the_game_ended() -> None:
    """Won, resigned (this client resigned it) or lost with no move left (any other
    loss: the server ends a game when no legal move is left)."""
    from client.text import end_words, outcome

    won, lost = {"status": "won"}, {"status": "lost"}
    assert (outcome(won), end_words(won)) == ("won", "You won!")
    assert outcome(lost, resigned=True) == "lost (resigned)"
    assert end_words(lost, resigned=True) == "You resigned."
    assert outcome(lost) == "lost (no move left)"
    assert end_words(lost) == "No move left: the game is over."
    assert outcome({"status": "playing"}) == "playing"


def test_resume_the_latest_game(play: Play) -> None:
    play("T3 FA-H\n", "crescent", "--deal", "0")
    code, out = play("", command="resume")
    assert code == EXIT_OK
    assert "moves 1 · " in out and " 2♥ ×2" in out


async def test_every_game_plays_its_first_legal_move_from_notation(
    server_url: str, account: config.Credentials
) -> None:
    """Each registered game: the notation of a legal move (whatever its shape:
    card, index or action with parameters) reaches the server as that very move."""
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        for slug in registry.slugs():
            state = await conn.start(slug, Mode.DEAL, 0)
            out = io.StringIO()
            script = Script(conn, state, out, None)
            lines = iter([format_move(state["legal"][0]) + "\n", ""])

            async def read(lines: Iterator[str] = lines) -> str:
                return next(lines)

            assert await script.run(read) == 0, out.getvalue()
            assert script.state["moves"] == 1, slug


async def test_auto_plays_forced_moves_until_a_choice(
    server_url: str, account: config.Credentials
) -> None:
    forced_games = [
        s
        for s in registry.slugs()
        if len(engine_state(s, 0)["legal"]) == 1 and "action" in engine_state(s, 0)["legal"][0]
    ]
    if not forced_games:
        pytest.skip("no registered game opens with a forced action")
    async with Connection(server_url) as conn:
        await conn.auth(account.token)
        state = await conn.start(forced_games[0], Mode.DEAL, 0)
        out = io.StringIO()
        script = Script(conn, state, out, None)
        lines = iter(["auto\n", ""])

        async def read() -> str:
            return next(lines)

        assert await script.run(read) == 0
        assert "auto: " in out.getvalue()
        assert script.state["moves"] >= 1
        legal = script.state["legal"]
        assert script.state["status"] != "playing" or not (len(legal) == 1 and "action" in legal[0])


def test_a_daily_shows_its_commitment_not_its_seed(play: Play) -> None:
    code, out = play("", "crescent", "--daily")
    assert code == EXIT_OK
    head = out.splitlines()[0]
    assert head.startswith("Crescent — Полумесяц · daily · commitment ")
    assert "deal " not in head
