"""Sharing a result: the text (:func:`client.text.share_text`), ``pasyans share
[GAME_ID]`` and ``c`` on the end screen, over a real server."""

from __future__ import annotations

import asyncio
import re

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_REFUSED, main
from client.connection import Connection
from client.launch import Launch
from client.text import share_text
from protocol.messages import Mode

from .test_app import SIZE, resigned_end, until

TITLES = {"crescent": {"slug": "crescent", "title_ru": "Полумесяц", "title_en": "Crescent"}}


def won_daily() -> dict[str, object]:
    return {
        "game_id": "g1",
        "game": "crescent",
        "mode": "daily",
        "status": "won",
        "moves": 95,
        "time_ms": 252_000,
        "foundation": 104,
        "total": 104,
        "deal": {"seed": None, "commitment": "3f2a9c1b0d4e5f60718293a4b5c6d7e8"},
        "date": "2026-11-25",
        "ranked": True,
        "view": {"piles": [{"id": "T1", "cards": ["AS", "KH"]}]},
        "legal": [],
    }


def test_share_text_of_a_ranked_daily() -> None:
    text = share_text(won_daily(), TITLES, par=87, rank=3, of=41)
    assert text.splitlines() == [
        "pasyans · Полумесяц (Crescent) · daily 2026-11-25",
        "won · 104/104 cards · 95 moves (par 87) · 4:12 · #3 of 41",
        "commitment 3f2a9c1b0d4e…",
    ]


def test_share_text_gives_nothing_of_the_deal_away() -> None:
    game = won_daily()
    game["deal"] = {"seed": 123456789, "commitment": "abcdef0123456789"}
    text = share_text(game, TITLES)
    assert "123456789" not in text and "AS" not in text and "KH" not in text
    assert "abcdef012345…" in text and "abcdef0123456" not in text


def test_share_text_of_a_lost_practice_game_and_a_replay() -> None:
    game = {
        "game": "crescent",
        "mode": "practice",
        "status": "lost",
        "moves": 12,
        "time_ms": 3_723_000,
        "foundation": 40,
        "total": 104,
        "deal": {"seed": 5, "commitment": None},
        "date": None,
    }
    text = share_text(game, TITLES, day="2026-11-24")
    assert text == "pasyans · Полумесяц (Crescent) · practice 2026-11-24\n" + (
        "lost (no move left) · 40/104 cards · 12 moves · 1:02:03"
    )
    resigned = share_text({**game, "out": "resigned"}, TITLES, day="2026-11-24")
    assert resigned.splitlines()[1].startswith("lost (resigned) · ")
    replay = {k: v for k, v in won_daily().items() if k != "deal"}
    replay |= {"commitment": "00112233445566778899", "auto_completed": True}
    lines = share_text(replay, None).splitlines()  # no catalogue: the slug
    assert lines[0] == "pasyans · crescent · daily 2026-11-25"
    assert lines[1].endswith("auto-completed") and "par" not in lines[1] and "#" not in lines[1]
    assert lines[2] == "commitment 001122334455…"


async def finished_games(url: str, token: str) -> tuple[str, str]:
    """Today's crescent daily (resigned after a move) and then deal 9 (resigned): ids."""
    async with Connection(url) as conn:
        await conn.auth(token)
        daily = await conn.start("crescent", Mode.DAILY)
        daily = await conn.move(daily["game_id"], daily["seq"], daily["legal"][0])
        await conn.resign(daily["game_id"])
        deal = await conn.start("crescent", Mode.DEAL, 9)
        await conn.resign(deal["game_id"])
        return str(daily["game_id"]), str(deal["game_id"])


def test_share_command(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["share"]) == EXIT_REFUSED
    assert "no finished game" in capsys.readouterr().err
    daily_id, deal_id = asyncio.run(finished_games(server_env, account.token))
    assert main(["share"]) == EXIT_OK  # the latest: deal 9
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"pasyans · Полумесяц \(Crescent\) · deal \d{4}-\d\d-\d\d", lines[0])
    assert lines[1].startswith("lost (resigned) · ") and "0 moves" in lines[1] and len(lines) == 2
    assert main(["share", deal_id]) == EXIT_OK
    assert capsys.readouterr().out.splitlines() == lines
    assert main(["share", daily_id]) == EXIT_OK
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert re.fullmatch(r"pasyans · Полумесяц \(Crescent\) · daily \d{4}-\d\d-\d\d", lines[0])
    assert re.search(r"· 1 move( \(par \d+\))? · \d+:\d\d · #\d+ of \d+$", lines[1]), lines
    assert re.fullmatch(r"commitment [0-9a-f]{12}…", lines[2])
    assert main(["share", "nosuchgame"]) == EXIT_REFUSED
    assert "No such game." in capsys.readouterr().err


async def test_c_on_the_end_screen_copies_the_result(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        end = await resigned_end(pilot)
        await pilot.press("c")
        await until(pilot, lambda: bool(end.shared))
        assert end.shared.startswith("pasyans · Полумесяц (Crescent) · deal ")
        assert app.clipboard == end.shared
        assert "lost (resigned) · " in str(end.query_one("#shared").render())


def test_share_of_a_game_in_play_says_it_is_still_in_play(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game in play has no result to share yet: the command says so (and how to go
    on with it), not a refusal about replays."""

    async def in_play() -> str:
        async with Connection(server_env) as conn:
            await conn.auth(account.token)
            return str((await conn.start("crescent", Mode.DEAL, 0))["game_id"])

    gid = asyncio.run(in_play())
    assert main(["share", gid]) == EXIT_REFUSED
    err = capsys.readouterr().err
    assert f"the game {gid} is still in play" in err, err
    assert f"pasyans resume {gid}" in err
