"""The wire protocol as an AsyncAPI 3 document, made from the types themselves: each
request's checks (``protocol.requests``), each result (``protocol.results``) and each
event (``protocol.events``), with JSON Schema (draft 7) payloads.

``document()`` is pure and deterministic; ``python -m tools.schema --write`` keeps
``docs/protocol.asyncapi.json`` equal to it (a test fails when they differ), and the
server serves it at ``GET /protocol.json``. It describes the server: a request is an
operation the server ``receive``\\ s, answered by a reply (its result, or the error
reply); an event is one it ``send``\\ s unasked.

The schemas are closed (``additionalProperties: false``): the suite checks every
frame against them, so a field the server sends that the types do not name fails a
test. A client should still ignore fields it does not know (docs/protocol.md).
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
from enum import StrEnum
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from . import SUBPROTOCOL, VERSION
from .checks import JSON, Check, Shape
from .codec import MAX_ID
from .events import EVENTS
from .objects import OPEN
from .ops import PUBLIC_OPS
from .requests import REQUESTS, Request
from .results import RESULTS, Error

#: a message's key in the document: ``request.move``, ``reply.move``, ``event.race``
REQUEST, REPLY, EVENT = "request", "reply", "event"
ERROR_REPLY = f"{REPLY}.error"
#: the shared schemas' place in the document
SCHEMAS = "#/components/schemas/"

RE: JSON = {
    "type": "integer",
    "minimum": 0,
    "maximum": MAX_ID,
    "description": "the request's `id`",
}


def camel(name: str) -> str:
    """``race_create`` → ``RaceCreate``."""
    return "".join(part.capitalize() for part in name.split("_"))


def description(obj: object) -> str | None:
    """A class's own docstring, as one paragraph of text (none for a dataclass's
    generated signature)."""
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else None
    if not doc or doc.startswith(f"{getattr(obj, '__name__', '')}("):
        return None
    paragraphs = [" ".join(p.split()) for p in doc.strip().split("\n\n")]
    text = "\n\n".join(p for p in paragraphs if p)
    # reStructuredText to Markdown: ``code`` → `code`, :func:`x` → `x`
    return re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")


class Schemas:
    """JSON Schemas of Python types; every ``TypedDict`` and ``StrEnum`` once, in
    :attr:`named`, referred to by ``$ref``."""

    def __init__(self) -> None:
        self.named: dict[str, JSON] = {}
        self._owners: dict[str, object] = {}

    def ref(self, name: str, owner: object, make: Any) -> JSON:
        """``$ref`` to the schema ``name`` of ``owner``, made once by ``make()``."""
        held = self._owners.get(name)
        if held is None:
            self._owners[name] = owner
            self.named[name] = {}  # a type that refers to itself finds its name
            self.named[name] = make()
        elif held is not owner:
            raise TypeError(f"two types are called {name}: {held!r} and {owner!r}")
        return {"$ref": SCHEMAS + name}

    def of(self, tp: Any) -> JSON:
        origin = get_origin(tp)
        if origin is Annotated:
            return self._annotated(tp)
        if origin in (NotRequired, Required):
            return self.of(get_args(tp)[0])
        if origin in (Union, types.UnionType):
            return self._union(get_args(tp))
        if origin is Literal:
            values = list(get_args(tp))
            if len(values) == 1:
                return {"const": values[0]}
            kinds = {type(v) for v in values}
            return {"type": "string", "enum": values} if kinds == {str} else {"enum": values}
        if origin is list:
            return {"type": "array", "items": self.of(get_args(tp)[0])}
        if origin is dict:
            key, value = get_args(tp)
            assert key is str, "a map's keys are strings"
            return {"type": "object"} if value is Any else self._map(value)
        if is_typeddict(tp):
            return self.ref(tp.__name__, tp, lambda: self.typed_dict(tp))
        if isinstance(tp, type) and issubclass(tp, StrEnum):
            return self.ref(tp.__name__, tp, lambda: self._enum(tp))
        simple = {int: "integer", float: "number", str: "string", bool: "boolean"}
        if tp in simple:
            return {"type": simple[tp]}
        if tp is None or tp is type(None):
            return {"type": "null"}
        if tp is Any:
            return {}
        raise TypeError(f"no JSON Schema for {tp!r}")

    def _annotated(self, tp: Any) -> JSON:
        schema = dict(self.of(tp.__origin__))
        extra: JSON = {}
        for meta in tp.__metadata__:
            if isinstance(meta, Check):
                extra |= meta.schema
            elif isinstance(meta, Shape):
                extra |= meta.keywords
            elif isinstance(meta, str):
                extra["description"] = meta
        if "$ref" in schema and extra:
            # draft 7 reads nothing beside a $ref: the words go around it
            return {"allOf": [schema], **extra}
        return schema | extra

    def _union(self, members: tuple[Any, ...]) -> JSON:
        """``anyOf`` the members; ``X | None`` of a plain type ``{"type": [x, "null"]}``,
        else null first (a validator tries the cheap branch first)."""
        rest = [m for m in members if m is not None and m is not type(None)]
        schemas = [self.of(m) for m in rest]
        if len(rest) == len(members):
            return {"anyOf": schemas}
        if len(schemas) == 1 and isinstance(schemas[0].get("type"), str):
            return {**schemas[0], "type": [schemas[0]["type"], "null"]}
        return {"anyOf": [{"type": "null"}, *schemas]}

    def _map(self, value: Any) -> JSON:
        return {"type": "object", "additionalProperties": self.of(value)}

    def _enum(self, enum: type[StrEnum]) -> JSON:
        schema: JSON = {"type": "string", "enum": [str(m) for m in enum]}
        doc = description(enum)
        return {"description": doc, **schema} if doc else schema

    def fields(self, tp: Any) -> tuple[JSON, list[str]]:
        """The ``properties`` of a TypedDict and the keys it requires."""
        hints = get_type_hints(tp, include_extras=True)
        total = tp.__total__
        props: JSON = {}
        required: list[str] = []
        for key, hint in hints.items():
            props[key] = self.of(hint)
            origin = get_origin(hint)
            if origin is Required or (total and origin is not NotRequired):
                required.append(key)
        return props, required

    def typed_dict(self, tp: Any, **head: JSON) -> JSON:
        """A TypedDict's object schema; ``head``: properties that come first."""
        props, required = self.fields(tp)
        schema: JSON = {"type": "object"}
        doc = description(tp)
        if doc:
            schema["description"] = doc
        schema["properties"] = {**head, **props}
        schema["required"] = [*head, *required]
        schema["additionalProperties"] = OPEN.get(tp, False)
        return schema

    def request(self, cls: type[Request]) -> JSON:
        """A request's schema: ``id``, ``op`` and each field's check's schema; a field
        with a default may be left out or null (null counts as absent)."""
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        props: JSON = {
            "id": {"type": "integer", "minimum": 0, "maximum": MAX_ID},
            "op": {"const": str(cls.op)},
        }
        required = ["id", "op"]
        for name, check in cls.fields.items():
            if defaults[name] is dataclasses.MISSING:
                props[name] = check.schema
                required.append(name)
            else:
                props[name] = {"anyOf": [check.schema, {"type": "null"}]}
        schema: JSON = {"type": "object"}
        doc = description(cls)
        if doc:
            schema["description"] = doc
        schema |= {"properties": props, "required": required, "additionalProperties": False}
        return schema


