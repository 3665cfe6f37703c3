"""The players you follow and how they did on today's dailies (f on the home
screen): a follows a player by name, d stops following the chosen one."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from ..connection import ClientError
from ..lang import N_
from ..records import friend, friends, today_lines
from .base import LIST_CSS, ListScreen
from .dialogs import MODAL_CSS


class FollowScreen(ModalScreen[str | None]):
    """Ask for the name of a player to follow."""

    DEFAULT_CSS = MODAL_CSS.format(name="FollowScreen")
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Follow a player: type their name, Enter (Esc cancels)")
            yield Input(placeholder="name", id="name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FriendsScreen(ListScreen):
    DEFAULT_CSS = LIST_CSS.format(name="FriendsScreen")
    TABLE = "friends"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("a", "follow", N_("Follow")),
        Binding("d", "unfollow", N_("Unfollow")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.result: dict[str, Any] = {}

    @property
    def rows(self) -> list[dict[str, Any]]:
        return list(self.result.get("friends") or [])

    async def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("friend", "today's dailies")
        await self.load()
        self.query_one(DataTable).focus()

    async def load(self, note: str = "") -> None:
        try:
            self.result = await friends(self.host.conn)
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        table = self.query_one(DataTable)
        table.clear()
        for row in self.rows:  # a line a game: a friend's dailies are never cut at 80 columns
            lines = today_lines(row.get("today") or {}, self.host.titles)
            table.add_row(row["player"], "\n".join(lines), height=len(lines))
        self.query_one("#head", Static).update(
            f"pasyans · your friends · dailies of {self.result.get('date')} (UTC)"
        )
        hint = "a follows a player · d stops following · q back"
        if not self.rows:
            hint = "you follow nobody yet: " + hint
        self.say(f"{note} · {hint}" if note else hint)

    def action_follow(self) -> None:
        async def typed(name: str | None) -> None:
            if not name:
                return
            try:
                result = await friend(self.host.conn, name, add=True)
            except ClientError as exc:
                self.say(f"error: {exc}")
                return
            await self.load(f"you follow {result['friend']}")

        self.app.push_screen(FollowScreen(), typed)

    async def action_unfollow(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.rows):
            return
        try:
            result = await friend(self.host.conn, self.rows[row]["player"], add=False)
        except ClientError as exc:
            self.say(f"error: {exc}")
            return
        await self.load(f"you no longer follow {result['friend']}")
