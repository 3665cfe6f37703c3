"""The board as the server has the game: its state, what it allows now (the sources
and targets of legal moves), and how it is drawn — the board, the title, the counters
and their clock, the hint line. :class:`ShownBoard` is the first layer of the board
screen; asking the server (:mod:`.board_sync`), the solver's help
(:mod:`.board_help`) and the keys (:mod:`.board`) build on it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual import on
from textual.widgets import Static

from ..connection import ClientError
from ..drawing import FULL, Marks
from ..lang import _, current, ngettext
from ..notation import WireMove, forced
from ..text import (
    ASSISTED,
    assisted,
    clock,
    end_words,
    info_line,
    mode_and_deal,
    outcome,
    running_time,
    unproven_label,
)
from ..widgets import BoardView
from .base import HostedScreen
from .board_lines import NOT_RANKED, fit_heading

#: the most actions the hint line names (more: "x lists them"; Hand Reserve offers one
#: per column, and a line of them all was cut at 80×24)
ACTIONS_SHOWN = 3


class ShownBoard(HostedScreen):
    """A game's state, drawn into the board screen's widgets (``#title``, the
    :class:`BoardView`, ``#counters``, ``#hint``; ``#status`` is :meth:`say`'s)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.state = state
        #: seconds on a steady clock, that the board's clock runs on between replies
        #: (a test gives a fake one, to say how long it was without waiting)
        self.monotonic: Callable[[], float] = time.monotonic
        self.received = self.monotonic()
        #: the game and the time its clock showed last (it never runs backwards)
        self._clock: tuple[object, int] = (None, 0)
        self.source: str | None = None
        self.source_index: int | None = None
        self.cursor: str | None = None
        self.typed = ""
        self.ended_shown = False
        #: the game this board resigned (the server's state says only "lost")
        self.resigned_game: str | None = None
        #: the moves of the certain win the server offers to play from this position
        #: (``f``), or None
        self.finish_offer: int | None = None
        #: a daily the server could not prove winnable: what the title and end say
        self.unproven: str | None = None

    async def _check_proof(self) -> None:
        """Whether this daily was proven winnable (an unproven one says so on top)."""
        try:
            daily = await self.host.conn.daily(self.state.get("date") or None)
        except ClientError:
            return
        self.unproven = unproven_label((daily.get("games") or {}).get(self.state.get("game")))
        if self.unproven:
            with self.unless_gone():
                self.redraw()

    # -- what the server says ------------------------------------------------

    @property
    def legal(self) -> list[WireMove]:
        return list(self.state.get("legal") or [])

    @property
    def piles(self) -> list[dict[str, Any]]:
        return list((self.state.get("view") or {}).get("piles") or [])

    @property
    def resigned(self) -> bool:
        return self.resigned_game is not None and self.resigned_game == self.state.get("game_id")

    @property
    def playing(self) -> bool:
        return self.state.get("status") == "playing"

    def sources(self) -> set[str]:
        return {str(m["from"]) for m in self.legal if "from" in m}

    def moves_from(self, pid: str, index: int | None = None) -> list[WireMove]:
        """Legal card moves from ``pid``; with ``index``, only those taking that card
        (a move without an index takes the top card)."""
        moves = [m for m in self.legal if m.get("from") == pid]
        if index is None:
            return moves
        top = next((len(p.get("cards") or []) - 1 for p in self.piles if p["id"] == pid), -1)
        return [m for m in moves if m.get("index", top) == index]

    def targets(self) -> frozenset[str]:
        if self.source is None:
            return frozenset()
        return frozenset(str(m["to"]) for m in self.moves_from(self.source, self.source_index))

    def set_state(self, state: dict[str, Any]) -> None:
        was_playing = self.playing
        self.state = state
        self.received = self.monotonic()
        self.source = self.source_index = None
        if self.finish_offer is not None:
            self.finish_offer = None
            self.refresh_bindings()
        if self.playing != was_playing:
            self.refresh_bindings()
        self.redraw()
        self.consider_finish()
        if self.playing:
            self.ended_shown = False  # e.g. an undo of the last move
        elif not self.ended_shown:
            self.ended_shown = True
            self.app.call_later(self.show_end)

    def consider_finish(self) -> None:
        """Ask the server, in the background, whether it can finish the game from here:
        the solver's help does (:class:`~.board_help.HelpedBoard`), not this layer."""

    async def show_end(self) -> None:
        """The panel at the end of the game: the screen's (:class:`~.board.BoardScreen`)."""

    # -- drawing -------------------------------------------------------------

    def shown_ms(self) -> int:
        """The game's time on the board's clock: :meth:`elapsed_ms`, never less than
        it showed before in this game (a reply counts the time the server counts, which
        may be a little less than the clock ran on since the last one: the clock then
        waits for it rather than jump back)."""
        gid, ms = self.state.get("game_id"), self.elapsed_ms()
        if self.playing and gid == self._clock[0]:
            ms = max(ms, self._clock[1])
        self._clock = (gid, ms)
        return ms

    def elapsed_ms(self) -> int:
        """The game's time as the server counts it (the player's active time), run on
        since the last reply: a pause counts at most the server's idle gap (its
        default, a minute), so the clock stops while nobody plays."""
        since = int((self.monotonic() - self.received) * 1000) if self.playing else 0
        return running_time(self.state, since)

    def redraw(self) -> None:
        state = self.state
        view = self.query_one(BoardView)
        view.show(
            self.piles,
            Marks(
                source=self.source,
                card=self.source_index,
                targets=self.targets(),
                sources=frozenset(self.sources()),
                cursor=self.cursor,
            ),
        )
        rest = mode_and_deal(state) or [""]
        if assisted(state):
            rest[0] += f", {_(ASSISTED)} {_(NOT_RANKED)}"
        if self.unproven:
            rest.append(self.unproven)
        layout = "" if view.density == FULL else view.density.name  # a narrow terminal
        slug = str(state.get("game"))
        self.query_one("#title", Static).update(
            fit_heading(slug, self.host.titles, rest, layout, self.app.size.width - 2)
        )
        self.tick()
        self.query_one("#hint", Static).update(self.hint())

    def tick(self) -> None:
        state = self.state
        parts = [
            _("moves {moves}", moves=state.get("moves", 0)),
            clock(self.shown_ms()),  # "time 0:00" would not leave 80 columns the room
            _(
                "foundation {done}/{total}",
                done=state.get("foundation", 0),
                total=state.get("total", 0),
            ),
            outcome(state, self.resigned),
        ]
        info = info_line(state)
        if info:
            parts.append(info)
        self.query_one("#counters", Static).update(" · ".join(parts))

    def hint(self) -> str:
        if not self.playing:
            return _("Game over. {words} q to leave.", words=end_words(self.state, self.resigned))
        if self.typed:
            return _("pile: {typed}…  (Enter to choose, Backspace to erase)", typed=self.typed)
        cut = self.query_one(BoardView).drawing.cut
        if self.source is not None:
            targets = " ".join(sorted(self.targets())) or _("none")
            source = cut.get(self.source, self.source)
            return _(
                "{from_}: choose a target ({targets}) · Esc cancels",
                from_=current().pile(self.pile(self.source), "from") or source,
                targets=targets,
            )
        if self.finish_offer is not None:
            return ngettext(
                "a certain win from here: f finishes it ({n} move)",
                "a certain win from here: f finishes it ({n} moves)",
                self.finish_offer,
            )
        if self.cursor in cut:  # a title the narrow board cut short, in full
            return f"{cut[self.cursor]} · " + self.hint_to_start()
        return self.hint_to_start()

    @on(BoardView.Refitted)
    def refitted(self) -> None:
        self.redraw()
        view = self.query_one(BoardView)
        if view.room is not None and view.drawing.width > view.room:
            self.say(self.too_wide())

    def too_wide(self) -> str:
        """What to say when even the compact board is wider than its room."""
        return _("the board is wider than the terminal: scroll sideways to see all of it")

    def hint_to_start(self) -> str:
        actions = [current().move(m, self.piles) for m in self.legal if "action" in m]
        text = _("choose a source pile (click, arrows + Enter, or type its id in capitals)")
        if forced(self.legal):
            text = _(
                "forced: {move} — press a to play it",
                move=current().move(self.legal[0], self.piles),
            )
        elif len(actions) > ACTIONS_SHOWN:  # the rest in the list x opens (80×24)
            text += " · " + ngettext(
                "{n} action: x lists it", "{n} actions: x lists them", len(actions)
            )
        elif actions:
            text += " · " + _("actions (x): {actions}", actions=", ".join(actions))
        return text

    def pile(self, pid: str | None) -> dict[str, Any] | None:
        """The view's pile ``pid`` (None: no such pile)."""
        return next((p for p in self.piles if p.get("id") == pid), None)