def _message(name: str, title: str, payload: JSON, summary: str | None, where: str) -> JSON:
    message: JSON = {"name": name, "title": title}
    if summary:
        message["summary"] = summary.split("\n\n")[0]
    message["payload"] = payload
    message["correlationId"] = {"$ref": f"#/components/correlationIds/{where}"}
    return message


def document() -> JSON:
    """The AsyncAPI 3 document of the wire protocol, version 1."""
    schemas = Schemas()
    messages: JSON = {}
    operations: JSON = {}
    channel = {"$ref": "#/channels/ws"}

    def msg_ref(key: str) -> JSON:
        return {"$ref": f"#/channels/ws/messages/{key}"}

    error = schemas.ref(
        "ErrorReply",
        ERROR_REPLY,
        lambda: {
            "type": "object",
            "description": "A failed reply: `re` is null when the request's id could not be read.",
            "properties": {
                "re": {"anyOf": [RE, {"type": "null"}]},
                "ok": {"const": False},
                "error": schemas.of(Error),
            },
            "required": ["re", "ok", "error"],
            "additionalProperties": False,
        },
    )
    messages[ERROR_REPLY] = _message(
        "error", "A failed reply", error, "Any request may fail so.", "reply"
    )
    for op, cls in REQUESTS.items():
        name = camel(op)
        request = schemas.ref(f"{name}Request", cls, lambda cls=cls: schemas.request(cls))
        variants = [schemas.typed_dict(result, re=RE, ok={"const": True}) for result in RESULTS[op]]
        reply = variants[0] if len(variants) == 1 else {"anyOf": variants}
        reply_ref = schemas.ref(f"{name}Reply", (REPLY, op), lambda reply=reply: reply)
        words = " ".join(d for r in RESULTS[op] if (d := description(r)))
        messages[f"{REQUEST}.{op}"] = _message(
            op, f"{op} request", request, description(cls), "request"
        )
        messages[f"{REPLY}.{op}"] = _message(op, f"{op} reply", reply_ref, words, "reply")
        operations[str(op)] = {
            "action": "receive",
            "channel": channel,
            "summary": f"{op}: open to anyone" if op in PUBLIC_OPS else f"{op}: signed in",
            "messages": [msg_ref(f"{REQUEST}.{op}")],
            "reply": {
                "channel": channel,
                "messages": [msg_ref(f"{REPLY}.{op}"), msg_ref(ERROR_REPLY)],
            },
            "x-public": op in PUBLIC_OPS,
        }
    for ev, tp in EVENTS.items():
        head: JSON = {"ev": {"const": str(ev)}}
        payload = schemas.ref(
            f"{camel(ev)}Event",
            (EVENT, ev),
            lambda tp=tp, head=head: schemas.typed_dict(tp, **head),
        )
        messages[f"{EVENT}.{ev}"] = {
            "name": str(ev),
            "title": f"{ev} event",
            **({"summary": d} if (d := description(tp)) else {}),
            "payload": payload,
        }
        operations[f"{EVENT}_{ev}"] = {
            "action": "send",
            "channel": channel,
            "summary": f"the {ev} event",
            "messages": [msg_ref(f"{EVENT}.{ev}")],
        }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "pasyans wire protocol",
            "version": str(VERSION),
            "description": (
                "One WebSocket (subprotocol `pasyans.v1`) of binary frames, each one msgpack "
                "map with string keys: a request `{id, op, ...}` is answered by exactly one "
                "reply `{re, ok, ...}`; events `{ev, ...}` come unasked. Integers are msgpack "
                "integers (seeds and ms timestamps are uint64). Made from the protocol "
                "package's types by `python -m tools.schema --write`; the prose is "
                "docs/protocol.md."
            ),
        },
        "defaultContentType": "application/msgpack",
        "servers": {
            "local": {
                "host": "127.0.0.1:8765",
                "protocol": "ws",
                "pathname": "/ws",
                "description": f"the default address; offer the subprotocol {SUBPROTOCOL}",
            }
        },
        "channels": {
            "ws": {
                "address": "/ws",
                "title": "a connection",
                "messages": {key: {"$ref": f"#/components/messages/{key}"} for key in messages},
            }
        },
        "operations": operations,
        "components": {
            "schemas": dict(sorted(schemas.named.items())),
            "messages": messages,
            "correlationIds": {
                "request": {"location": "$message.payload#/id"},
                "reply": {"location": "$message.payload#/re"},
            },
        },
    }


def dumps(doc: JSON) -> str:
    """The document as it is committed: JSON, two-space indents, UTF-8, a last newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
