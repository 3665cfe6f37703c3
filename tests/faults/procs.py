"""What the fault tests read from outside a server process: its children (the
embedded redis-server), its resident memory, its ``/metrics`` counters
(:mod:`deploy.procs`, shared with the benchmarks)."""

from __future__ import annotations

from deploy.procs import children, command, op_counts, open_fds, rss_kib

__all__ = ["children", "command", "op_counts", "open_fds", "rss_kib"]
