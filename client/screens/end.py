"""The panel at the end of a game: won or lost, the counters, the rank on the daily
board; the result to share, a challenge of it, the leaderboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..challenges import made_text, share_lines
from ..connection import ClientError
from ..host import host
from ..lang import N_, _, ngettext
from ..records import share
from ..text import assisted, clock, end_words
from .dialogs import MODAL_CSS
from .leaderboard import LeaderboardScreen


class EndScreen(ModalScreen[None]):
    """Won or lost, with the counters and the rank on the daily board."""

    DEFAULT_CSS = MODAL_CSS.format(name="EndScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "dismiss", N_("Back to the board")),
        Binding("escape", "dismiss", N_("Back to the board")),
        Binding("q", "leave", N_("Leave")),
        Binding("l", "leaderboard", N_("Leaderboard")),
        Binding("c", "share", N_("Copy result")),
        Binding("C", "challenge", N_("Challenge a friend")),
    ]

    def __init__(
        self, state: Mapping[str, Any], heading: str, rank: int | None, *, resigned: bool = False
    ) -> None:
        super().__init__()
        self.state = state
        self.heading = heading
        self.rank = rank
        self.resigned = resigned
        #: the text ``c`` shared (copied and shown)
        self.shared = ""
        #: the code of the challenge ``C`` made of this game ("" before)
        self.challenge = ""
        self.made = ""

    def compose(self) -> ComposeResult:
        state = self.state
        lines = [
            f"[b]{end_words(state, self.resigned)}[/b]",
            self.heading,
            _(
                "{done}/{total} cards on the foundations",
                done=state.get("foundation"),
                total=state.get("total"),
            ),
            ngettext(
                "{n} move in {clock}",
                "{n} moves in {clock}",
                int(state.get("moves") or 0),
                clock=clock(state.get("time_ms")),
            ),
        ]
        if self.rank is not None:
            lines.append(_("rank {rank} on today's board", rank=self.rank))
        if state.get("auto_completed"):
            lines.append(_("auto-completed: the server played out the certain win"))
        if assisted(state):
            lines.append(
                _("assisted: the solver helped (a hint or its finish), so it ranks nowhere")
            )
        lines.append("")
        lines.append(_("Enter: look at the board · l: leaderboard · c: copy the result · q: leave"))
        if self.state.get("game_id"):
            lines.append(_("C: challenge friends to beat this result on the same deal"))
        with Vertical():
            yield Static("\n".join(lines), id="end", markup=True)
            yield Static(id="shared", markup=False)

    async def action_share(self) -> None:
        """The result as text to share: copied to the clipboard where the terminal
        allows it (OSC 52; not every terminal does) and shown here in any case."""
        try:
            text = await share(host(self).conn, self.state, host(self).titles)
        except ClientError as exc:
            self.query_one("#shared", Static).update(_("error: {error}", error=exc))
            return
        self.shared = text
        self.app.copy_to_clipboard(text)
        self.query_one("#shared", Static).update(
            f"\n{text}\n\n" + _("(copied to the clipboard if your terminal allows it)")
        )

    async def action_challenge(self) -> None:
        """A challenge of this game (its result the mark to beat): its code, and the
        result to share carrying it, copied like ``c``'s (made once: ``C`` again shows
        the same code)."""
        conn = host(self).conn
        try:
            if not self.challenge:
                made = await conn.challenge_create(str(self.state["game_id"]))
                self.challenge = str(made["code"])
                self.made = made_text(made)
            text = await share(conn, self.state, host(self).titles)
        except ClientError as exc:
            self.query_one("#shared", Static).update(_("error: {error}", error=exc))
            return
        self.shared = "\n".join([text, *share_lines(self.challenge)])
        self.app.copy_to_clipboard(self.shared)
        self.query_one("#shared", Static).update(
            f"\n{self.made}\n\n{self.shared}\n\n"
            + _("(copied to the clipboard if your terminal allows it)")
        )

    def action_leave(self) -> None:
        self.dismiss()
        host(self).leave_board()

    def action_leaderboard(self) -> None:
        """The board this game counts on: its day's daily board (a past day's too); a
        challenge's results are the challenge's own, not a daily board."""
        if self.state.get("mode") == "challenge":
            self.query_one("#shared", Static).update(
                "\n" + _("a challenge's results: your inbox (i at home) or `pasyans challenges`")
            )
            return
        self.dismiss()
        date = str(self.state.get("date") or "") or None
        self.app.push_screen(LeaderboardScreen(str(self.state["game"]), date=date))
