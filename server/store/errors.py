"""Which Redis failures are an outage (the request may succeed if sent again a little
later) rather than a bug: the server answers those ``unavailable`` with a
``retry_after``, everything else ``internal``.

An outage reply says nothing about whether a write went through: a ``move`` answered
``unavailable`` may be in force (its script ran, the reply was lost, or a replica did
not confirm it in time) or not. Sending it again is safe — a move is a compare-and-set
on ``seq``, so a repeat of one that was written gets ``stale_seq`` with the game as it
now is, never a second move.
"""

from __future__ import annotations

import redis.exceptions as rx


class NotReplicated(rx.RedisError):
    """``--durability replicated``: the write ran on the primary but no replica
    confirmed it within the timeout (``WAIT``), so it is not acknowledged. It stays on
    the primary and reaches the replicas when they catch up, unless the primary dies
    first (then a failover loses it: it was never acknowledged)."""


#: failures of the storage itself: Redis down, restarting, loading its AOF, a cluster
#: failing over (no node for a slot, a replica not yet promoted), a write not
#: confirmed on a replica
OUTAGE: tuple[type[Exception], ...] = (
    rx.ConnectionError,
    rx.TimeoutError,
    rx.BusyLoadingError,
    rx.ClusterDownError,
    rx.ClusterError,
    rx.TryAgainError,
    rx.MasterDownError,
    rx.ReadOnlyError,
    rx.SlotNotCoveredError,
    rx.RedisClusterException,
    NotReplicated,
)
