"""Every frame a test client sends or receives, checked against the protocol's AsyncAPI
document (``docs/protocol.asyncapi.json``, made by ``python -m tools.schema --write``).

A :class:`Frames` follows one connection: :meth:`Frames.sent` each request,
:meth:`Frames.received` each frame read. A reply or event that the document does not
describe fails the test (:class:`FrameError`, an ``AssertionError``). A request the
document refuses is allowed — tests send malformed requests on purpose — but then the
server must refuse it too: a successful reply to it fails the test (the schema and the
server's checks must agree on what is a request).

What it costs: the document's validators are compiled once (fastjsonschema turns the
schemas into Python code, kept in the temporary directory by the document's hash, so
each test process only imports it), and a frame is checked in well under a
millisecond (a whole game state with its piles and legal moves included).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import fastjsonschema

from protocol.schema import camel

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.asyncapi.json"

Validate = Callable[[Any], Any]


class FrameError(AssertionError):
    """A frame the protocol's document does not describe."""


def _function(name: str) -> str:
    """The name fastjsonschema gives the validator of ``#/components/schemas/NAME``."""
    return "validate___components_schemas_" + re.sub(r"[^a-zA-Z0-9_]", "_", name).lower()


@functools.cache
def validators() -> Mapping[str, Validate]:
    """Component schema name → its validator, for every message of the document."""
    import json

    text = DOC.read_bytes()
    doc = json.loads(text)
    schemas = doc["components"]["schemas"]
    names = [n for n in schemas if n.endswith(("Request", "Reply", "Event"))]
    digest = hashlib.sha256(text + fastjsonschema.VERSION.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"pasyans_frames_{digest}.py"
    if not path.exists():
        root = {
            "anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in names],
            "components": {"schemas": schemas},
        }
        code = fastjsonschema.compile_to_code(root, use_formats=False)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(code, encoding="utf-8")
        partial.replace(path)  # whole or not at all: test processes may race here
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {n: getattr(module, _function(n)) for n in names}


def problem(schema: str, msg: Mapping[str, Any]) -> str | None:
    """Why ``msg`` is not a ``schema`` (a component's name), or None when it is one."""
    check = validators().get(schema)
    if check is None:
        return f"the document has no {schema}"
    try:
        check(msg)
    except fastjsonschema.JsonSchemaValueException as exc:
        return exc.message
    return None


def _shown(msg: Mapping[str, Any]) -> str:
    text = repr(msg)
    return text if len(text) < 1500 else text[:1500] + " …"


class Frames:
    """The frames of one connection: what it asked, and what came back."""

    def __init__(self) -> None:
        #: request id → its op, until its reply comes
        self.ops: dict[int, str] = {}
        #: request id → why the document refuses that request, until its reply comes
        self.refused: dict[int, str] = {}

    def sent(self, msg: Mapping[str, Any]) -> None:
        """A request about to be sent."""
        op, rid = msg.get("op"), msg.get("id")
        why = problem(f"{camel(op)}Request", msg) if isinstance(op, str) else "no op"
        if isinstance(rid, int) and not isinstance(rid, bool):
            self.ops[rid] = str(op)
            if why is not None:
                self.refused[rid] = why

    def received(self, msg: Mapping[str, Any]) -> None:
        """A frame read; :class:`FrameError` when the document does not describe it."""
        if "ev" in msg:
            ev = msg["ev"]
            self._check(f"{camel(ev)}Event" if isinstance(ev, str) else "", msg, "event")
            return
        rid = msg.get("re")
        op = self.ops.pop(rid, None) if isinstance(rid, int) else None
        refused = self.refused.pop(rid, None) if isinstance(rid, int) else None
        if msg.get("ok") is not True:
            self._check("ErrorReply", msg, "failed reply")
            return
        if refused is not None:
            raise FrameError(
                f"the server accepted a {op} request that docs/protocol.asyncapi.json "
                f"refuses ({refused}): the schema and the server's checks disagree"
            )
        if op is not None:  # else a reply to a frame sent raw: its op is unknown
            self._check(f"{camel(op)}Reply", msg, f"reply to {op}")

    @staticmethod
    def _check(schema: str, msg: Mapping[str, Any], what: str) -> None:
        why = problem(schema, msg)
        if why is not None:
            raise FrameError(
                f"a {what} that docs/protocol.asyncapi.json does not describe: {why}\n"
                f"  frame: {_shown(msg)}\n"
                "  (the server changed, or the types in protocol/ did: fix the one that is "
                "wrong and run `python -m tools.schema --write`)"
            )
