"""Everything that talks to Redis: key names, Lua scripts, the store (one module per
concept, gathered by :class:`Store`: see :mod:`.store`), the embedded server."""

from __future__ import annotations

from .embedded import EmbeddedRedis, find_redis_server
from .keys import Keys
from .store import Store

__all__ = ["EmbeddedRedis", "Keys", "Store", "find_redis_server"]
