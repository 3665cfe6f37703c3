"""Small screens any other may open: rules, confirmations, move choices, messages,
and the first-run name prompt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from ..host import host
from ..lang import N_, _, current
from ..notation import WireMove
from ..widgets import KeyFooter

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
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("escape", "dismiss", N_("Close")),
        Binding("q", "dismiss", N_("Close")),
        Binding("question_mark", "dismiss", N_("Close")),
    ]

    def __init__(self, heading: str, text: str) -> None:
        super().__init__()
        self.heading = heading
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            closes = _("Esc closes")
            yield Static(f"[b]{self.heading}[/b] — {closes}", markup=True)
            with VerticalScroll(id="rules"):
                yield Markdown(self.text)

    def on_mount(self) -> None:
        self.query_one("#rules").focus()


class TextScreen(ModalScreen[None]):
    """Plain text (a table in it keeps its columns) in a panel as wide as the terminal
    allows, its long lines wrapped, never cut (issue 47: a challenge's results from the
    inbox lost the ends of their lines at 80×24)."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical {
        width: 100%; max-width: 100; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    TextScreen VerticalScroll { height: auto; max-height: 40; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("escape", "dismiss", N_("Close")),
        Binding("q", "dismiss", N_("Close")),
    ]

    def __init__(self, heading: str, text: str) -> None:
        super().__init__()
        self.heading = heading
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            closes = _("Esc closes")
            yield Static(f"[b]{self.heading}[/b] — {closes}", markup=True)
            with VerticalScroll(id="text"):
                yield Static(self.text, markup=False)

    def on_mount(self) -> None:
        self.query_one("#text").focus()


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = MODAL_CSS.format(name="ConfirmScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n", "answer(False)", N_("No")),
        Binding("escape", "answer(False)", N_("No")),
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
    """A move in words, in the player's language ("Pick up column 1", "Move the 5♦
    from your hand to foundation 1")."""
    return current().move(move, piles)


class PickScreen(ModalScreen[WireMove | None]):
    """Choose one of several legal moves (actions, or cards of a spread pile)."""

    DEFAULT_CSS = MODAL_CSS.format(name="PickScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", N_("Cancel"))]  # noqa: RUF012

    def __init__(self, moves: Sequence[WireMove], piles: Sequence[Mapping[str, Any]]) -> None:
        super().__init__()
        self.moves = list(moves)
        self.piles = piles

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Which move? (Enter plays it, Esc cancels)"))
            yield OptionList(
                *(Option(describe(m, self.piles), id=str(i)) for i, m in enumerate(self.moves)),
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.moves[int(event.option_id or 0)])


class MessageScreen(Screen[None]):
    """A full-screen message (e.g. the server cannot be reached); q quits."""

    DEFAULT_CSS = "MessageScreen { align: center middle; } #message { width: 80%; }"
    BINDINGS = [Binding("q", "app.quit", N_("Quit")), Binding("escape", "app.quit", N_("Quit"))]  # noqa: RUF012

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="message", markup=False)
        yield KeyFooter()


class NameScreen(Screen[None]):
    """First run: choose a name; the account's token is saved for next time."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen > Vertical { width: 60; height: auto; border: thick $primary; padding: 1 2; }
    #why { color: $warning; }
    """
    BINDINGS = [Binding("escape", "app.quit", N_("Quit"))]  # noqa: RUF012

    def __init__(self, why: str = "") -> None:
        super().__init__()
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                _(
                    "Welcome to pasyans! Choose a player name: 3 to 20 letters of one "
                    "alphabet (Latin or Cyrillic, not both), digits, _ or -."
                )
            )
            yield Input(placeholder=_("your name"), id="name", max_length=20)
            yield Static(self.why, id="why", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    async def submitted(self, event: Input.Submitted) -> None:
        error = await host(self).register(event.value.strip())
        if error:
            self.query_one("#why", Static).update(error)
