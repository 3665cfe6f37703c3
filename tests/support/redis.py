"""A real redis-server for tests (:mod:`deploy.procs`, which the benchmarks and the
local launcher share)."""

from __future__ import annotations

from deploy.procs import RedisProcess, free_port

__all__ = ["RedisProcess", "free_port"]
