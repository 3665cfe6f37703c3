"""Error codes and close codes of the wire protocol, each defined once.

Exceptions::

    ProtocolError(code, message, key=, params=)
        anything the peer sent that the protocol refuses; ``code`` is the
        :class:`ErrorCode` put on the wire for programs, ``key`` and ``params`` what a
        client says to its player (a keyed message of the catalogues: protocol/i18n.py),
        ``message`` the same in English for a client that does not know the key
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .i18n import N_


class ErrorCode(StrEnum):
    """The ``error.code`` of a failed reply (docs/protocol.md, "Error codes")."""

    BAD_REQUEST = "bad_request"
    UNKNOWN_OP = "unknown_op"
    UNAUTHORIZED = "unauthorized"
    NOT_FOUND = "not_found"
    NAME_TAKEN = "name_taken"
    ILLEGAL_MOVE = "illegal_move"
    STALE_SEQ = "stale_seq"
    GAME_OVER = "game_over"
    RATE_LIMITED = "rate_limited"
    TOO_LARGE = "too_large"
    FORBIDDEN = "forbidden"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"


#: Parameters of a keyed message: a ``seconds`` one is said as a duration, a ``card``
#: as its rank and suit, a ``game`` slug as the game's title (protocol/i18n.py)
Params = Mapping[str, str | int | float | None]


def error_key(code: ErrorCode | str) -> str:
    """The keyed message an error of ``code`` says unless it names a more precise one."""
    return f"error.{code}"


class ProtocolError(Exception):
    """A request (or reply) the protocol refuses.

    ``key`` (default: the code's own, :func:`error_key`) and ``params`` are what a
    client says in its player's language (docs/protocol.md, "Error codes"); ``extra``
    holds additional fields of the error object, e.g. the current ``state`` of a
    ``stale_seq`` error.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        key: str | None = None,
        params: Params | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.key = key or error_key(code)
        self.params = dict(params or {})
        self.extra = extra

    def wire(self) -> dict[str, Any]:
        """The error object's fields after ``code`` and ``message``."""
        return {"key": self.key, "params": self.params, **self.extra}

    def __repr__(self) -> str:
        return f"ProtocolError(ErrorCode.{self.code.name}, {self.message!r})"


# WebSocket close codes the server uses (RFC 6455 §7.4.1).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001  # the server shuts down
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_UNSUPPORTED = 1003
CLOSE_POLICY = 1008  # repeated abuse (too many bad frames in a row)
CLOSE_TOO_BIG = 1009  # a frame over the hard limit (far beyond MAX_FRAME)
CLOSE_INTERNAL = 1011
CLOSE_RESTART = 1012
CLOSE_TRY_AGAIN = 1013
#: the connection did not keep up: its replies and events waiting passed
#: ``--outbox-bytes``, a write waited past ``--write-timeout`` for it to read, or a
#: keepalive ping went unanswered past ``--ping-timeout``; a client reconnects and
#: resumes (its games are untouched)
CLOSE_TOO_SLOW = 4000
#: another connection of the account took a new token (``token_rotate``) or deleted the
#: account: the token this one signed in with is refused now; do not reconnect with it
CLOSE_SIGNED_OUT = 4002
#: the connection stayed open ``--auth-timeout`` seconds without signing in
CLOSE_NO_SIGN_IN = 4001


#: Why the server closes a connection on purpose (the ``bye`` event's ``key``, with its
#: ``params``; ``reason`` says it in English)
BYE_SHUTDOWN = N_("bye.shutdown")
BYE_BAD_FRAMES = N_("bye.bad_frames")
#: another connection of the account asked for a new token, or deleted the account
BYE_SIGNED_OUT = N_("bye.signed_out")


#: Every error key a server sends (the catalogues say each in every language): each
#: code's own, then the precise ones the services name.
KEYS: tuple[str, ...] = (
    N_("error.bad_request"),
    N_("error.unknown_op"),
    N_("error.unauthorized"),
    N_("error.not_found"),
    N_("error.name_taken"),
    N_("error.illegal_move"),
    N_("error.stale_seq"),
    N_("error.game_over"),
    N_("error.rate_limited"),
    N_("error.too_large"),
    N_("error.forbidden"),
    N_("error.unavailable"),
    N_("error.internal"),
    # precise ones
    N_("error.name_looks_like"),
    N_("error.name_invalid"),
    N_("error.limit_register"),
    N_("error.limit_race_join"),
    N_("error.limit_race_join_failed"),
    N_("error.certifying"),
    N_("error.solver_busy"),
    N_("error.no_help_race"),
    N_("error.no_help_challenge"),
    N_("error.no_help_daily"),
    N_("error.no_finish"),
    N_("error.no_race"),
    N_("error.race_started"),
    N_("error.race_full"),
    N_("error.race_over"),
    N_("error.day_closed"),
    N_("error.creator_only"),
    N_("error.not_in_race"),
    N_("error.no_challenge"),
    N_("error.challenge_expired"),
    N_("error.no_player"),
    N_("error.no_game"),
    N_("error.game_summarised"),
    N_("error.not_yours"),
    N_("error.nothing_to_undo"),
    N_("error.stats_need_player"),
    N_("error.not_watching"),
    N_("error.friends_board_login"),
    N_("error.login_first"),
    N_("error.unknown_token"),
    N_("error.no_free_code"),
    N_("error.challenge_limit"),
    N_("error.own_challenge"),
    N_("error.challenge_closed_final"),
    N_("error.challenge_not_open"),
    N_("error.challenge_in_play"),
    N_("error.challenge_race_secret"),
    N_("error.challenge_challenge_secret"),
    N_("error.bad_cursor"),
    N_("error.around_me_login"),
    N_("error.no_patience"),
    N_("error.rematch_after"),
    N_("error.rematch_not_ready"),
    N_("error.daily_played"),
    N_("error.end_not_running"),
    N_("error.not_member"),
    N_("error.drop_self"),
    N_("error.member_here"),
    N_("error.no_such_race"),
    N_("error.member_done"),
    N_("error.replay_in_play_yours"),
    N_("error.replay_in_play"),
    N_("error.replay_race_running"),
    N_("error.replay_daily_running"),
    N_("error.replay_private"),
    N_("error.par_secret"),
    N_("error.no_par"),
    N_("error.step_past_end"),
    N_("error.no_daily_game"),
    N_("error.search_stopped"),
    N_("error.no_finish_shared"),
    N_("error.no_finish_ranked"),
    N_("error.invite_self"),
    N_("error.invite_not_member"),
    N_("error.challenge_closed"),
    N_("error.limit_invites"),
    # accounts that last (issue 49)
    N_("error.link_code_wrong"),
    N_("error.limit_link"),
    N_("error.limit_link_failed"),
    N_("error.limit_export"),
    N_("error.delete_name_wrong"),
    N_("error.name_held"),
    N_("error.token_replaced"),
    N_("error.no_inbox_item"),
    N_("error.watch_daily"),
    N_("error.watch_own_race"),
    N_("error.watch_full"),
    N_("error.spectator_join"),
    N_("error.game_keeps_changing"),
    N_("error.undo_shown_race"),
    N_("error.undo_shown_ranked"),
    N_("error.undo_shown_challenge"),
    N_("error.malformed_move"),
    N_("error.replay_stopped"),
    N_("error.daily_not_certified"),
    N_("error.daily_future"),
    N_("error.daily_before_first"),
    N_("error.follow_self"),
    N_("error.follow_limit"),
    N_("error.block_self"),
    N_("error.no_rules"),
    # issue 49, operators' half
    N_("error.banned"),
    N_("error.report_self"),
    N_("error.limit_reports"),
    # tournaments (issue 51)
    N_("error.no_tournament"),
    N_("error.tournament_starts_at"),
    N_("error.limit_tournaments"),
    N_("error.tournament_open_limit"),
    N_("error.tournament_full"),
    N_("error.tournament_over"),
    N_("error.tournament_left"),
    N_("error.tournament_address"),
    N_("error.tournament_deals_done"),
    N_("error.not_entrant"),
    N_("error.tournament_not_started"),
    N_("error.tournament_preparing"),
    N_("error.not_watching_tournament"),
    N_("error.no_help_tournament"),
    N_("error.undo_shown_tournament"),
    N_("error.replay_tournament_running"),
    N_("error.challenge_tournament_secret"),
)
