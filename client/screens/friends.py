"""The players you follow, whether they are online and what they do, and how they
did on today's dailies (f on the home screen): a follows a player by name, d stops
following the chosen one; i invites them to a new race of the game chosen at home, c
to a challenge on a fresh deal of it, j joins their race's lobby, b blocks (or
unblocks) them, h hides (or shows) your own presence."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from .. import tournaments as tours
from ..connection import ClientError
from ..inbox import presence_lines
from ..lang import N_, _, current
from ..launch import Launch
from ..records import friend, friends, today_lines
from ..text import ratings_lines, short_title
from .base import LIST_CSS, ListScreen, acting
from .dialogs import MODAL_CSS

#: seconds between asks for your friends' presence while the screen is shown
REFRESH_SECONDS = 10.0


class FollowScreen(ModalScreen[str | None]):
    """Ask for the name of a player to follow."""

    DEFAULT_CSS = MODAL_CSS.format(name="FollowScreen")
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Follow a player: type their name, Enter (Esc cancels)"))
            yield Input(placeholder=_("name"), id="name")

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
        Binding("i", "invite_race", N_("Race them")),
        Binding("c", "invite_challenge", N_("Challenge")),
        Binding("t", "invite_tournament", N_("Tournament")),
        Binding("j", "join", N_("Join")),
        Binding("b", "block", N_("Block")),
        Binding("h", "hide", N_("Hide me")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.result: dict[str, Any] = {}
        #: what the status line says before the keys' hint (kept when asked again)
        self.note = ""
        #: the game chosen on the home screen: invites are to a race or challenge of it
        self.game = game

    @property
    def rows(self) -> list[dict[str, Any]]:
        return list(self.result.get("friends") or [])

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(_("friend"), _("today's dailies"), _("rating"))
        self.query_one(DataTable).focus()
        self.load()
        # who is online and in which game changes while you look: asked again now and then
        self.set_interval(REFRESH_SECONDS, self.refresh_presence)

    def refresh_presence(self) -> None:
        if self.is_current and not self.running() and not self.running("act"):
            self.load(self.note)

    def load(self, note: str = "") -> None:
        self.fetch(lambda: friends(self.host.conn), lambda result: self.draw(result, note))

    def draw(self, result: dict[str, Any], note: str) -> None:
        self.result, self.note = result, note
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        for row in self.rows:  # a line a game: a friend's dailies are never cut at 80 columns
            lines = today_lines(row.get("today") or {}, self.host.titles)
            who = [row["player"], *presence_lines(row)]
            rated = ratings_lines(row.get("ratings"), self.host.titles) or ["—"]
            height = max(len(lines), len(who), len(rated))
            table.add_row("\n".join(who), "\n".join(lines), "\n".join(rated), height=height)
        if self.rows:
            table.move_cursor(row=min(max(cursor, 0), len(self.rows) - 1))
        day = self.result.get("date")
        head = _(
            "pasyans · your friends · dailies of {day} (UTC)",
            day=current().date(str(day)) if day else "",
        )
        if self.result.get("hidden"):
            head += " · " + _("you show offline (h)")
        self.query_one("#head", Static).update(head)
        game = short_title(self.game, self.host.titles) if self.game else _("a game")
        hint = _(
            "i races, c challenges the chosen friend on {game} · t invites them to your "
            "tournament · j joins their lobby",
            game=game,
        )
        if not self.rows:
            hint = _("you follow nobody yet: a follows a player by name · q back")
        blocked = self.result.get("blocked") or []
        if blocked and not note:  # a note on blocking names them already
            hint += " · " + _("you block {names}", names=", ".join(blocked))
        self.say(f"{note} · {hint}" if note else hint)

    def chosen(self) -> dict[str, Any] | None:
        row = self.query_one(DataTable).cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) else None

    @acting
    async def action_invite_race(self) -> None:
        """A new race of the home screen's game, the chosen friend invited, its lobby."""
        who = self.chosen()
        if who is None or self.game is None:
            return
        try:
            race = await self.host.conn.race_create(self.game)
            await self.host.conn.invite(who["player"], race=str(race["code"]))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.notify(
            _("{player} is invited to your race {code}", player=who["player"], code=race["code"])
        )
        error = await self.host.open_race(Launch(race=str(race["code"])))
        if error is not None:
            self.say(_("error: {error}", error=error))

    @acting
    async def action_invite_tournament(self) -> None:
        """The chosen friend invited to your tournament (the one starting first of those
        you made or are in, not over)."""
        who = self.chosen()
        if who is None:
            return
        conn = self.host.conn
        try:
            tournament = tours.open_to_invite(await tours.lobby(conn), conn.player)
            if tournament is None:
                self.say(
                    _("you are in no tournament: make one first (t on the home screen, then n)")
                )
                return
            await tours.invite(conn, str(who["player"]), str(tournament["code"]))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.say(
            _(
                "{player} is invited to your tournament {code}",
                player=who["player"],
                code=tournament["code"],
            )
        )

    @acting
    async def action_invite_challenge(self) -> None:
        """A challenge on a fresh deal of the home screen's game, sent to the chosen
        friend; you play it too, from your inbox or here."""
        who = self.chosen()
        if who is None or self.game is None:
            return
        try:
            made = await self.host.conn.challenge_create(None, game=self.game)
            await self.host.conn.invite(who["player"], challenge=str(made["code"]))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        said = _(
            "challenge {code} sent to {player}: play it too with pasyans challenge play {code}",
            code=made["code"],
            player=who["player"],
        )
        url = made.get("url")
        self.say(f"{said} · {url}" if url else said)

    @acting
    async def action_join(self) -> None:
        who = self.chosen()
        if who is None or not who.get("race"):
            self.say(_("j joins a friend's race while its lobby is open: none chosen"))
            return
        error = await self.host.open_race(Launch(race=str(who["race"])))
        if error is not None:
            self.say(_("error: {error}", error=error))

    @acting
    async def action_block(self) -> None:
        who = self.chosen()
        if who is None:
            return
        name = str(who["player"])
        try:
            result = await self.host.conn.block(name)
            if not result.get("blocked"):
                await self.host.conn.block(name, add=False)
                self.load(_("you no longer block {name}", name=name))
                return
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.load(
            _("you block {name}: their invites are dropped and they see nothing of you", name=name)
        )

    @acting
    async def action_hide(self) -> None:
        try:
            hidden = not self.result.get("hidden")
            await self.host.conn.presence(hidden)
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.load(_("you show as offline") if hidden else _("your friends see you online"))

    def action_follow(self) -> None:
        def typed(name: str | None) -> None:
            if name:
                self.act(follow(name))

        async def follow(name: str) -> None:
            try:
                result = await friend(self.host.conn, name, add=True)
            except ClientError as exc:
                self.say(_("error: {error}", error=exc))
                return
            self.load(_("you follow {name}", name=result["friend"]))

        self.app.push_screen(FollowScreen(), typed)

    @acting
    async def action_unfollow(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.rows):
            return
        try:
            result = await friend(self.host.conn, self.rows[row]["player"], add=False)
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.load(_("you no longer follow {name}", name=result["friend"]))
