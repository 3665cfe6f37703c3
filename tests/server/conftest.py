"""Fixtures of the server tests: a real redis-server and a real server (see
tests/support). They reach every directory below, which mirrors ``server/``:
``net/`` (the WebSocket and HTTP edge: startup, frames, errors, metrics, ops' checks),
``services/`` (each op over a real server, beside the service it exercises),
``store/`` (persistence, the move pipe, durability, keys), ``patience/`` (the rules
engine; ``patience/games/`` one module per game) and ``solver/``; the command line and
the settings are tested here."""

from tests.support.fixtures import *  # noqa: F403
