"""A replay on the board: step forward and back through a finished game (or a past
daily's par line). The server plays the moves from the seed and sends each position;
the screen draws it, with the move that led there highlighted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.widgets import Static

from ..connection import ClientError
from ..drawing import Marks
from ..lang import N_, _, current
from ..records import ReplayOf, replay, replay_heading
from ..widgets import BoardView, KeyFooter
from .base import HostedScreen

#: moves skipped by PageUp/PageDown
JUMP = 10


def move_after(move: Mapping[str, Any], piles: Sequence[Mapping[str, Any]]) -> str:
    """The move that led to a position, in words, told from the position after it
    (the card it moved lies on top of where it went, ``n`` cards from the top)."""
    if "from" not in move:
        return current().move(move, piles)
    by_id = {str(p.get("id")): p for p in piles}
    src, dst = by_id.get(str(move.get("from"))), by_id.get(str(move.get("to")))
    cards = list((dst or {}).get("cards") or [])
    n = int(move.get("n") or 1)
    moved = cards[-n] if 0 < n <= len(cards) else None
    before = {**(src or {"id": move.get("from")}), "cards": [moved]}
    return current().move({**move, "index": 0}, [before, *(p for p in piles if p is not src)])


class ReplayScreen(HostedScreen):
    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #title { height: auto; background: $primary; color: $text; padding: 0 1; }
    ReplayScreen #scroll { height: 1fr; }
    ReplayScreen #counters { height: 1; padding: 0 1; }
    ReplayScreen #status { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("right", "step(1)", N_("Next")),
        Binding("left", "step(-1)", N_("Back")),
        Binding("space", "step(1)", N_("Next"), show=False),
        Binding("pagedown", f"step({JUMP})", f"+{JUMP}", show=False),
        Binding("pageup", f"step(-{JUMP})", f"-{JUMP}", show=False),
        Binding("home", "go(0)", N_("Start")),
        Binding("end", "go(-1)", N_("End")),
        Binding("escape", "leave", N_("Back"), show=False),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, of: ReplayOf, *, step: int | None = None) -> None:
        super().__init__()
        self.of = of
        self.step = step
        self.replay: dict[str, Any] = {}
        self.position: dict[str, Any] = {}
        #: the step asked for last (None: the last one, until the replay is known)
        self.wanted: int | None = step

    @property
    def count(self) -> int:
        return len(self.replay.get("line") or [])

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with ScrollableContainer(id="scroll"):
            yield BoardView(id="board")
        yield Static(id="counters")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(BoardView).focus()
        self.show(self.step)

    def show(self, step: int | None) -> None:
        """Fetch and draw the position after ``step`` moves (None: the last one); keys
        pressed meanwhile go on from the step asked for (→→→: three moves on)."""
        self.wanted = step

        async def ask() -> dict[str, Any]:
            if not self.replay:
                self.replay = dict((await replay(self.host.conn, self.of))["replay"])
            wanted = self.count if step is None else max(0, min(step, self.count))
            self.wanted = wanted
            return dict(await replay(self.host.conn, self.of, wanted))

        def got(answer: dict[str, Any]) -> None:
            self.replay, self.position = dict(answer["replay"]), dict(answer["position"])
            self.step = int(self.position["step"])
            self.draw()

        def failed(exc: ClientError) -> None:
            self.wanted = self.step
            self.say(_("error: {error} — q to leave", error=exc))

        self.fetch(ask, got, failed=failed)

    def draw(self) -> None:
        move = self.position.get("move")
        marks = Marks()
        if isinstance(move, dict) and "from" in move:
            marks = Marks(source=str(move["from"]), targets=frozenset({str(move.get("to"))}))
        view = self.position.get("view") or {}
        self.query_one(BoardView).show(list(view.get("piles") or []), marks)
        self.query_one("#title", Static).update(replay_heading(self.replay, self.host.titles))
        piles = list(view.get("piles") or [])
        led = (
            _("after: {move}", move=move_after(move, piles))
            if isinstance(move, dict)
            else _("the deal")
        )
        counters = _(
            "move {step}/{count} · foundation {found}/{total}",
            step=self.step,
            count=self.count,
            found=self.position.get("foundation"),
            total=self.position.get("total"),
        )
        self.query_one("#counters", Static).update(f"{counters} · {led}")
        self.say(_("→ next · ← back · Home/End first/last · PgUp/PgDn ±10 · q leave"))

    def action_step(self, delta: int) -> None:
        target = (self.wanted if self.wanted is not None else self.step or 0) + delta
        if not 0 <= target <= self.count:
            self.say(_("this is the end of the game") if delta > 0 else _("this is the deal"))
            target = max(0, min(target, self.count))
            if target == (self.wanted if self.wanted is not None else self.step):
                return
        self.show(target)

    def action_go(self, where: int) -> None:
        self.show(None if where < 0 else where)

    def action_leave(self) -> None:
        """Back to the screen that opened the replay, or quit when it was the command."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.host.leave_board()
