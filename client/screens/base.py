"""What the screens share: :class:`HostedScreen`, a full screen with a status line
that talks to its host, and :class:`ListScreen`, one whose body is a table."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..connection import ClientError
from ..host import Host, host
from ..lang import _
from ..text import title
from ..widgets import KeyFooter
from .dialogs import RulesScreen

LIST_CSS = """
{name} {{ layout: vertical; }}
{name} #head {{ height: auto; background: $primary; color: $text; padding: 0 1; }}
{name} DataTable {{ height: 1fr; }}
{name} #status {{ height: auto; padding: 0 1; color: $text-muted; }}
"""


class HostedScreen(Screen[None]):
    """A full screen with a ``#status`` line, served by the app's :class:`Host`."""

    @property
    def host(self) -> Host:
        return host(self)

    def say(self, text: str) -> None:
        """The status line: ``text``, or no line at all when there is nothing to say
        (an 80×24 terminal has no row to spare)."""
        status = self.query_one("#status", Static)
        status.update(text)
        status.display = bool(text)

    async def show_rules(self, slug: str) -> None:
        """The rules of ``slug`` in a panel (the server's refusal on the status line)."""
        try:
            text = await self.host.conn.rules(slug)
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.app.push_screen(RulesScreen(title(slug, self.host.titles), text))


class ListScreen(HostedScreen):
    """A heading, a table (``#TABLE``), the status line and the footer."""

    TABLE = "table"

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield DataTable(id=self.TABLE, cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield KeyFooter()
