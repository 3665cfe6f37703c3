"""Accounts: register a name, authenticate by token. Tokens are random, shown once,
stored only as their sha256, and compared in constant time (in the store).

A name that looks like an existing player's (``names.look_alike_keys``) is refused:
each name's keys are kept in Redis (``Keys.look_alike``), so the check is one
round trip.
Players registered before that check have no key until :meth:`Accounts.backfill`
gives them one, once per deployment, at the start of the first server that runs it.
"""

from __future__ import annotations

import hashlib
import logging
import secrets

from protocol import ErrorCode, ProtocolError
from protocol.checks import LINK_ALPHABET

from ..store import Store
from .clock import Clock
from .names import look_alike_keys

log = logging.getLogger("pasyans.server")

TOKEN_BYTES = 32
#: seconds a link code works for (``link_code``)
LINK_SECONDS = 300
#: characters of a link code
LINK_LENGTH = 8
#: days a name whose player left is held back from registration
HOLD_DAYS = 30


def new_link_code() -> str:
    return "".join(secrets.choice(LINK_ALPHABET) for _ in range(LINK_LENGTH))


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def register(self, name: str) -> str:
        """A new player ``name`` (unique regardless of case, and looking like no
        other player's name); returns its token."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = self.clock.now_ms()
        if await self.store.name_held(name):
            raise ProtocolError(
                ErrorCode.NAME_TAKEN,
                f"the name {name!r} belonged to a player who left; it is held for {HOLD_DAYS} days",
                key="error.name_held",
                params={"name": name, "days": HOLD_DAYS},
            )
        holder = await self.store.create_player(name, digest(token), now, look_alike_keys(name))
        if not holder:
            return token
        if holder.casefold() == name.casefold():
            raise ProtocolError(
                ErrorCode.NAME_TAKEN,
                f"the name {name!r} is taken",
                params={"name": name},
                key="error.name_taken",
            )
        raise ProtocolError(
            ErrorCode.NAME_TAKEN,
            f"the name {name!r} looks like an existing player's name, {holder!r}",
            key="error.name_looks_like",
            params={"name": name, "holder": holder},
        )

    async def backfill(self) -> int:
        """Give every player registered before look-alike names were refused their
        name's look-alike key, unless done before (a key remembers it); how many keys
        were given. Of two old look-alike names, the one met first keeps the key: both
        keep their accounts, and a third look-alike is refused either way. Idempotent:
        two servers starting at once do the same work twice, nothing worse."""
        if await self.store.look_alikes_backfilled():
            return 0
        given = 0
        async for names in self.store.player_names():
            pairs = {key: n for n in reversed(names) for key in look_alike_keys(n)}
            given += await self.store.claim_look_alikes(pairs)
        await self.store.mark_look_alikes_backfilled(self.clock.now_ms())
        if given:
            log.info("gave %d players registered earlier their look-alike keys", given)
        return given

    async def authenticate(self, token: str) -> str:
        """The player a token belongs to; ``unauthorized`` otherwise."""
        name = await self.store.player_of_token(digest(token))
        if name is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, "unknown token", key="error.unknown_token")
        await self.not_banned(name)
        return name

    async def not_banned(self, name: str) -> None:
        """``unauthorized`` (``error.banned``) if the operators banned ``name``."""
        banned = await self.store.ban_of(name)  # issue 49: an operator's ban
        if banned is not None:
            raise ProtocolError(
                ErrorCode.UNAUTHORIZED,
                f"banned by the operators: {banned or 'no reason given'}",
                key="error.banned",
                params={"reason": banned or "-"},
            )

    # -- accounts that last (issue 49) ------------------------------------------------

    async def link_code(self, player: str) -> dict[str, int | str]:
        """A one-use code that signs another device in to ``player``'s account for
        :data:`LINK_SECONDS`; it replaces the player's earlier one."""
        for _ in range(8):
            code = new_link_code()
            if await self.store.put_link_code(player, code, LINK_SECONDS * 1000):
                return {"code": code, "expires_in": LINK_SECONDS}
        raise ProtocolError(
            ErrorCode.UNAVAILABLE, "no free link code: try again", key="error.no_free_code"
        )

    async def link(self, code: str) -> tuple[str, str]:
        """``(player, token)``: a new device's token for the account ``code`` was
        made by; ``not_found`` when the code is wrong, used or expired."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        player = await self.store.take_link_code(code.upper(), digest(token))
        if player is None:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                "this link code is wrong, used or expired: ask for a new one",
                key="error.link_code_wrong",
            )
        await self.not_banned(player)  # a code made before a ban signs nobody in
        return player, token

    async def rotate(self, player: str, old: str) -> str:
        """A new token for ``player``, replacing the one of digest ``old`` and every
        linked device's; ``unauthorized`` when ``old`` is not theirs any more
        (another connection replaced it first)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not old or not await self.store.rotate_token(player, old, digest(token)):
            raise ProtocolError(
                ErrorCode.UNAUTHORIZED,
                "the token this connection signed in with was replaced",
                key="error.token_replaced",
            )
        return token
