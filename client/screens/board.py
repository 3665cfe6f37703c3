"""The board screen, and the panel at the end of a game: play the moves the server
lists in ``legal``, nothing else.

Choosing a move: pick a source pile, then one of its highlighted targets, by
mouse, by moving the cursor (arrows, Enter/space), or by typing a pile id in
capitals (``T`` ``1`` ``2`` Enter). Esc cancels. When several legal moves join the
same two piles (cards of a spread pile) or for actions (``x``), a list pops up.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol.errors import ErrorCode
from protocol.messages import Board as BoardKind
from protocol.messages import Mode

from ..challenges import made_text, share_lines
from ..connection import ClientError, Connection, ServerError, ServerUnavailable
from ..drawing import FULL, Marks
from ..host import ConnectionLost, Reconnected, host
from ..notation import AUTO_LIMIT, WireMove, forced, format_move
from ..records import share
from ..text import (
    ASSISTED,
    Titles,
    assisted,
    clock,
    deal_text,
    end_words,
    info_line,
    outcome,
    title,
    unproven_label,
)
from ..widgets import BoardView, KeyFooter
from .base import HostedScreen
from .dialogs import MODAL_CSS, ConfirmScreen, PickScreen
from .leaderboard import LeaderboardScreen

T = TypeVar("T")

#: the longest pause between two changes a game's time counts (the server's --idle-gap)
IDLE_GAP_MS = 60_000
PILE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


#: why ``h`` gives no hint on this game (the state's ``hints: false``): its deal is
#: others' to play now, and the solver's line from it would be theirs too
NO_HINTS: dict[str, str] = {
    Mode.DAILY.value: "no hints on today's daily until the day is over: its line would be "
    "everyone's",
    Mode.CHALLENGE.value: "no hints on a challenge: its line would be every accepter's",
    Mode.RACE.value: "no hints in a race: everyone plays alone",
}


class BoardScreen(HostedScreen):
    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #scroll { height: 1fr; }
    #counters { height: auto; padding: 0 1; }
    #hint { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    #status { height: auto; padding: 0 1; color: $warning; display: none; }
    """

    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("u", "undo", "Undo"),
        Binding("r", "resign", "Resign"),
        Binding("question_mark", "rules", "Rules"),
        Binding("a", "auto", "Auto"),
        # short words: the footer of a board must stay one line in 80 columns
        Binding("s", "safe", "Safe"),
        Binding("o", "toggle_safe", "Safe after moves", show=False),
        Binding("f", "finish", "Win"),  # only once the server offers to finish
        Binding("h", "hint", "Hint"),
        Binding("x", "actions", "Actions"),
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "choose", "Choose", show=False),
        Binding("space", "choose", "Choose", show=False),
        Binding("left", "cursor('left')", show=False),
        Binding("right", "cursor('right')", show=False),
        Binding("up", "cursor('up')", show=False),
        Binding("down", "cursor('down')", show=False),
        Binding("backspace", "erase", show=False),
        Binding("q", "leave", "Leave"),
    ]

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.state = state
        #: seconds on a steady clock, that the board's clock runs on between replies
        #: (a test gives a fake one, to say how long it was without waiting)
        self.monotonic: Callable[[], float] = time.monotonic
        self.received = self.monotonic()
        self.source: str | None = None
        self.source_index: int | None = None
        self.cursor: str | None = None
        self.typed = ""
        self.busy = False
        self.ended_shown = False
        #: the game this board resigned (the server's state says only "lost")
        self.resigned_game: str | None = None
        #: the moves of the certain win the server offers to play from this position
        #: (``f``), or None; and the cards founded when it last found none
        self.finish_offer: int | None = None
        self.no_finish_at: int | None = None
        #: the ranked games whose player agreed that a hint unranks them (asked once)
        self.hint_agreed: set[str] = set()
        #: the connection the board's state was last had from (a new one after a
        #: reconnect means: fetch the game again before trusting the board)
        self.synced: Connection | None = None
        #: the failed reconnecting a request of this board reported already
        self.reported: BaseException | None = None
        #: a daily the server could not prove winnable: what the title and end say
        self.unproven: str | None = None

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

    async def _check_proof(self) -> None:
        """Whether this daily was proven winnable (an unproven one says so on top)."""
        try:
            daily = await self.host.conn.daily(self.state.get("date") or None)
        except ClientError:
            return
        self.unproven = unproven_label((daily.get("games") or {}).get(self.state.get("game")))
        if self.unproven:
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

    #: keys that act on a game in play: once it is over they leave the footer
    PLAY_KEYS = frozenset({"undo", "resign", "auto", "hint", "actions", "safe", "toggle_safe"})
    #: play the safe moves after each of your moves (``o``; kept for the session)
    safe_after_moves = False
    #: the share of the cards on the foundations from which the board asks the server
    #: whether it can finish the game (a search costs the server up to a second)
    FINISH_FROM = 2 / 3

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer (in the footer, and on the key) only what works now."""
        if action == "finish":  # only once the server said it can finish from here
            return self.playing and self.finish_offer is not None
        return not (action in self.PLAY_KEYS and not self.playing)

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

    # -- drawing -------------------------------------------------------------

    def elapsed_ms(self) -> int:
        """The game's time as the server counts it (the player's active time), run on
        since the last reply: a pause counts at most the server's idle gap (its
        default, a minute), so the clock stops while nobody plays."""
        ms = int(self.state.get("time_ms") or 0)
        if self.playing:
            ms += min(int((self.monotonic() - self.received) * 1000), IDLE_GAP_MS)
        return ms

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
        rest = [str(state.get("mode", ""))]
        if assisted(state):
            rest[0] += f", {ASSISTED} {NOT_RANKED}"
        deal = deal_text(state)
        if deal:
            rest.append(deal)
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
            f"moves {state.get('moves', 0)}",
            clock(self.elapsed_ms()),  # "time 0:00" would not leave 80 columns the room
            f"foundation {state.get('foundation', 0)}/{state.get('total', 0)}",
            outcome(state, self.resigned),
        ]
        info = info_line(state)
        if info:
            parts.append(info)
        self.query_one("#counters", Static).update(" · ".join(parts))

    def hint(self) -> str:
        if not self.playing:
            return f"game over: {end_words(self.state, self.resigned)} — q to leave"
        if self.typed:
            return f"pile: {self.typed}…  (Enter to choose, Backspace to erase)"
        cut = self.query_one(BoardView).drawing.cut
        if self.source is not None:
            targets = " ".join(sorted(self.targets())) or "none"
            source = cut.get(self.source, self.source)
            return f"from {source}: choose a target ({targets}) · Esc cancels"
        if self.finish_offer is not None:
            return f"a certain win from here: f finishes it ({self.finish_offer} moves)"
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
        return "the board is wider than the terminal: scroll sideways to see all of it"

    def hint_to_start(self) -> str:
        actions = [format_move(m) for m in self.legal if "action" in m]
        text = "choose a source pile (click, arrows + Enter, or type its id in capitals)"
        if forced(self.legal):
            text = f"forced: {format_move(self.legal[0])} — press a to play it"
        elif actions:
            text += " · actions (x): " + ", ".join(actions)
        return text

    # -- choosing a move -------------------------------------------------------

    @on(BoardView.PileClicked)
    async def clicked(self, message: BoardView.PileClicked) -> None:
        self.cursor = message.pid
        self.typed = ""
        await self.choose(message.pid, message.index)

    async def choose(self, pid: str, index: int | None = None) -> None:
        if not self.playing:
            self.say("the game is over")
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
            self.say(f"no legal move from {self.source} to {pid}")

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
        self.say(f"no legal move starts from {pid}")

    def pick(self, moves: Sequence[WireMove]) -> None:
        async def picked(move: WireMove | None) -> None:
            if move is not None:
                await self.play(move)

        self.app.push_screen(PickScreen(moves, self.piles), picked)

    async def play(self, move: WireMove) -> None:
        await self.request("move", move)

    async def round_trip(self, call: Callable[[], Awaitable[T]], what: str = "request") -> T | None:
        """One request to the server for this game, one at a time: its answer, or
        None when it was refused (the board shows the game as the server has it, and
        the server's words).

        When the connection is gone (a server restart, a network blip) the board
        reconnects (:meth:`recover`) and, if the game is where it was, sends ``call``
        again on the new connection: a move typed while the server was away is played
        once it is back, or refused with the reason, never dropped in silence.
        ``call`` reads ``self.host.conn`` and ``self.state`` when it runs."""
        if self.busy:
            self.say(f"{what} not sent: the last request is still under way")
            return None
        self.busy = True
        try:
            for attempt in range(2):
                conn = self.host.conn
                try:
                    answer = await call()
                except ServerUnavailable as exc:
                    if attempt:  # lost again at once, on the new connection
                        self.say(f"error: {exc} — {what} not sent: press q to leave, or try again")
                        return None
                    # still busy: nothing else is sent while it reconnects
                    if not await self.recover(exc, conn, what):
                        return None
                    continue
                self.synced = conn
                return answer
        except ServerError as exc:
            if exc.state is not None:  # the game as the server has it after the refusal
                self.set_state(exc.state)
            if exc.code == ErrorCode.STALE_SEQ and exc.state is not None:
                self.say("the game moved on elsewhere: the board is up to date again")
            else:
                self.say(f"error: {exc}")
        except ClientError as exc:
            self.say(f"error: {exc}")
        finally:
            self.busy = False
        return None

    async def request(self, what: str, move: WireMove | None = None) -> bool:
        """Move, undo or resign; the new state on success, the server's words otherwise."""
        gid = str(self.state["game_id"])

        async def call() -> dict[str, Any]:
            conn = self.host.conn  # a new one after a reconnect
            if what == "move":
                assert move is not None
                return await conn.play(self.state, move)
            if what == "undo":
                return await conn.take_back(self.state)
            self.resigned_game = gid
            return await conn.resign(gid)

        asked = f"{what} {format_move(move)}" if move is not None else what
        state = await self.round_trip(call, asked)
        if state is None:
            return False
        self.set_state(state)
        self.say(asked)
        if what == "move" and self.safe_after_moves and self.playing:
            await self.action_safe(after=f"move {format_move(move)}" if move else "")
        return True

    async def recover(self, lost: ServerUnavailable, dropped: Connection, what: str) -> bool:
        """The connection ``dropped`` is gone while ``what`` was asked: connect again
        (or wait for the app's reconnecting under way), log in and fetch the game as
        the server has it. True when the game is where it was (the same ``seq``: what
        was asked was not carried out), so the caller sends it again; otherwise the
        board shows the fresh game and says why ``what`` is not sent."""
        seq = self.state.get("seq")
        self.say(f"{lost} — reconnecting…")
        try:
            await self.host.reconnect(dropped)
            conn = self.host.conn
            state = await conn.resume(str(self.state["game_id"]))
        except ClientError as exc:
            self.reported = exc  # the app's Reconnected(exc) has nothing to add
            self.source = self.source_index = None  # a try again starts afresh
            self.redraw()
            self.say(f"error: {exc} — {what} not sent: press q to leave, or try again")
            return False
        self.synced = conn
        self.set_state(state)
        if state.get("seq") == seq:
            self.say(f"reconnected: sending {what} again…")
            return True
        self.say(
            f"reconnected, but the game changed while the connection was down (the {what} "
            "may have reached the server just before it dropped, or the game was played "
            f"elsewhere): {what} is not sent again — the board is as the server has it"
        )
        return False

    @on(ConnectionLost)
    def connection_lost(self, message: ConnectionLost) -> None:
        """The app noticed the connection drop and is reconnecting: say so (a request
        under way says it itself)."""
        if not self.busy:
            self.say(f"{message.why} — reconnecting…")

    @on(Reconnected)
    async def reconnected(self, message: Reconnected) -> None:
        """The app's reconnecting ended: fetch the game again on the new connection
        (unless a request did already), keeping a chosen source pile when the game is
        where it was; or say that it gave up (the next request tries again)."""
        if self.busy or (message.error is not None and message.error is self.reported):
            return
        if message.error is not None:
            self.say(f"error: {message.error} — press q to leave, or play on to try again")
            return
        if self.synced is self.host.conn:
            return
        conn = self.host.conn
        chosen = self.source, self.source_index
        self.busy = True
        try:
            state = await conn.resume(str(self.state["game_id"]))
        except ClientError as exc:
            self.say(f"error: {exc} — press q to leave, or play on to try again")
            return
        finally:
            self.busy = False
        self.synced = conn
        same = state.get("seq") == self.state.get("seq")
        self.set_state(state)
        if same and chosen[0] in self.sources():
            self.source, self.source_index = chosen
            self.redraw()
        if same:
            self.say("reconnected: play on")
        else:
            self.say("reconnected: the game changed meanwhile: the board is as the server has it")

    # -- keys ------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        char = event.character or ""
        if len(char) == 1 and char in PILE_CHARS and (char.isupper() or self.typed):
            event.stop()
            self.typed += char
            ids = [str(p["id"]) for p in self.piles]
            match = [pid for pid in ids if pid.upper().startswith(self.typed)]
            if not match:
                self.say(f"no pile id starts with {self.typed}")
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
                self.say(f"no pile {typed}")
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
            self.say("cancelled")
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

        self.app.push_screen(ConfirmScreen("Resign this game?"), confirmed)

    async def action_rules(self) -> None:
        await self.show_rules(str(self.state.get("game")))

    async def action_auto(self) -> None:
        played = 0
        while self.playing and played < AUTO_LIMIT:
            move = forced(self.legal)
            if move is None or not await self.request("move", move):
                break
            played += 1
        if not played:
            self.say("nothing forced: the next move is yours")
        else:
            self.say(f"played {played} forced move{'s' if played > 1 else ''}")

    async def action_safe(self, after: str = "") -> None:
        """Let the server play the game's safe moves (moves that can never spoil a
        win) until none is left; each counts as a move."""
        if not self.playing:
            return
        answer = await self.round_trip(lambda: self.host.conn.play_safe(self.state), "safe moves")
        if answer is None:
            return
        state, played = answer
        self.set_state(state)
        said = f"{after} · " if after else ""
        if played:
            moves = ", ".join(format_move(m) for m in played)
            self.say(
                f"{said}played {len(played)} safe move{'s' if len(played) > 1 else ''}: {moves}"
            )
        elif not after:
            self.say("no safe move now (the rules page says which moves this game counts safe)")

    def action_toggle_safe(self) -> None:
        """Play the safe moves after each of your moves, or stop."""
        BoardScreen.safe_after_moves = not self.safe_after_moves
        state = "on" if self.safe_after_moves else "off"
        self.say(f"safe moves after each of your moves: {state} (o again to switch)")

    def consider_finish(self) -> None:
        """Ask the server, in the background, whether it can finish the game from here
        (a certain win): once most cards are founded, and again only when more are."""
        state = self.state
        founded, total = int(state.get("foundation") or 0), int(state.get("total") or 0)
        if (
            not self.playing
            or state.get("mode") == "race"  # races refuse it
            or not total
            or founded < total * self.FINISH_FROM
            or founded == self.no_finish_at
        ):
            return
        self.run_worker(self._check_finish(dict(state)), group="finish", exclusive=True)

    async def _check_finish(self, state: dict[str, Any]) -> None:
        try:
            reply = await self.host.conn.finish_check(state)
        except ClientError:
            return  # an offer only: the next move asks again
        if self.state.get("seq") != state.get("seq") or not self.playing:
            return  # the game moved on meanwhile
        if reply.get("certain"):
            self.finish_offer = int(reply.get("moves") or 0)
            self.say("the server can finish this game for you: f")
        else:
            self.no_finish_at = int(state.get("foundation") or 0)
        self.refresh_bindings()
        self.redraw()

    async def action_finish(self) -> None:
        """Auto-complete: the server plays the rest of the game along the certain win
        it found (the result says "auto-completed"; a daily still ranks)."""
        if not self.playing or self.finish_offer is None:
            return
        answer = await self.round_trip(lambda: self.host.conn.finish(self.state), "auto-complete")
        if answer is None:
            return
        state, played = answer
        self.set_state(state)
        self.say(f"auto-completed: the server played the last {len(played)} moves")

    #: the question a hint on a ranked daily asks first (once a game: an older
    #: server's; this one gives no hint on a deal others are playing)
    HINT_QUESTION = (
        "A hint unranks this daily: it will no longer count on the leaderboards, "
        "your stats' dailies or your streak. Ask for a hint?"
    )

    async def action_hint(self) -> None:
        """A hint; on a ranked daily only after the player agreed that it unranks the
        game (asked once a game: later hints in it do not ask again)."""
        if not self.playing or self.busy:
            return
        if self.state.get("hints") is False:  # the server says so for this deal
            self.say(NO_HINTS.get(str(self.state.get("mode")), NO_HINTS[Mode.DAILY.value]))
            return
        gid = str(self.state.get("game_id"))
        if not self.state.get("ranked") or gid in self.hint_agreed:
            await self.hint_now()
            return

        async def confirmed(yes: bool | None) -> None:
            if yes:
                self.hint_agreed.add(gid)
                await self.hint_now()
            else:
                self.say("no hint: the daily still ranks")

        self.app.push_screen(ConfirmScreen(self.HINT_QUESTION), confirmed)

    async def hint_now(self) -> None:
        """Ask the server for one move of a winning line and highlight it (the game
        no longer ranks on a daily board; races refuse hints)."""
        if not self.playing or self.busy:
            return
        gid = str(self.state["game_id"])
        reply = await self.round_trip(lambda: self.host.conn.hint(gid), "hint")
        if reply is None:
            return
        if reply.get("assisted"):
            # as a resume would say from now on
            self.state["ranked"], self.state["assisted"] = False, True
            self.redraw()  # the title says so
        move = reply.get("move")
        if not isinstance(move, dict):
            self.say(f"hint: {reply.get('message') or 'no win found from here'}")
            return
        if "from" in move:
            self.source, self.source_index = str(move["from"]), move.get("index")
            self.redraw()
        self.say(f"hint: {format_move(move)} (this game no longer ranks)")

    def action_actions(self) -> None:
        actions = [m for m in self.legal if "action" in m]
        if not actions:
            self.say("no action is legal now")
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


#: the start of an unproven daily's label ("unproven" in a narrow title; the end screen
#: and the home screen say it whole)
UNPROVEN_WORD = "not proven winnable"
#: what the title adds to "assisted" where there is room
NOT_RANKED = "(not ranked)"


def fit_heading(slug: str, titles: Titles, rest: Sequence[str], layout: str, width: int) -> str:
    """``Title · rest… · LAYOUT layout`` in ``width`` cells if it can be: the game's
    two titles, else its Russian one alone, else the layout's name without the word
    ``layout``, else no layout's name, else the shorter title; at each step an unproven
    daily's label may shrink to "unproven" and "assisted (not ranked)" to "assisted" (the
    mode, the deal and its commitment are never the part cut)."""
    names = titles.get(slug) or {}
    ru = str(names.get("title_ru") or slug)
    en = str(names.get("title_en") or slug)
    tail = [f"{layout} layout"] if layout else []
    short = [layout] if layout else []
    line = ""
    shorter = min(ru, en, key=cell_len)
    tries: list[tuple[str, list[str]]] = [
        (title(slug, titles), tail),
        (ru, tail),
        (ru, short),
        (shorter, short),
        (slug, []),
    ]
    # A daily not proven winnable says so in a word when its label does not fit, and
    # then the board's layout (a narrow terminal shows it) gives way before the title.
    compact = [
        "unproven" if r.startswith(UNPROVEN_WORD) else r.replace(f" {NOT_RANKED}", "") for r in rest
    ]
    tries[3:3] = [(ru, [])]
    for name, end in tries:
        for parts in (rest, compact):
            line = " · ".join([name, *parts, *end])
            if cell_len(line) <= width:
                return line
    return line


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


class EndScreen(ModalScreen[None]):
    """Won or lost, with the counters and the rank on the daily board."""

    DEFAULT_CSS = MODAL_CSS.format(name="EndScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "dismiss", "Back to the board"),
        Binding("escape", "dismiss", "Back to the board"),
        Binding("q", "leave", "Leave"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("c", "share", "Copy result"),
        Binding("C", "challenge", "Challenge a friend"),
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
            f"{state.get('foundation')}/{state.get('total')} cards on the foundations",
            f"{state.get('moves')} moves in {clock(state.get('time_ms'))}",
        ]
        if self.rank is not None:
            lines.append(f"rank {self.rank} on today's board")
        if state.get("auto_completed"):
            lines.append("auto-completed: the server played out the certain win")
        if assisted(state):
            lines.append(
                f"{ASSISTED}: the solver helped (a hint or its finish), so it ranks nowhere"
            )
        lines.append("")
        lines.append("Enter: look at the board · l: leaderboard · c: copy the result · q: leave")
        if self.state.get("game_id"):
            lines.append("C: challenge friends to beat this result on the same deal")
        with Vertical():
            yield Static("\n".join(lines), id="end", markup=True)
            yield Static(id="shared", markup=False)

    async def action_share(self) -> None:
        """The result as text to share: copied to the clipboard where the terminal
        allows it (OSC 52; not every terminal does) and shown here in any case."""
        try:
            text = await share(host(self).conn, self.state, host(self).titles)
        except ClientError as exc:
            self.query_one("#shared", Static).update(f"error: {exc}")
            return
        self.shared = text
        self.app.copy_to_clipboard(text)
        self.query_one("#shared", Static).update(
            f"\n{text}\n\n(copied to the clipboard if your terminal allows it)"
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
            self.query_one("#shared", Static).update(f"error: {exc}")
            return
        self.shared = "\n".join([text, *share_lines(self.challenge)])
        self.app.copy_to_clipboard(self.shared)
        self.query_one("#shared", Static).update(
            f"\n{self.made}\n\n{self.shared}\n\n"
            "(copied to the clipboard if your terminal allows it)"
        )

    def action_leave(self) -> None:
        self.dismiss()
        host(self).leave_board()

    def action_leaderboard(self) -> None:
        self.dismiss()
        self.app.push_screen(LeaderboardScreen(str(self.state["game"])))
