"""What the browser tests share: the hang guard of a page's steps, the page's address,
a page opened on it that fails its test on any error of the page's own, axe-core
(vendored for the tests: tests/web/vendor) run on what a page shows, and the
screenshots some tests take when asked (``PASYANS_SHOTS``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from tests.support import GUARD, ServerProcess, connect, eventually
from tools.browser import NO_HOWTO

#: milliseconds any one step of the page may take before the test fails: a hang guard
#: (tests/support/wait.py's GUARD), far beyond a loaded machine or a fresh daily
STEP = int(GUARD * 1000)

#: the folder the tests' screenshots go to, when set: ``PASYANS_SHOTS=docs/img
#: .venv/bin/python -m pytest tests/web/test_tournaments.py`` (ratings and tournaments)
#: retakes docs/web.md's (unset, as in ``make test``: none is taken, a PNG costs CPU)
SHOTS = os.environ.get("PASYANS_SHOTS", "")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def base(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}/"


@contextmanager
def opened(
    browser: Any, server: ServerProcess, *, viewport: dict[str, int] = DESKTOP, **options: Any
) -> Iterator[Any]:
    """A new browser context's page on the server's page; errors thrown in the page
    fail the test when the block ends. The page's service worker is not registered
    (it fetches the whole shell again and stands between the page and every file it
    loads: a third of a fresh page's CPU) unless ``service_workers="allow"`` says so:
    test_play.py's page opening offline."""
    options.setdefault("service_workers", "block")
    context = browser.new_context(viewport=viewport, **options)
    context.add_init_script(NO_HOWTO)  # test_play.py shows one
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(STEP)
    page.goto(base(server))
    try:
        yield page
    except BaseException:  # pytest.fail's too
        told(page)
        raise
    finally:
        context.close()
    assert not errors, errors


def told(page: Any) -> None:
    """What a page showed when its test failed (its address and words), printed: the
    failure's report shows it (a CI run keeps no browser)."""
    with suppress(Exception):  # a page already closed or hung tells nothing
        text = page.inner_text("body", timeout=5000)[:1500]
        print(f"the page at {page.url} showed:\n{text}")


class Tab:
    """One page a module's tests take turns on (``tab`` in tests/web/conftest.py): a
    page loaded afresh costs far less than a new browser context. Each test gets it
    signed out, its storage cleared and loaded again at ``viewport`` (and
    ``reduced_motion``, as a context's option of that name); the listeners a
    test adds (``on``, ``once``) go with the test, and so do the page's errors (they
    fail it)."""

    def __init__(self, page: Any, server: ServerProcess) -> None:
        self.page = page
        self.server = server
        self.errors: list[str] = []
        self.added: list[tuple[str, Any]] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    @contextmanager
    def turn(
        self, viewport: dict[str, int] = DESKTOP, reduced_motion: str = "no-preference"
    ) -> Iterator[Any]:
        page = self.page
        page.set_viewport_size(viewport)
        page.emulate_media(reduced_motion=reduced_motion)
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        page.goto("about:blank")
        page.goto(base(self.server))
        self.errors.clear()
        try:
            yield self
        except BaseException:  # pytest.fail's too
            told(page)
            raise
        finally:
            for event, handler in self.added:
                with suppress(KeyError):  # a ``once`` already heard
                    page.remove_listener(event, handler)
            self.added.clear()
        assert not self.errors, self.errors

    def on(self, event: str, handler: Any) -> None:
        self.added.append((event, handler))
        self.page.on(event, handler)

    def once(self, event: str, handler: Any) -> None:
        self.added.append((event, handler))
        self.page.once(event, handler)

    def add_init_script(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("an init script would stay for the next tests: use opened()")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)


def shot(page: Any, name: str, **options: Any) -> None:
    """The page as ``$PASYANS_SHOTS/name.png`` when ``PASYANS_SHOTS`` is set; else
    nothing."""
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), **options)


AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")

#: every violation axe finds, as {id, impact, help, where}
RUN_AXE = """async (options) => {
  const result = await axe.run(document, options);
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    where: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
}"""
#: axe's rules, with the one that a name holds the visible text (off by default) on
ALL_RULES = {"rules": {"label-content-name-mismatch": {"enabled": True}}}
CONTRAST = {"runOnly": ["color-contrast"]}


class Audit:
    """axe run on each screen shown; the critical and serious violations kept (the test
    asserts there are none), every other one printed."""

    def __init__(self, page: Any, options: dict[str, Any] = ALL_RULES) -> None:
        self.page = page
        self.options = options
        self.bad: list[str] = []
        self.screens = 0

    def __call__(self, screen: str, ready: str) -> None:
        self.page.wait_for_selector(ready)
        if not self.page.evaluate("() => typeof window.axe !== 'undefined'"):
            self.page.evaluate(AXE)  # after each page load: the page never loads it
        self.screens += 1
        for v in self.page.evaluate(RUN_AXE, self.options):
            line = f"{screen}: {v['impact']} {v['id']} ({v['help']}) at {v['where']}"
            if v["impact"] in ("critical", "serious"):
                self.bad.append(line)
            else:
                print(line)


def past_dailies(server: ServerProcess, days_back: int) -> dict[str, Any]:
    """The ``daily`` reply of the day ``days_back`` days before today, once the
    server's background scan has chosen every game's (a module's ``web_server`` began
    two days ago: tests/web/conftest.py). A page reads the days before when it shows
    them, so a test of them waits for this first, then loads its page."""

    async def chosen() -> dict[str, Any]:
        async with connect(server.url) as c:
            today = datetime.date.fromisoformat((await c.call("daily"))["date"])
            date = (today - datetime.timedelta(days=days_back)).isoformat()

            async def all_chosen() -> dict[str, Any] | None:
                reply: dict[str, Any] = await c.call("daily", date=date)
                done = not any(g.get("preparing") for g in reply["games"].values())
                return reply if done else None

            past: dict[str, Any] = await eventually(
                all_chosen, every=0.1, what=f"the dailies of {date} chosen"
            )
            return past

    # Playwright's sync API runs an event loop in this thread: ask from another one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, chosen()).result()
