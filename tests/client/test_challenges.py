"""Challenges and watching a race from the command line (issue 27), over a real
server: ``pasyans challenge new|play|show|close``, ``pasyans challenges``, ``pasyans race
watch CODE`` (script mode, as without a terminal), and the texts they print."""

from __future__ import annotations

import asyncio
import io
import re
import sys
import threading
from typing import Any

import pytest

from client import config
from client.challenges import challenge_text, challenges_text, share_lines, unread_line
from client.cli import EXIT_OK, EXIT_REFUSED, main
from client.connection import Connection
from protocol.messages import Mode, Push
from tests.support import GUARD, eventually

from .conftest import fresh_name


async def finished_deal(url: str, token: str, seed: int = 9) -> str:
    """A deal of Crescent, resigned after a move: its id."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("crescent", Mode.DEAL, seed)
        state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
        await conn.resign(state["game_id"])
        return str(state["game_id"])


async def a_friend_plays(url: str, code: str) -> str:
    """Someone else accepts the challenge and resigns it: their name."""
    async with Connection(url) as conn:
        name = fresh_name()
        await conn.register(name)
        accepted = await conn.challenge_accept(code)
        assert accepted["state"]["deal"]["seed"] is None
        await conn.resign(accepted["state"]["game_id"])
        return name


def test_challenge_new_show_and_the_list(
    server_env: str,
    account: config.Credentials,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    gid = asyncio.run(finished_deal(server_env, account.token))
    assert main(["challenge", "new", gid]) == EXIT_OK
    out = capsys.readouterr().out
    found = re.search(r"challenge ([A-Z0-9]{8}) made \(your result is the mark", out)
    assert found, out
    code = found.group(1)
    assert f"pasyans challenge play {code}" in out and f"#challenge/{code}" in out
    friend = asyncio.run(a_friend_plays(server_env, code))

    assert main(["challenges"]) == EXIT_OK
    out = capsys.readouterr().out
    assert code in out and "1 new result on your challenges" in out
    assert main(["challenge", "show", f"#challenge/{code.lower()}"]) == EXIT_OK
    out = capsys.readouterr().out
    assert account.player in out and friend in out and "the mark" in out
    assert "deal 9" in out  # the creator dealt it: no secret to her
    assert "its creator could see this deal's number" in out  # and every player is told
    assert main(["challenges"]) == EXIT_OK
    assert "new result" not in capsys.readouterr().out  # read now
    assert main(["challenge", "close", code]) == EXIT_OK  # issue 36: she closes it
    out = capsys.readouterr().out
    assert out.startswith("closed.") and "closed: its results are final" in out

    # Her own mark is not hers to play; a challenge on a deal with no mark is.
    assert main(["challenge", "play", code]) == EXIT_REFUSED
    assert "mark" in capsys.readouterr().err
    assert main(["challenge", "new", "--game", "crescent"]) == EXIT_OK
    other = re.findall(r"challenge ([A-Z0-9]{8}) made \(no mark yet\)", capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("resign\n"))
    assert main(["challenge", "play", other[0], "--script"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "challenge" in out and "game over" in out.lower()
    with pytest.raises(SystemExit):  # bad usage, told by argparse
        main(["challenge", "show", "no!"])
    assert main(["challenge", "new"]) != EXIT_OK
    capsys.readouterr()


def test_the_texts() -> None:
    challenge: dict[str, Any] = {
        "code": "K7QX2MPA",
        "game": "crescent",
        "creator": "anna",
        "expires": 1_800_000_000_000,
        "seed_chosen": False,
        "seed": None,
        "results": [
            {"rank": 1, "player": "boris", "status": "won", "foundation": 104, "total": 104,
             "moves": 90, "time_ms": 61_000, "assisted": True, "clean": True},
            {"rank": 2, "player": "anna", "status": "lost", "foundation": 40, "total": 104,
             "moves": 12, "time_ms": 5_000, "clean": False, "mark": True, "out": "resigned"},
        ],
        "playing": ["vera"],
        "played": False,
        "game_id": None,
    }  # fmt: skip
    text = challenge_text(challenge)
    assert "K7QX2MPA" in text and "playing now: vera" in text
    assert "assisted" in text and "undo, the mark" in text and "lost (resigned)" in text
    assert "play it: pasyans challenge play K7QX2MPA" in text
    assert text.endswith("pasyans challenge close K7QX2MPA")
    assert "could see this deal's number" not in text and "public" not in text
    apart = {**challenge, "seed_known": True, "seed_public": True, "closed": True}
    apart["results"] = [{**challenge["results"][1], "rank": None, "seed_known": True}]
    text = challenge_text(apart)
    assert "its creator could see this deal's number before playing it" in text
    assert "this deal's number is public" in text and "closed: its results are final" in text
    assert "seed known: not ranked" in text and "—  anna" in text
    assert "play it" not in text and "close" not in text.splitlines()[-1]
    listed = {"challenges": [{**challenge, "results": 2, "unread": 2}], "unread": 2}
    assert "2 new results on your challenges" in challenges_text(listed)
    assert unread_line({"unread": 0}) == ""
    assert "no challenges yet" in challenges_text({"challenges": []})
    assert share_lines("K7QX2MPA") == [
        "beat me on this deal: pasyans challenge play K7QX2MPA  (or #challenge/K7QX2MPA)"
    ]


async def a_race_with_moves(url: str, code_box: list[str], made: threading.Event) -> None:
    """Two players race Crescent: once a spectator watches (the members are told so),
    one moves, then both resign."""
    async with Connection(url) as a, Connection(url) as b:
        await a.register(fresh_name())
        await b.register(fresh_name())
        dealt: list[dict[str, Any]] = []
        watched = asyncio.Event()

        def heard(push: Push) -> None:
            if push.name == "race_started":
                dealt.append(push.fields["state"])
            elif push.name == "race" and push.fields.get("watchers"):
                watched.set()

        a.on_event = heard
        race = await a.race_create("crescent")
        await b.race_join(str(race["code"]))
        code_box.append(str(race["code"]))
        made.set()
        await a.race_start(str(race["race_id"]))
        await eventually(lambda: dealt, what="the race dealt")
        state = dealt[0]
        await eventually(watched.is_set, what="the spectator watching")
        await a.move(str(state["game_id"]), int(state["seq"]), state["legal"][0])
        mine = await a.my_games(limit=1)
        await a.resign(str(mine["games"][0]["game_id"]))
        theirs = await b.my_games(limit=1)
        await b.resign(str(theirs["games"][0]["game_id"]))


def test_race_watch_in_script_mode(
    server_env: str,
    account: config.Credentials,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pasyans race watch CODE`` without a terminal prints the race and the boards,
    each member's progress as it changes, and stops once the race is over."""
    code_box: list[str] = []
    made = threading.Event()
    racing = threading.Thread(
        target=lambda: asyncio.run(a_race_with_moves(server_env, code_box, made)), daemon=True
    )
    racing.start()
    assert made.wait(GUARD), "no race made"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["race", "watch", code_box[0]]) == EXIT_OK
    racing.join(GUARD)
    assert not racing.is_alive()
    out = capsys.readouterr().out
    assert f"watching race {code_box[0]}" in out and "1 watching" in out
    assert "finished" in out
    assert re.search(r" · moves 1 · ", out), out  # the boards once it is over
