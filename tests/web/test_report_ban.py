"""Issue 49 in the browser: a player reports a friend from the friends page (the
operators read it with ``pasyans-server admin reports``); the operators ban that friend,
whose page is closed at once, then says in words that the account is banned, and why
(the token kept)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from tests.support import RedisProcess, ServerProcess
from tests.web.pages import opened, shot
from tools.browser import sign_in

from .test_friends import follow

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def admin(server: ServerProcess, redis: RedisProcess, *args: str) -> str:
    prefix = server.env["PASYANS_KEY_PREFIX"]
    done = subprocess.run(
        [sys.executable, "-m", "server", "admin", *args, "--redis-url", redis.url],
        capture_output=True,
        text=True,
        env={**os.environ, "PASYANS_KEY_PREFIX": prefix},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_report_from_friends_then_a_ban_said_in_words(
    browser: Any, web_server: ServerProcess, redis_server: RedisProcess
) -> None:
    with opened(browser, web_server) as ann, opened(browser, web_server) as bo:
        an, bn = sign_in(ann, "Reporter"), sign_in(bo, "Reported")
        follow(ann, bn)
        ann.click(f"[data-friend='{bn}'] [data-do=report]")
        ann.select_option(f"[data-report='{bn}'] [data-field=report-reason]", "name")
        ann.fill(f"[data-report='{bn}'] [data-field=report-text]", "rude name")
        ann.click(f"[data-report='{bn}'] [data-do=report-send]")
        ann.wait_for_selector(f"[data-friend='{bn}'] [data-do=report]:has-text('✓')")
        listed = admin(web_server, redis_server, "reports", "--count", "1000")
        assert f"{an} reports {bn} for name: rude name" in listed

        token = bo.evaluate("() => window.pasyans.app.account.token")
        admin(web_server, redis_server, "ban", bn, "--reason", "bad words")
        said = bo.wait_for_selector("[data-banned='1']").inner_text()
        assert "bad words" in said and "error." not in said
        assert bo.evaluate("() => window.pasyans.app.account.token") == token  # kept
        shot(bo, "pasyans-banned")
