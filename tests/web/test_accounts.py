"""The web client's account keeping (issue 49) in a real headless Chromium against a
real server: a phone linked to a laptop's account by the code the laptop shows, big
and counted down; signing out everywhere else; the data downloaded; the account
deleted, its name typed again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import ServerProcess
from tests.web.pages import PHONE, STEP, base, opened
from tools.browser import sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture
def laptop(browser: Any, web_server: ServerProcess) -> Iterator[Any]:
    with opened(browser, web_server) as page:
        yield page


def test_a_phone_is_linked_by_a_code_then_signed_out_and_the_account_left(
    browser: Any, web_server: ServerProcess, laptop: Any
) -> None:
    name = sign_in(laptop)
    laptop.click("a.me")
    laptop.click("[data-do=link-code]")
    shown = laptop.wait_for_selector("[data-link-code]")
    code = shown.get_attribute("data-link-code")
    assert code and len(code) == 8 and shown.inner_text() == code
    left = int(laptop.get_attribute("[data-link-left]", "data-link-left") or 0)
    assert 0 < left <= 300
    with opened(browser, web_server, viewport=PHONE) as phone:
        phone.click("details summary")
        phone.fill("[data-field=token]", f"{code[:4].lower()} {code[4:]}")  # as typed
        phone.click("[data-do=login]")
        phone.wait_for_selector("[data-game=crescent]")
        assert phone.evaluate("() => window.pasyans.app.account.player") == name
        # the same code again, on a third device: refused in words
        with opened(browser, web_server) as third:
            third.click("details summary")
            third.fill("[data-field=token]", code)
            third.click("[data-do=login]")
            error = third.wait_for_selector(".signin .error")
            assert "code" in error.inner_text().lower()
        # a second tab of the laptop's browser (the same localStorage)
        tab = laptop.context.new_page()
        tab.set_default_timeout(STEP)
        tab.goto(base(web_server))
        tab.wait_for_selector("[data-game=crescent]")
        # the laptop signs out everywhere else: the phone is back at signing in
        old = laptop.evaluate("() => window.pasyans.app.account.token")
        laptop.once("dialog", lambda d: d.accept())
        laptop.click("[data-do=token-rotate]")
        laptop.wait_for_selector(".keeping .said")
        new = laptop.evaluate("() => window.pasyans.app.account.token")
        assert new != old
        stored = laptop.evaluate("() => JSON.parse(localStorage.getItem('pasyans.account'))")
        assert stored["token"] == new
        phone.wait_for_selector("[data-field=name]")  # the sign-in screen
        # the laptop's other tab, closed too, signs in again with the token its
        # browser now keeps: it never forgets the account
        tab.wait_for_function(
            "t => window.pasyans.app.signedIn && window.pasyans.app.account.token === t", arg=new
        )
        tab.close()
    # the data, downloaded as a file
    with laptop.expect_download() as got:
        laptop.click("[data-do=export]")
    data = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert data["player"] == name and new not in json.dumps(data)
    # leaving: the name typed again
    laptop.click(".leave summary")
    laptop.fill("[data-field=leave-name]", name)
    laptop.click("[data-do=delete-account]")
    laptop.wait_for_selector("[data-field=name]")
    assert laptop.evaluate("() => localStorage.getItem('pasyans.account')") is None
