"""Fixtures of the web client's tests: a real redis-server and server (tests/support),
and for the browser tests one headless Debian Chromium driven by Playwright (its
headless shell when installed: tools/browser.py's TEST_CHROMIUM).

The browser is the system's (``apt-get install chromium``), never one Playwright
downloads: ``playwright==1.64.1`` (dev extras) expects Chromium 156, Debian's. Without
it the browser tests skip and say how to install it."""

from __future__ import annotations

import datetime
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import RedisProcess, ServerProcess
from tests.support.fixtures import *  # noqa: F403
from tests.web.pages import Tab, opened
from tools.browser import TEST_CHROMIUM

INSTALL = (
    "the browser tests need Debian's chromium-headless-shell or chromium (apt-get install "
    "chromium-headless-shell) and the dev extras' playwright (pip install -e '.[dev]'); "
    ".ci/run installs the headless shell when missing"
)


@pytest.fixture(scope="module")
def web_server(redis_server: RedisProcess) -> Iterator[ServerProcess]:
    """A server process (restartable on its port) for a module's browser tests."""
    prefix = {"PASYANS_KEY_PREFIX": f"web{uuid.uuid4().hex[:8]}:"}
    # The deployment began the day before yesterday: its background scan chooses (at
    # the tests' tiny budget) today's dailies and the past days', so the home page has
    # a day before whose commitments it verifies.
    first = (datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=2)).isoformat()
    past = ("--first-day", first, "--prepare-dailies", "--prepare-days", "0")
    with ServerProcess(
        "--race-countdown", "0.3", *past, redis_url=redis_server.url, env=prefix
    ) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(TEST_CHROMIUM):
        pytest.skip(f"no Chromium at {TEST_CHROMIUM}: {INSTALL}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(f"no playwright: {INSTALL}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=TEST_CHROMIUM)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def tab(browser: Any, web_server: ServerProcess) -> Iterator[Tab]:
    """The module's one page on ``web_server`` (``page`` gives each test its turn)."""
    with opened(browser, web_server) as page:
        yield Tab(page, web_server)


@pytest.fixture
def page(tab: Tab) -> Iterator[Any]:
    """A page on ``web_server``, signed out, at a laptop's size: the module's one page
    (tests/web/pages.py's ``Tab``), loaded afresh for this test."""
    with tab.turn() as page:
        yield page
