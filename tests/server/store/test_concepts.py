"""The store is its concepts' classes gathered (``server.store.store``): no two of them
define the same name, so which base comes first decides nothing, and none has an
``__init__`` of its own (the connection's state is set in one place)."""

from __future__ import annotations

from server.store import Store
from server.store.connection import Connection
from server.store.store import CONCEPTS


def test_no_two_concepts_define_the_same_name() -> None:
    owner: dict[str, str] = {}
    for concept in CONCEPTS:
        for name in vars(concept):
            if name.startswith("__"):
                continue
            assert name not in owner, f"{name} is in {owner.get(name)} and {concept.__name__}"
            assert not hasattr(Connection, name), f"{concept.__name__}.{name} hides the base's"
            owner[name] = concept.__name__


def test_the_store_is_its_concepts_and_nothing_else() -> None:
    assert Store.__bases__ == CONCEPTS
    assert all(issubclass(c, Connection) and "__init__" not in vars(c) for c in CONCEPTS)
    assert [k for k in vars(Store) if not k.startswith("__")] == []
