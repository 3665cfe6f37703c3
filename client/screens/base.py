"""What the screens share: :class:`HostedScreen`, a full screen with a status line
that talks to its host, and :class:`ListScreen`, one whose body is a table.

A screen never awaits the server in a key's handler or in ``on_mount``: Textual
reads a screen's keys one handler at a time, so a handler waiting for the server held
every key after it (a calendar opened while the server certified the day's dailies
ignored ``q`` for half a minute, then did it all at once). Loads go through
:meth:`HostedScreen.fetch`, which asks in a worker and draws only the answer to the
latest request, for what that request asked (a calendar asked for one game and then
every game draws every game's month, never one game's rows under the other's
columns); an action that waits for the server runs in :meth:`HostedScreen.act`."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, cast

from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static

from ..connection import ClientError
from ..host import Host, host
from ..lang import _
from ..text import title
from ..widgets import KeyFooter, Table
from .dialogs import RulesScreen

if TYPE_CHECKING:
    from textual.worker import WorkType

LIST_CSS = """
{name} {{ layout: vertical; }}
{name} #head {{ height: auto; background: $primary; color: $text; padding: 0 1; }}
{name} DataTable {{ height: 1fr; }}
{name} #status {{ height: auto; padding: 0 1; color: $text-muted; }}
"""


#: the terminal's lines from which a board keeps its hint line under a message
ROOMY = 30

T = TypeVar("T")
P = ParamSpec("P")
S = TypeVar("S", bound="HostedScreen")


def acting(
    method: Callable[Concatenate[S, P], Awaitable[Any]],
) -> Callable[Concatenate[S, P], None]:
    """An action that waits for the server, made one that returns at once: it runs in
    a worker (:meth:`HostedScreen.act`), so the screen goes on reading keys."""

    def action(self: S, *args: P.args, **kwargs: P.kwargs) -> None:
        self.act(method(self, *args, **kwargs))

    return functools.update_wrapper(action, method)  # type: ignore[return-value]


class HostedScreen(Screen[None]):
    """A full screen with a ``#status`` line, served by the app's :class:`Host`."""

    def fetch(
        self,
        ask: Callable[[], Awaitable[T]],
        draw: Callable[[T], Awaitable[None] | None],
        *,
        failed: Callable[[ClientError], Awaitable[None] | None] | None = None,
        group: str = "load",
    ) -> None:
        """Ask the server (``ask()``) in a worker and ``draw`` its answer, unless a
        later :meth:`fetch` was asked for meanwhile (the earlier one is cancelled, and
        its answer, come too late to cancel, dropped). ``draw`` is made by the caller
        for what it asked (the month, the game, the page), never reading the screen's
        fields as they are when the answer comes. A refusal goes to ``failed``, else
        to the status line. Returns at once: the screen goes on reading keys.
        Loads of different ``group`` (the screen's body, a rules panel) do not cancel
        each other."""
        asked = self.__dict__.setdefault("_asked", {})
        number = asked[group] = asked.get(group, 0) + 1

        async def load() -> None:
            try:
                answer = await ask()
            except ClientError as exc:
                if number == asked[group]:
                    said = (failed or self.said)(exc)
                    if inspect.isawaitable(said):
                        await said
                return
            if number != asked[group]:
                return  # a later request's answer is the one to show
            with self.unless_gone():
                drawn = draw(answer)
                if inspect.isawaitable(drawn):
                    await drawn

        # the function, not a coroutine: a worker cancelled before it starts (by a later
        # fetch) never calls it, where an unawaited coroutine would warn
        self.run_latest(load, group=group)

    def run_latest(self, work: Callable[[], Coroutine[Any, Any, None]], *, group: str) -> None:
        """Run ``work()`` in a worker of ``group``, cancelling the group's running one.
        It takes the coroutine function, not a coroutine: a worker cancelled before it
        starts never calls it, where a coroutine made for it would never be awaited."""
        self.run_worker(cast("WorkType[None]", work), group=group, exclusive=True)

    @contextlib.contextmanager
    def unless_gone(self) -> Iterator[None]:
        """Draw an answer into the screen's widgets, unless the screen went away while
        it was asked for (removed, or the app closing): then there is nothing to draw
        into, and nothing is (a worker's answer may come after its screen's widgets)."""
        try:
            yield
        except NoMatches:
            if self.is_attached and not (self._closing or self._closed):
                raise

    def said(self, error: ClientError) -> None:
        self.say(_("error: {error}", error=error))

    def running(self, group: str = "load") -> bool:
        """Whether a worker of ``group`` (a load: :meth:`fetch`) is under way."""
        return any(w.node is self and w.group == group and not w.is_finished for w in self.workers)

    def act(self, work: Awaitable[Any], group: str = "act") -> None:
        """An action that waits for the server (opening a game, following a friend), in
        a worker so that keys go on being read; while one of ``group`` is under way a
        second is not started (Enter pressed twice opens one game)."""
        if self.running(group):
            if inspect.iscoroutine(work):
                work.close()
            return
        self.run_worker(work, group=group)

    @property
    def host(self) -> Host:
        return host(self)

    def say(self, text: str) -> None:
        """The status line: ``text``, or no line at all when there is nothing to say
        (an 80×24 terminal has no row to spare)."""
        status = self.query_one("#status", Static)
        status.update(text)
        status.display = bool(text)
        if self.app.size.height < ROOMY:  # a board's hint gives way to what is said
            for hint in self.query("#hint"):  # (Carpet's last row stays on screen)
                hint.display = not text

    def show_rules(self, slug: str) -> None:
        """The rules of ``slug`` in a panel (the server's refusal on the status line)."""

        def shown(text: str) -> None:
            self.app.push_screen(RulesScreen(title(slug, self.host.titles), text))

        self.fetch(lambda: self.host.conn.rules(slug), shown, group="rules")


class ListScreen(HostedScreen):
    """A heading, a table (``#TABLE``), the status line and the footer."""

    TABLE = "table"

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield Table(id=self.TABLE, cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield KeyFooter()
