"""The network edge: WebSocket handling, routing, rate limits, /healthz, /metrics."""

from __future__ import annotations

from .app import App, Conn, Hub

__all__ = ["App", "Conn", "Hub"]
