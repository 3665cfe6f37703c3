"""The AsyncAPI document (``protocol.schema``): committed as made, one message for each
op's request and reply and each event, and its request schemas agreeing with
``parse_request``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import protocol as P
from protocol import Event, Op, ProtocolError
from protocol.schema import camel, document, dumps
from tests.support.schema import DOC, FrameError, Frames, problem
from tools import schema as tool

from .test_messages import VALID


def test_the_committed_document_is_the_one_the_types_make() -> None:
    """docs/protocol.asyncapi.json is what ``python -m tools.schema --write`` makes of
    the types in protocol/: change them, then write it again."""
    assert DOC == tool.PATH
    made = dumps(document())
    assert DOC.read_text(encoding="utf-8") == made, (
        "docs/protocol.asyncapi.json is out of date: run python -m tools.schema --write"
    )
    assert tool.main([]) == 0


def test_every_schema_of_the_document_is_json_schema_draft_7() -> None:
    """What a client author's validator reads: each schema, and each message's payload,
    is valid against draft 7's meta-schema (AsyncAPI 3's default schema format is a
    superset of it)."""
    from jsonschema import Draft7Validator

    doc = json.loads(DOC.read_text(encoding="utf-8"))
    for schema in doc["components"]["schemas"].values():
        Draft7Validator.check_schema(schema)
    for message in doc["components"]["messages"].values():
        Draft7Validator.check_schema(message["payload"])


def test_every_op_and_event_has_its_messages() -> None:
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    assert doc["asyncapi"].startswith("3.")
    messages = doc["components"]["messages"]
    channel = doc["channels"]["ws"]["messages"]
    for op in Op:
        assert {f"request.{op}", f"reply.{op}"} <= messages.keys() & channel.keys()
        operation = doc["operations"][str(op)]
        assert operation["action"] == "receive"
        assert operation["x-public"] is (op in P.PUBLIC_OPS)
        replies = [m["$ref"].rsplit("/", 1)[1] for m in operation["reply"]["messages"]]
        assert replies == [f"reply.{op}", "reply.error"]
    for ev in Event:
        assert f"event.{ev}" in messages and doc["operations"][f"event_{ev}"]["action"] == "send"
    for ref in refs(doc):  # every $ref points at something
        node: Any = doc
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]


def refs(node: Any) -> set[str]:
    """Every ``$ref`` in a JSON value."""
    if isinstance(node, list):
        return {r for item in node for r in refs(item)}
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(refs(v) for v in node.values()))
    return set()


#: what a request of these ops needs besides its required fields (one of two)
ONE_OF: dict[Op, dict[str, Any]] = {
    Op.REPLAY: {"game_id": "g1"},
    Op.CHALLENGE_CREATE: {"game": "crescent"},
    Op.INVITE: {"race": "AB12CD"},
}


def test_a_request_the_server_takes_the_schema_takes() -> None:
    """One valid request of every op, and its optional fields null, fit the schema."""
    import dataclasses

    for op, cls in P.REQUESTS.items():
        msg: dict[str, Any] = {"id": 1, "op": str(op), **ONE_OF.get(op, {})}
        for f in dataclasses.fields(cls):
            if f.name != "id" and f.default is dataclasses.MISSING:
                msg[f.name] = VALID[f.name]
        P.parse_request(msg)
        assert problem(f"{camel(op)}Request", msg) is None, msg
        nulls = {**msg, **{name: None for name in cls.fields if name not in msg}}
        assert problem(f"{camel(op)}Request", nulls) is None, nulls


WRONG: list[Any] = [
    None,
    True,
    -1,
    0,
    7,
    2**63,
    2**64,
    1.5,
    "",
    "x",
    "crescent",
    "AB12CD",
    "anna_k",
    "2026-03-01",
    "g" * 65,
    [],
    {},
    {"from": "T1", "to": "T2"},
    {"action": 3.5},
]


@given(
    st.sampled_from(sorted(P.REQUESTS, key=str)),
    st.dictionaries(
        st.sampled_from(sorted({*VALID, "extra"})),
        st.one_of(st.sampled_from(WRONG), st.sampled_from(list(VALID.values()))),
        max_size=6,
    ),
)
def test_what_the_schema_refuses_the_server_refuses(op: Op, fields: dict[str, Any]) -> None:
    """The direction the test clients rely on: a request the schema refuses is refused
    by ``parse_request`` (the schema may take more: rules across fields, a slug of no
    game, a name's script are the server's to check)."""
    msg = {"id": 3, "op": str(op), **fields}
    if problem(f"{camel(op)}Request", msg) is None:
        return
    with pytest.raises(ProtocolError):
        P.parse_request(msg)


def test_a_frame_the_schema_does_not_describe_fails_the_test() -> None:
    frames = Frames()
    frames.sent({"id": 1, "op": "games"})
    with pytest.raises(FrameError, match="games"):
        frames.received({"re": 1, "ok": True, "games": [], "deployment": "d", "more": 1})
    frames.sent({"id": 2, "op": "register", "name": 7})  # refused by the schema: allowed
    frames.received(
        {
            "re": 2,
            "ok": False,
            "error": {
                "code": "bad_request",
                "message": "no",
                "key": "error.bad_request",
                "params": {},
            },
        }
    )
    frames.sent({"id": 3, "op": "register", "name": 7})
    with pytest.raises(FrameError, match="disagree"):
        frames.received({"re": 3, "ok": True, "player": "x", "token": "t"})
    with pytest.raises(FrameError, match="event"):
        frames.received({"ev": "bye"})
    frames.received({"ev": "bye", "reason": "later"})
