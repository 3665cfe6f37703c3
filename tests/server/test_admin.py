"""``pasyans-server admin`` (issue 49, the operators' half) against a real Redis and a
real server: ban and unban, remove-result, reports (and the ``report`` op), the audit
log, bad input refused. Each test runs its command as the operator runs it, a process
of its own with the server's storage flags (:func:`admin`); the further commands of a
test (the refusals, the audit log after) run the same ``main`` in this process
(:func:`admin_here`: each process would start the server's imports again, half a
CPU-second)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from protocol.i18n import translate_parser
from server.__main__ import build_parser, operator_words
from server.net import App
from server.services import FakeClock
from server.services.clock import utc_date
from server.services.moderation import REPORTS_PER_HOUR
from tests.support import TestClient, connect
from tests.support.admin import run_here

from .services.test_daily import finish_daily

TODAY = "2026-03-14"


async def admin(app: App, redis_url: str, *args: str, lang: str = "en") -> tuple[int, str, str]:
    """Run ``pasyans-server admin ARGS`` on the app's Redis and key prefix: its exit
    code, output and error output."""
    assert app.store is not None
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        "admin",
        *args,
        "--redis-url",
        redis_url,
        "--key-prefix",
        app.store.keys.prefix,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PASYANS_LANG": lang},
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def admin_here(app: App, redis_url: str, *args: str) -> tuple[int, str, str]:
    """:func:`admin`, with the same ``main`` run in this process, in English."""
    assert app.store is not None
    flags = ["--redis-url", redis_url, "--key-prefix", app.store.keys.prefix]
    return await run_here(["admin", *args, *flags])


async def board_players(c: TestClient, **params: Any) -> list[str]:
    board = await c.call("leaderboard", game="crescent", **params)
    return [e["player"] for e in board["entries"]]


async def test_ban_refuses_disconnects_and_takes_off_every_board(
    app: App, redis_url: str, ws_url: str, clock: FakeClock
) -> None:
    async with connect(ws_url) as cheat, connect(ws_url) as friend:
        token = await cheat.register("Cheater")
        await friend.register("Honest")
        await finish_daily(cheat, 2)
        await finish_daily(friend, 1)
        await friend.call("friend_add", name="Cheater")
        assert set(await board_players(friend)) == {"Cheater", "Honest"}

        code, out, err = await admin(app, redis_url, "ban", "cheater", "--reason", "a solver")
        assert code == 0, err
        assert "banned cheater: 2 results" in out  # the day's board and the all-time
        with pytest.raises(ConnectionClosed):  # closed at once: await it
            while True:
                await cheat.recv()
        assert await board_players(friend) == ["Honest"]
        assert await board_players(friend, board="alltime") == ["Honest"]
        assert await board_players(friend, friends=True) == ["Honest"]
        assert await board_players(friend, date=TODAY) == ["Honest"]
    async with connect(ws_url) as again:
        err_ = await again.error("auth", token=token)
        assert err_["code"] == "unauthorized" and err_["key"] == "error.banned"
        assert err_["params"] == {"reason": "a solver"}

    code, out, _ = await admin(app, redis_url, "unban", "Cheater")
    assert code == 0 and "2 results back" in out
    async with connect(ws_url) as back:
        assert (await back.call("auth", token=token))["player"] == "Cheater"
        assert set(await board_players(back)) == {"Cheater", "Honest"}
        assert set(await board_players(back, board="alltime")) == {"Cheater", "Honest"}

    code, out, _ = await admin(app, redis_url, "log")
    lines = out.splitlines()
    assert code == 0 and [line.split()[4] for line in lines] == ["ban", "unban"]
    assert "player='Cheater'" in lines[0] and "reason='a solver'" in lines[0]


async def test_bad_input_is_refused_clearly(app: App, redis_url: str, player: TestClient) -> None:
    cases = [
        (("ban", "nobody-here"), "no player 'nobody-here'"),
        (("unban", player.player or ""), "is not banned"),
        (("remove-result", "x", "nope", TODAY), "no game 'nope'"),
        (("remove-result", "x", "crescent", "14.03.2026"), "is not a date"),
        (("remove-result", player.player or "", "crescent", TODAY), "has no result"),
        (("ban", "x", "--reason", "a\nb"), "--reason"),
        (("log", "--count", "0"), "--count"),
    ]
    for i, (args, said) in enumerate(cases):
        run = admin if i == 0 else admin_here  # the first as a process of its own
        code, _, err = await run(app, redis_url, *args)
        assert code != 0 and said in err, (args, err)
    code, out, _ = await admin_here(app, redis_url, "log")
    assert code == 0 and out == ""  # nothing refused was done, nor logged


async def test_remove_result_and_the_next_best_all_time(
    app: App, redis_url: str, player: TestClient, clock: FakeClock
) -> None:
    first = await finish_daily(player, 1)
    clock.advance(days=1)
    await finish_daily(player, 4)
    day2 = utc_date(clock.now_ms())
    alltime = (await player.call("leaderboard", game="crescent", board="alltime"))["entries"]
    name = player.player or ""
    code, out, err = await admin(app, redis_url, "remove-result", name, "crescent", day2)
    assert code == 0, err
    assert await board_players(player, date=day2) == []
    assert await board_players(player, date=TODAY) == [name]
    after = (await player.call("leaderboard", game="crescent", board="alltime"))["entries"]
    # the all-time entry is the best of the days left: day one's
    assert [(e["player"], e["foundation"]) for e in after] == [(name, first["foundation"])]
    assert len(alltime) == 1
    code, out, _ = await admin_here(app, redis_url, "log")
    assert "remove-result" in out and f"date='{day2}'" in out


async def test_reports_are_limited_checked_and_listed(
    app: App, redis_url: str, player: TestClient, player2: TestClient
) -> None:
    bad = player2.player or ""
    state = await player2.start("crescent")
    done = await player.call(
        "report", name=bad.upper(), reason="cheating", text="too fast", game_id=state["game_id"]
    )
    assert done == {"player": bad}
    refused: list[tuple[dict[str, Any], str, str | None]] = [
        ({"name": player.player, "reason": "abuse"}, "bad_request", "error.report_self"),
        ({"name": "ghost-player", "reason": "abuse"}, "not_found", "error.no_player"),
        ({"name": bad, "reason": "boring"}, "bad_request", None),
        ({"name": bad, "reason": "other", "text": "x" * 281}, "bad_request", None),
        ({"name": bad, "reason": "other", "text": "a\x00b"}, "bad_request", None),
    ]
    for params, code_, key in refused:
        err = await player.error("report", **params)
        assert err["code"] == code_ and (key is None or err["key"] == key), err
    for _ in range(REPORTS_PER_HOUR - 1):
        await player.call("report", name=bad, reason="name")
    err = await player.error("report", name=bad, reason="name")
    assert err["code"] == "rate_limited" and err["key"] == "error.limit_reports"
    assert err["retry_after"] > 0

    code, out, _ = await admin(app, redis_url, "reports")
    lines = out.splitlines()
    assert code == 0 and len(lines) == REPORTS_PER_HOUR
    assert f"{player.player} reports {bad} for cheating: too fast" in lines[0]
    assert f"pasyans replay {state['game_id']}" in lines[0]
    assert (await admin_here(app, redis_url, "reports", "--count", "2"))[1].count("\n") == 2


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_every_action_has_a_help(
    app: App, redis_url: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``admin --help`` as an operator runs it; each action's help from the same parser
    in this process (a command each would start the server's imports sixteen times)."""
    actions = ["ban", "unban", "remove-result", "rename", "reports", "log", "backup", "restore"]
    code, out, _ = await admin(app, redis_url, "--help", lang=lang)
    assert code == 0 and all(a in out for a in actions)
    # translate_parser sets argparse's own words: give them back after the test
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)  # type: ignore[attr-defined]
    monkeypatch.setenv("PASYANS_LANG", lang)
    parser = translate_parser(build_parser(), operator_words())
    (admin_parser,) = [
        sub
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, sub in action.choices.items()
        if name == "admin"
    ]
    (choices,) = [
        action.choices
        for action in admin_parser._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    assert set(actions) <= set(choices)
    for action in actions:
        out = choices[action].format_help()
        assert "--redis-url" in out
        if lang == "ru":  # the descriptions are said in Russian
            assert any("а" <= ch <= "я" for ch in out.split("--redis-url")[0]), out


async def test_rename_moves_the_account_and_holds_the_old_name(
    app: App, redis_url: str, ws_url: str
) -> None:
    async with connect(ws_url) as rude, connect(ws_url) as fan:
        token = await rude.register("RudeWord")
        await fan.register("FanOfRude")
        await fan.call("friend_add", name="RudeWord")
        await rude.call("friend_add", name="FanOfRude")
        await finish_daily(rude, 2)
        practice = await rude.start("crescent")
        refused = [
            (("rename", "RudeWord", "x"), "'x'"),  # too short: registration's rule
            (("rename", "RudeWord", "fanofrude"), "the name 'fanofrude' is taken"),
            (("rename", "RudeWord", "Fan0fRude"), "looks like the name of 'FanOfRude'"),
            (("rename", "RudeWord", "RudeWord"), "has that name already"),
            (("rename", "nobody-here", "Polite"), "no player"),
        ]
        for args, said in refused:
            code, _, err = await admin_here(app, redis_url, *args)
            assert code != 0 and said in err, (args, err)
        code, out, err = await admin(app, redis_url, "rename", "rudeword", "Polite")
        assert code == 0 and "renamed rudeword to Polite" in out, err
        with pytest.raises(ConnectionClosed):
            while True:
                await rude.recv()
        assert await board_players(fan) == ["Polite"]
        assert await board_players(fan, board="alltime") == ["Polite"]
        assert await board_players(fan, friends=True) == ["Polite"]
        friends = (await fan.call("friends"))["friends"]
        assert [f["player"] for f in friends] == ["Polite"]
    async with connect(ws_url) as again:
        signed = await again.call("auth", token=token)
        assert signed["player"] == "Polite" and signed["renamed_from"] == "RudeWord"
        assert (await again.call("resume", game_id=practice["game_id"]))["state"]["game_id"]
        friends = (await again.call("friends"))["friends"]
        assert [f["player"] for f in friends] == ["FanOfRude"]
    async with connect(ws_url) as later:
        assert "renamed_from" not in await later.call("auth", token=token)  # said once
        held = await later.error("register", name="RudeWord")  # the old name is held
        assert held["code"] == "name_taken"
    code, out, _ = await admin_here(app, redis_url, "log")
    assert "rename" in out and "new='Polite'" in out


async def test_backup_of_an_external_redis_and_no_restore_into_it(
    app: App, redis_url: str, player: TestClient, tmp_path: Any
) -> None:
    code, out, err = await admin(app, redis_url, "backup", str(tmp_path / "b"))
    assert code == 0, err
    assert "1 of 1 snapshots copied" in out
    assert (tmp_path / "b" / "dump.rdb").stat().st_size > 0
    assert '"embedded": false' in (tmp_path / "b" / "backup.json").read_text()
    code, _, err = await admin_here(app, redis_url, "backup", str(tmp_path / "b"))
    assert code != 0 and "is not empty" in err  # never over an earlier backup
    code, _, err = await admin_here(app, redis_url, "restore", str(tmp_path / "b"))
    assert code != 0 and "embedded Redis's --data-dir" in err
