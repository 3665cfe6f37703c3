"""Fixtures of the benchmarks' tests: a real redis-server (see tests/support)."""

from tests.support.fixtures import *  # noqa: F403
