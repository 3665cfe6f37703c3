"""Your inbox (i on the home screen): invites from friends and news, newest first;
Enter accepts the chosen one in one key (joins the race, plays the challenge, or shows
a challenge's results) and marks it read; r marks every item read."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable, Static

from protocol.messages import Mode

from .. import tournaments as tours
from ..challenges import challenge_text
from ..connection import ClientError
from ..inbox import item_action, item_text, item_when
from ..lang import N_, _, ngettext
from ..launch import Launch
from .base import LIST_CSS, ListScreen, acting
from .dialogs import TextScreen
from .tournament import TournamentScreen

READ_HINT = N_("r marks all read · q back")


class InboxScreen(ListScreen):
    DEFAULT_CSS = LIST_CSS.format(name="InboxScreen")
    TABLE = "inbox"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "accept", N_("Accept")),
        Binding("r", "read_all", N_("All read")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.items: list[dict[str, Any]] = []

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("", _("what"), _("when (UTC)"))
        self.query_one(DataTable).focus()  # the load: on_screen_resume (on push too)

    def load(self, note: str = "") -> None:
        self.fetch(self.host.conn.inbox, lambda result: self.draw(result, note))

    def draw(self, result: dict[str, Any], note: str) -> None:
        self.items = list(result.get("items") or [])
        table = self.query_one(DataTable)
        table.clear()
        for item in self.items:
            mark = " " if item.get("read") else "•"
            table.add_row(mark, item_text(item, self.host.titles), item_when(item)[5:])
        unread = int(result.get("unread") or 0)
        self.query_one("#head", Static).update(
            ngettext(
                "pasyans · your inbox · {n} unread (•) · the last 30 days",
                "pasyans · your inbox · {n} unread (•) · the last 30 days",
                unread,
            )
        )
        hint = _("Enter accepts the chosen item · r marks all read · q back")
        if not self.items:
            hint = _("nothing yet: friends' invites and news come here · q back")
        self.say(f"{note} · {hint}" if note else hint)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = event.cursor_row
        if 0 <= row < len(self.items):
            action = item_action(self.items[row])
            self.say(_("Enter: {action}", action=action) if action else _(READ_HINT))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_accept()

    @acting
    async def action_accept(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.items):
            return
        item = self.items[row]
        conn = self.host.conn
        try:
            await conn.inbox_read(str(item["id"]))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        race, challenge = item.get("race") or {}, item.get("challenge") or {}
        tournament = item.get("tournament") or {}
        if tournament:
            try:
                shown = await tours.show(conn, str(tournament["code"]))
            except ClientError as exc:
                self.load(_("error: {error}", error=exc))
                return
            self.app.push_screen(TournamentScreen(shown))
        elif race:
            error = await self.host.open_race(Launch(race=str(race["code"])))
            if error is not None:
                self.load(_("error: {error}", error=error))
        elif item.get("kind") == "invite" and challenge:
            await self.host.open_game(
                str(item.get("game")), Mode.CHALLENGE, challenge=str(challenge["code"])
            )
        elif challenge:
            try:
                shown = await conn.challenge(str(challenge["code"]))
            except ClientError as exc:
                self.load(_("error: {error}", error=exc))
                return
            text = challenge_text(shown, self.host.titles)
            heading = _("challenge {code}", code=challenge["code"])
            self.app.push_screen(TextScreen(heading, text))
        else:
            self.load(_("marked read"))

    def on_screen_resume(self) -> None:
        self.load()

    @acting
    async def action_read_all(self) -> None:
        try:
            await self.host.conn.inbox_read()
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.load(_("every item marked read"))
