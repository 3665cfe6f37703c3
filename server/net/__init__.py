"""The network edge: the server process (``app``), a connection's loop (``session``),
the ops (``routes``), race events (``events``), plain HTTP (``http``), rate limits and
metrics."""

from __future__ import annotations

from .app import App
from .session import Conn, Hub

__all__ = ["App", "Conn", "Hub"]
