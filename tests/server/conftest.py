"""Fixtures of the server tests: a real redis-server and a real server (see
tests/support)."""

from tests.support.fixtures import *  # noqa: F403
