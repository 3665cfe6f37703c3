"""The home screen's race dialogs: on which deal a new race is, which code to join."""

from __future__ import annotations

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from protocol.messages import RACE_CODE_RE

from ..lang import N_, _
from .dialogs import MODAL_CSS


class RaceDealScreen(ModalScreen[bool | None]):
    """Which deal a new race is on: a fresh one (False) or today's daily (True)."""

    DEFAULT_CSS = MODAL_CSS.format(name="RaceDealScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("f", "answer(False)", N_("Fresh deal")),
        Binding("d", "answer(True)", N_("Daily deal")),
        Binding("escape", "answer(None)", N_("Cancel")),
    ]

    def __init__(self, heading: str) -> None:
        super().__init__()
        self.heading = heading

    def compose(self) -> ComposeResult:
        with Vertical():
            game = f"[b]{escape(self.heading)}[/b]"
            yield Static(_("A race on {game} — on which deal?", game=game), markup=True)
            yield OptionList(
                Option("f  " + _("a fresh deal (nobody has seen it)"), id="fresh"),
                Option(
                    "d  "
                    + _(
                        "today's daily deal (your race game is your daily attempt, "
                        "unless you already played it today)"
                    ),
                    id="daily",
                ),
                markup=False,
            )
            yield Static(_("Enter or a click chooses · Esc cancels"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_id == "daily")

    def action_answer(self, daily: bool | None) -> None:
        self.dismiss(daily)


def race_code(text: str) -> str | None:
    """The code typed (spaces dropped, upper case), or None when it cannot be one:
    the protocol's race code is letters and digits (the server hands out six)."""
    code = "".join(text.split()).upper()
    return code if RACE_CODE_RE.fullmatch(code) else None


class JoinRaceScreen(ModalScreen[str | None]):
    """Type a friend's race code; dismissed with the code (upper case), or None.

    Only the code's shape is checked here; whether a race has it is the server's
    answer, which the home screen shows by opening this dialog again with ``error``.
    """

    DEFAULT_CSS = (
        MODAL_CSS.format(name="JoinRaceScreen")
        + """
    JoinRaceScreen #why { color: $warning; height: auto; }
    JoinRaceScreen #buttons { height: auto; margin-top: 1; }
    JoinRaceScreen Button { margin-right: 2; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", N_("Cancel"))]  # noqa: RUF012

    def __init__(self, code: str = "", error: str = "") -> None:
        super().__init__()
        self.code = code
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical():
            heading = escape(_("Join a race"))
            shows = escape(_("the code your friend's lobby shows"))
            yield Static(f"[b]{heading}[/b] — {shows}", markup=True)
            yield Input(
                self.code,
                placeholder=_("e.g. {code}", code="K7QX2M"),
                id="code",
                max_length=12,
            )
            yield Static(self.error, id="why", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Join"), id="join", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.join()

    @on(Button.Pressed, "#join")
    def join_pressed(self) -> None:
        self.join()

    @on(Button.Pressed, "#cancel")
    def cancel_pressed(self) -> None:
        self.dismiss(None)

    def join(self) -> None:
        text = self.query_one(Input).value
        code = race_code(text)
        if code is None:
            why = (
                _("type the race's code first")
                if not text.strip()
                else _(
                    "'{text}' is not a race code: letters and digits, like K7QX2M",
                    text=text.strip(),
                )
            )
            self.query_one("#why", Static).update(why)
            return
        self.dismiss(code)
