"""Small screens: rules, confirmations, move choices, the end of a game, messages,
the first-run name prompt, and the home screen's race dialogs (which deal to race
on, which code to join)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from protocol.cards import pretty
from protocol.messages import RACE_CODE_RE

from .notation import format_move
from .text import clock

WireMove = dict[str, Any]

MODAL_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 80%; max-width: 100; height: auto; max-height: 90%;
    border: thick $primary; background: $surface; padding: 1 2;
}}
"""


class RulesScreen(ModalScreen[None]):
    """A game's rules (Markdown from the server) in a scrollable panel."""

    DEFAULT_CSS = (
        MODAL_CSS.format(name="RulesScreen")
        + "RulesScreen VerticalScroll { height: auto; max-height: 30; }"
    )
    BINDINGS = [  # noqa: RUF012
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close"),
    ]

    def __init__(self, heading: str, text: str) -> None:
        super().__init__()
        self.heading = heading
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{self.heading}[/b] — Esc closes", markup=True)
            with VerticalScroll(id="rules"):
                yield Markdown(self.text)

    def on_mount(self) -> None:
        self.query_one("#rules").focus()


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = MODAL_CSS.format(name="ConfirmScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.question}  (y/n)")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def describe(move: Mapping[str, Any], piles: Sequence[Mapping[str, Any]]) -> str:
    """A move in notation, with the card it takes when that card is visible."""
    text = format_move(dict(move))
    if "from" in move:
        pile = next((p for p in piles if p["id"] == move["from"]), None)
        cards = list(pile.get("cards") or []) if pile else []
        index = move.get("index", len(cards) - 1)
        if isinstance(index, int) and 0 <= index < len(cards) and cards[index]:
            text += f"   ({pretty(cards[index])})"
    return text


class PickScreen(ModalScreen[WireMove | None]):
    """Choose one of several legal moves (actions, or cards of a spread pile)."""

    DEFAULT_CSS = MODAL_CSS.format(name="PickScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]  # noqa: RUF012

    def __init__(self, moves: Sequence[WireMove], piles: Sequence[Mapping[str, Any]]) -> None:
        super().__init__()
        self.moves = list(moves)
        self.piles = piles

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Which move? (Enter plays it, Esc cancels)")
            yield OptionList(
                *(Option(describe(m, self.piles), id=str(i)) for i, m in enumerate(self.moves)),
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.moves[int(event.option_id or 0)])


class EndScreen(ModalScreen[None]):
    """Won or lost, with the counters and the rank on the daily board."""

    DEFAULT_CSS = MODAL_CSS.format(name="EndScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("enter", "dismiss", "Back to the board"),
        Binding("escape", "dismiss", "Back to the board"),
        Binding("q", "leave", "Leave"),
        Binding("l", "leaderboard", "Leaderboard"),
    ]

    def __init__(self, state: Mapping[str, Any], heading: str, rank: int | None) -> None:
        super().__init__()
        self.state = state
        self.heading = heading
        self.rank = rank

    def compose(self) -> ComposeResult:
        state = self.state
        won = state.get("status") == "won"
        lines = [
            f"[b]{'You won!' if won else 'Game over: no more moves.'}[/b]",
            self.heading,
            f"{state.get('foundation')}/{state.get('total')} cards on the foundations",
            f"{state.get('moves')} moves in {clock(state.get('time_ms'))}",
        ]
        if self.rank is not None:
            lines.append(f"rank {self.rank} on today's board")
        lines.append("")
        lines.append("Enter: look at the board · l: leaderboard · q: leave")
        with Vertical():
            yield Static("\n".join(lines), id="end", markup=True)

    def action_leave(self) -> None:
        from .app import PasyansApp

        self.dismiss()
        if isinstance(self.app, PasyansApp):
            self.app.leave_board()

    def action_leaderboard(self) -> None:
        from .app import PasyansApp
        from .lists import LeaderboardScreen

        self.dismiss()
        if isinstance(self.app, PasyansApp):
            self.app.push_screen(LeaderboardScreen(str(self.state["game"])))


class MessageScreen(Screen[None]):
    """A full-screen message (e.g. the server cannot be reached); q quits."""

    DEFAULT_CSS = "MessageScreen { align: center middle; } #message { width: 80%; }"
    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("escape", "app.quit", "Quit")]  # noqa: RUF012

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="message", markup=False)
        yield Footer()


class NameScreen(Screen[None]):
    """First run: choose a name; the account's token is saved for next time."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen > Vertical { width: 60; height: auto; border: thick $primary; padding: 1 2; }
    #why { color: $warning; }
    """
    BINDINGS = [Binding("escape", "app.quit", "Quit")]  # noqa: RUF012

    def __init__(self, why: str = "") -> None:
        super().__init__()
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Welcome to pasyans! Choose a player name (3–20 letters, digits, _ -).")
            yield Input(placeholder="your name", id="name", max_length=20)
            yield Static(self.why, id="why", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    async def submitted(self, event: Input.Submitted) -> None:
        from .app import PasyansApp

        assert isinstance(self.app, PasyansApp)
        error = await self.app.register(event.value.strip())
        if error:
            self.query_one("#why", Static).update(error)


class RaceDealScreen(ModalScreen[bool | None]):
    """Which deal a new race is on: a fresh one (False) or today's daily (True)."""

    DEFAULT_CSS = MODAL_CSS.format(name="RaceDealScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("f", "answer(False)", "Fresh deal"),
        Binding("d", "answer(True)", "Daily deal"),
        Binding("escape", "answer(None)", "Cancel"),
    ]

    def __init__(self, heading: str) -> None:
        super().__init__()
        self.heading = heading

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]A race on {self.heading}[/b] — on which deal?", markup=True)
            yield OptionList(
                Option("f  a fresh deal (nobody has seen it)", id="fresh"),
                Option(
                    "d  today's daily deal (your race game is your daily attempt, "
                    "unless you already played it today)",
                    id="daily",
                ),
                markup=False,
            )
            yield Static("Enter or a click chooses · Esc cancels")

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

    DEFAULT_CSS = MODAL_CSS.format(name="JoinRaceScreen") + """
    JoinRaceScreen #why { color: $warning; height: auto; }
    JoinRaceScreen #buttons { height: auto; margin-top: 1; }
    JoinRaceScreen Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]  # noqa: RUF012

    def __init__(self, code: str = "", error: str = "") -> None:
        super().__init__()
        self.code = code
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Join a race[/b] — the code your friend's lobby shows", markup=True)
            yield Input(
                self.code,
                placeholder="e.g. K7QX2M",
                id="code",
                max_length=12,
            )
            yield Static(self.error, id="why", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Join", id="join", variant="primary")
                yield Button("Cancel", id="cancel")

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
                "type the race's code first"
                if not text.strip()
                else f"{text.strip()!r} is not a race code: letters and digits, like K7QX2M"
            )
            self.query_one("#why", Static).update(why)
            return
        self.dismiss(code)
