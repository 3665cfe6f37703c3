"""A token bucket: ``rate`` tokens per second up to ``burst``; one request costs one.

Pure: the caller passes the time (seconds, monotonic), so it is tested without a loop.
"""

from __future__ import annotations


class TokenBucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough; False means rate-limited."""
        elapsed = now - self.stamp
        if elapsed > 0:
            self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
            self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` tokens are there again (after a refused ``take``)."""
        return max(0.0, (cost - self.tokens) / self.rate) if self.rate > 0 else 60.0
