"""The board screen: play the moves the server lists in ``legal``, nothing else.

Choosing a move: pick a source pile, then one of its highlighted targets, by
mouse, by moving the cursor (arrows, Enter/space), or by typing a pile id in
capitals (``T`` ``1`` ``2`` Enter). Esc cancels. When several legal moves join the
same two piles (cards of a spread pile) or for actions (``x``), a list pops up.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.widgets import Static

from protocol.messages import Board as BoardKind
from protocol.messages import Mode

from ..connection import ClientError
from ..lang import N_, _, current
from ..notation import WireMove
from ..text import IDLE_GAP_MS, title
from ..widgets import BoardView, KeyFooter
from .board_help import HelpedBoard
from .board_lines import fit_heading
from .dialogs import ConfirmScreen, PickScreen
from .end import EndScreen

__all__ = ["IDLE_GAP_MS", "BoardScreen", "EndScreen", "fit_heading"]

PILE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


class BoardScreen(HelpedBoard):
    """The board screen: its layout and keys, choosing a move, and opening the end
    panel (:class:`~.end.EndScreen`). What it shows is
    :class:`~.board_state.ShownBoard`'s, how it asks the server
    :class:`~.board_sync.SyncedBoard`'s, the solver's help
    :class:`~.board_help.HelpedBoard`'s."""

    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #scroll { height: 1fr; }
    #counters { height: auto; padding: 0 1; }
    #hint { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    #status { height: auto; padding: 0 1; color: $warning; display: none; }
    """

    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("u", "undo", N_("Undo")),
        Binding("r", "resign", N_("Resign")),
        Binding("question_mark", "rules", N_("Rules")),
        Binding("a", "auto", N_("Auto")),
        # short words: the footer of a board must stay one line in 80 columns
        Binding("s", "safe", N_("Safe")),
        Binding("o", "toggle_safe", N_("Safe after moves"), show=False),
        Binding("f", "finish", N_("Win")),  # only once the server offers to finish
        Binding("h", "hint", N_("Hint")),
        Binding("x", "actions", N_("Actions")),
        Binding("escape", "cancel", N_("Cancel")),
        Binding("enter", "choose", N_("Choose"), show=False),
        Binding("space", "choose", N_("Choose"), show=False),
        Binding("left", "cursor('left')", show=False),
        Binding("right", "cursor('right')", show=False),
        Binding("up", "cursor('up')", show=False),
        Binding("down", "cursor('down')", show=False),
        Binding("backspace", "erase", show=False),
        Binding("q", "leave", N_("Leave")),
    ]
    #: keys that act on a game in play: once it is over they leave the footer
    PLAY_KEYS = frozenset({"undo", "resign", "auto", "hint", "actions", "safe", "toggle_safe"})

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with ScrollableContainer(id="scroll"):
            yield BoardView(id="board")
        yield Static(id="counters")
        yield Static(id="hint")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.synced = self.host.conn
        self.set_interval(1.0, self.tick)
        self.redraw()
        self.query_one(BoardView).focus()
        self.consider_finish()
        if self.state.get("mode") == Mode.DAILY:
            self.run_worker(self._check_proof(), group="proof")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer (in the footer, and on the key) only what works now."""
        if action == "finish":  # only once the server said it can finish from here
            return self.playing and self.finish_offer is not None
        if action == "hint" and self.state.get("hints") is False:
            return False  # today's daily, a challenge, a race: the server gives none
        return not (action in self.PLAY_KEYS and not self.playing)

    # -- choosing a move -------------------------------------------------------

    @on(BoardView.PileClicked)
    async def clicked(self, message: BoardView.PileClicked) -> None:
        self.cursor = message.pid
        self.typed = ""
        await self.choose(message.pid, message.index)

    async def choose(self, pid: str, index: int | None = None) -> None:
        if not self.playing:
            self.say(_("the game is over"))
            return
        if self.source is None:
            await self.choose_source(pid, index)
        elif pid == self.source and index in (None, self.source_index):
            self.action_cancel()
        elif pid in self.targets():
            moves = [m for m in self.moves_from(self.source, self.source_index) if m["to"] == pid]
            if len(moves) == 1:
                await self.play(moves[0])
            else:
                self.pick(moves)
        elif pid in self.sources():
            await self.choose_source(pid, index)
        else:
            self.say(
                _(
                    "no legal move {from_} {to}",
                    from_=current().pile(self.pile(self.source), "from"),
                    to=current().pile(self.pile(pid), "to"),
                )
            )

    async def choose_source(self, pid: str, index: int | None) -> None:
        moves = self.moves_from(pid, index)
        if not moves and index is not None:
            moves = self.moves_from(pid)
            index = None
        if moves:
            self.source, self.source_index = pid, index
            self.say("")
            self.redraw()
            return
        actions = [m for m in self.legal if "action" in m]
        kind = next((p.get("kind") for p in self.piles if p["id"] == pid), None)
        if kind == "stock" and len(actions) == 1:
            await self.play(actions[0])  # clicking the stock deals (or whatever it offers)
            return
        self.say(_("no legal move {from_}", from_=current().pile(self.pile(pid), "from")))

    def pick(self, moves: Sequence[WireMove]) -> None:
        async def picked(move: WireMove | None) -> None:
            if move is not None:
                await self.play(move)

        self.app.push_screen(PickScreen(moves, self.piles), picked)

    async def play(self, move: WireMove) -> None:
        await self.request("move", move)

    # -- keys ------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        char = event.character or ""
        if char == "f" and self.playing and self.finish_offer is None:
            event.stop()  # the key is offered only with a finish: say why there is none
            self.say(
                _(
                    "no certain win from here yet: f finishes a game once the server "
                    "finds its safe moves win it"
                )
            )
            return
        if char == "h" and self.playing and self.state.get("hints") is False:
            event.stop()  # not offered on this deal (check_action): say why, as for f
            await self.action_hint()
            return
        if len(char) == 1 and char in PILE_CHARS and (char.isupper() or self.typed):
            event.stop()
            self.typed += char
            ids = [str(p["id"]) for p in self.piles]
            match = [pid for pid in ids if pid.upper().startswith(self.typed)]
            if not match:
                self.say(_("no pile id starts with {typed}", typed=self.typed))
                self.typed = ""
            elif len(match) == 1 and match[0].upper() == self.typed:
                self.typed = ""
                self.cursor = match[0]
                await self.choose(match[0])
            self.redraw()

    async def action_choose(self) -> None:
        if self.typed:
            typed, self.typed = self.typed, ""
            exact = [str(p["id"]) for p in self.piles if str(p["id"]).upper() == typed]
            if exact:
                self.cursor = exact[0]
                await self.choose(exact[0])
            else:
                self.say(_("no pile {typed}", typed=typed))
            self.redraw()
        elif self.cursor is not None:
            await self.choose(self.cursor)
        else:
            self.action_cursor("right")

    def action_erase(self) -> None:
        self.typed = self.typed[:-1]
        self.redraw()

    def action_cancel(self) -> None:
        self.typed = ""
        if self.source is not None:
            self.source = self.source_index = None
            self.say(_("cancelled"))
        self.redraw()

    def action_cursor(self, direction: str) -> None:
        piles = self.piles
        if not piles:
            return
        cells = {str(p["id"]): (int(p["x"]), int(p["y"])) for p in piles}
        if self.cursor not in cells:
            self.cursor = next(iter(sorted(cells, key=lambda pid: cells[pid][::-1])))
        else:
            self.cursor = _step(cells, self.cursor, direction)
        self.redraw()

    async def action_undo(self) -> None:
        await self.request("undo")

    def action_resign(self) -> None:
        if not self.playing:
            return

        async def confirmed(yes: bool | None) -> None:
            if yes:
                await self.request("resign")

        self.app.push_screen(ConfirmScreen(_("Resign this game?")), confirmed)

    def action_rules(self) -> None:
        self.show_rules(str(self.state.get("game")))

    def action_toggle_safe(self) -> None:
        """Play the safe moves after each of your moves, or stop."""
        BoardScreen.safe_after_moves = not self.safe_after_moves
        if self.safe_after_moves:
            self.say(_("safe moves after each of your moves: on (o again to switch)"))
        else:
            self.say(_("safe moves after each of your moves: off (o again to switch)"))

    def action_actions(self) -> None:
        actions = [m for m in self.legal if "action" in m]
        if not actions:
            self.say(_("no action is legal now"))
            return
        self.pick(actions)

    def action_leave(self) -> None:
        self.host.leave_board()

    async def show_end(self) -> None:
        state = self.state
        rank = None
        if state.get("mode") == Mode.DAILY:
            try:
                board = await self.host.conn.leaderboard(
                    str(state["game"]), board=BoardKind.DAILY, around_me=True, limit=5
                )
                rank = (board.get("me") or {}).get("rank")
            except ClientError:
                rank = None
        heading = title(str(state["game"]), self.host.titles)
        if self.unproven:
            heading += f" · {self.unproven}"
        self.app.push_screen(EndScreen(state, heading, rank, resigned=self.resigned))


def _step(cells: dict[str, tuple[int, int]], current: str, direction: str) -> str:
    """The pile next to ``current`` in ``direction`` by layout cells (or ``current``)."""
    x, y = cells[current]
    if direction in ("left", "right"):
        sign = 1 if direction == "right" else -1
        row = [(cx, pid) for pid, (cx, cy) in cells.items() if cy == y and (cx - x) * sign > 0]
        return min(row, key=lambda c: abs(c[0] - x))[1] if row else current
    sign = 1 if direction == "down" else -1
    ahead = {cy for _, cy in cells.values() if (cy - y) * sign > 0}
    rows = sorted(ahead, key=lambda r: abs(r - y))
    if not rows:
        return current
    near = [(abs(cx - x), cx, pid) for pid, (cx, cy) in cells.items() if cy == rows[0]]
    return min(near)[2]
