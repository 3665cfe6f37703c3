"""Full links to the web client: a race's and a challenge's ``url`` (the web client's
routes ``#race/CODE`` and ``#challenge/CODE`` on the deployment's public URL,
``--public-url``; by default the address the server serves)."""

from __future__ import annotations


class Links:
    def __init__(self, base: str = "http://127.0.0.1:8765/") -> None:
        self.base = base

    @property
    def base(self) -> str:
        return self._base

    @base.setter
    def base(self, url: str) -> None:
        self._base = url if url.endswith("/") else url + "/"

    def race(self, code: str) -> str:
        return f"{self._base}#race/{code}"

    def challenge(self, code: str) -> str:
        return f"{self._base}#challenge/{code}"

    def tournament(self, code: str) -> str:
        return f"{self._base}#tournament/{code}"


def served(host: str, port: int) -> str:
    """The address a server on ``host``:``port`` serves (IPv6 in brackets)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
