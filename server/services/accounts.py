"""Accounts: register a name, authenticate by token. Tokens are random, shown once,
stored only as their sha256, and compared in constant time (in the store)."""

from __future__ import annotations

import hashlib
import secrets

from protocol import ErrorCode, ProtocolError

from ..store import Store
from .clock import Clock

TOKEN_BYTES = 32


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def register(self, name: str) -> str:
        """A new player ``name`` (unique regardless of case); returns its token."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not await self.store.create_player(name, digest(token), self.clock.now_ms()):
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken")
        return token

    async def authenticate(self, token: str) -> str:
        """The player a token belongs to; ``unauthorized`` otherwise."""
        name = await self.store.player_of_token(digest(token))
        if name is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, "unknown token")
        return name
