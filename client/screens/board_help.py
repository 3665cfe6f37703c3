"""What the server plays or finds for the player on the board: the forced moves
(``a``), the safe moves (``s``, and after each move with ``o``), the certain win it
offers to finish (``f``), a hint (``h``)."""

from __future__ import annotations

import functools
from typing import Any

from protocol.messages import Mode

from ..connection import ClientError
from ..lang import N_, _, current, ngettext
from ..notation import AUTO_LIMIT, WireMove, forced
from .board_sync import SyncedBoard
from .dialogs import ConfirmScreen

#: why ``h`` gives no hint on this game (the state's ``hints: false``): its deal is
#: others' to play now, and the solver's line from it would be theirs too
NO_HINTS: dict[str, str] = {
    Mode.DAILY.value: N_(
        "no hints on today's daily until the day is over: its line would be everyone's"
    ),
    Mode.CHALLENGE.value: N_("no hints on a challenge: its line would be every accepter's"),
    Mode.RACE.value: N_("no hints in a race: everyone plays alone"),
}


class HelpedBoard(SyncedBoard):
    """The board with the server's help: :meth:`action_auto`, :meth:`action_safe`,
    :meth:`consider_finish` and :meth:`action_finish`, :meth:`action_hint`."""

    #: play the safe moves after each of your moves (``o``: kept for the session, and
    #: set on :class:`~.board.BoardScreen`, so that every board of the session shares it)
    safe_after_moves = False
    #: the share of the cards on the foundations from which the board asks the server
    #: whether it can finish the game (a search costs the server up to a second)
    FINISH_FROM = 2 / 3

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        #: the cards founded when the server last found no certain win from here
        self.no_finish_at: int | None = None
        #: the ranked games whose player agreed that a hint unranks them (asked once)
        self.hint_agreed: set[str] = set()

    async def request(self, what: str, move: WireMove | None = None) -> bool:
        """Move, undo or resign (:meth:`SyncedBoard.request`); after a move, the safe
        moves too when the player asked for them after each move."""
        if not await super().request(what, move):
            return False
        if what == "move" and self.safe_after_moves and self.playing:
            await self.action_safe(after=current().move(move, self.piles) if move else "")
        return True

    async def action_auto(self) -> None:
        played = 0
        while self.playing and played < AUTO_LIMIT:
            move = forced(self.legal)
            if move is None or not await self.request("move", move):
                break
            played += 1
        if not played:
            self.say(_("nothing forced: the next move is yours"))
        else:
            self.say(ngettext("played {n} forced move", "played {n} forced moves", played))

    async def action_safe(self, after: str = "") -> None:
        """Let the server play the game's safe moves (moves that can never spoil a
        win) until none is left; each counts as a move."""
        if not self.playing:
            return
        answer = await self.round_trip(
            lambda: self.host.conn.play_safe(self.state), _("the safe moves")
        )
        if answer is None:
            return
        state, played = answer
        self.set_state(state)
        said = f"{after} · " if after else ""
        if played:  # the moves themselves are on the board now
            self.say(said + ngettext("played {n} safe move", "played {n} safe moves", len(played)))
        elif not after:
            self.say(_("no safe move now (the rules page says which moves this game counts safe)"))

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
        self.run_latest(functools.partial(self._check_finish, dict(state)), group="finish")

    async def _check_finish(self, state: dict[str, Any]) -> None:
        try:
            reply = await self.host.conn.finish_check(state)
        except ClientError:
            return  # an offer only: the next move asks again
        if self.state.get("seq") != state.get("seq") or not self.playing:
            return  # the game moved on meanwhile
        if reply.get("certain"):
            self.finish_offer = int(reply.get("moves") or 0)
            self.say(_("the server can finish this game for you: f"))
        else:
            self.no_finish_at = int(state.get("foundation") or 0)
        self.refresh_bindings()
        self.redraw()

    async def action_finish(self) -> None:
        """Auto-complete: the server plays the rest of the game along the certain win
        it found (the result says "auto-completed"; a daily still ranks)."""
        if not self.playing or self.finish_offer is None:
            return
        answer = await self.round_trip(
            lambda: self.host.conn.finish(self.state), _("auto-complete")
        )
        if answer is None:
            return
        state, played = answer
        self.set_state(state)
        self.say(
            ngettext(
                "auto-completed: the server played the last {n} move",
                "auto-completed: the server played the last {n} moves",
                len(played),
            )
        )

    #: the question a hint on a ranked daily asks first (once a game: an older
    #: server's; this one gives no hint on a deal others are playing)
    HINT_QUESTION = N_(
        "A hint unranks this daily: it will no longer count on the leaderboards, "
        "your stats' dailies or your streak. Ask for a hint?"
    )

    async def action_hint(self) -> None:
        """A hint; on a ranked daily only after the player agreed that it unranks the
        game (asked once a game: later hints in it do not ask again)."""
        if not self.playing or self.busy:
            return
        if self.state.get("hints") is False:  # the server says so for this deal
            self.say(_(NO_HINTS.get(str(self.state.get("mode")), NO_HINTS[Mode.DAILY.value])))
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
                self.say(_("no hint: the daily still ranks"))

        self.app.push_screen(ConfirmScreen(_(self.HINT_QUESTION)), confirmed)

    async def hint_now(self) -> None:
        """Ask the server for one move of a winning line and highlight it (the game
        no longer ranks on a daily board; races refuse hints)."""
        if not self.playing or self.busy:
            return
        gid = str(self.state["game_id"])
        reply = await self.round_trip(lambda: self.host.conn.hint(gid), _("the hint"))
        if reply is None:
            return
        if reply.get("assisted"):
            # as a resume would say from now on
            self.state["ranked"], self.state["assisted"] = False, True
            self.redraw()  # the title says so
        move = reply.get("move")
        if not isinstance(move, dict):
            self.say(_("hint: no win found from here"))
            return
        if "from" in move:
            self.source, self.source_index = str(move["from"]), move.get("index")
            self.redraw()
        said = current().move(move, self.piles)
        self.say(_("hint: {move} (this game no longer ranks)", move=said))
