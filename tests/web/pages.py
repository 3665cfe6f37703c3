"""What the browser tests share: the hang guard of a page's steps, the page's address,
and a page opened on it that fails its test on any error of the page's own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support import GUARD, ServerProcess

#: milliseconds any one step of the page may take before the test fails: a hang guard
#: (tests/support/wait.py's GUARD), far beyond a loaded machine or a fresh daily
STEP = int(GUARD * 1000)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def base(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}/"


@contextmanager
def opened(
    browser: Any, server: ServerProcess, *, viewport: dict[str, int] = DESKTOP, **options: Any
) -> Iterator[Any]:
    """A new browser context's page on the server's page; errors thrown in the page
    fail the test when the block ends."""
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(STEP)
    page.goto(base(server))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors
