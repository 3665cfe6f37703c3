"""Every refusal a player can meet says its precise reason in every language: each
``ProtocolError(...)`` the server raises (server/, and protocol/'s checks) names a
``key=`` (docs/protocol.md, "Error codes"), else a Russian player reads only the
generic words of its code («Это запрещено.») where an English one reads why. Every key
the server names is in ``protocol.errors.KEYS``, translated in every catalogue, and
takes the parameters the server gives it."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from protocol.errors import KEYS, ErrorCode
from protocol.i18n import LANGS
from tools import i18n

ROOT = Path(__file__).resolve().parents[2]
_KEY = re.compile(r"error\.[a-z0-9_]+")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")

#: the raises that may say only their code's own words, each with the reason
ALLOWED = {
    # The engine's illegal-move reasons (server/patience: each game's explain_card and
    # explain_action, some 140 sentences with their cards and piles) are English prose
    # still: a Russian player reads error.illegal_move ("That move is not allowed now").
    ("server/services/games.py", "exc.reason"),
}
#: protocol/'s refusals of a frame or request of the wrong shape (not msgpack, an
#: unknown op or field, a field of the wrong type): the clients build every request,
#: so no player meets them but through a client's bug, and error.CODE says it
MALFORMED = frozenset({"ErrorCode.BAD_REQUEST", "ErrorCode.UNKNOWN_OP", "ErrorCode.TOO_LARGE"})
SOURCES = ("server", "protocol")


def _sources() -> Iterator[Path]:
    for top in SOURCES:
        yield from sorted((ROOT / top).rglob("*.py"))


@functools.cache
def parsed() -> list[tuple[Path, ast.Module]]:
    """Every source parsed, once for the module's tests (issue 45)."""
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in _sources()]


def raises() -> Iterator[tuple[str, int, ast.Call]]:
    for path, tree in parsed():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "ProtocolError":
                    yield str(path.relative_to(ROOT)), node.lineno, node


def _code(call: ast.Call) -> str:
    return ast.unparse(call.args[0]) if call.args else ""


def _message(call: ast.Call) -> str:
    return ast.unparse(call.args[1]) if len(call.args) > 1 else ""


def _keys_named(call: ast.Call) -> set[str]:
    """The keys a raise may name: its ``key=``'s strings (a conditional names several)."""
    found: set[str] = set()
    for kw in call.keywords:
        if kw.arg == "key":
            for sub in ast.walk(kw.value):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found.add(sub.value)
    return found


def test_every_protocol_error_of_the_server_names_its_key() -> None:
    found = list(raises())
    assert len(found) > 50
    bare = [
        f"{path}:{line}: {_message(call)[:70]}"
        for path, line, call in found
        if not any(kw.arg == "key" for kw in call.keywords)
        and (path, _message(call)) not in ALLOWED
        and not (path.startswith("protocol/") and _code(call) in MALFORMED)
    ]
    assert not bare, "name a key= (and params=) for each:\n" + "\n".join(bare)


def test_the_allowed_ones_still_exist() -> None:
    here = {(path, _message(call)) for path, _, call in raises()}
    assert here >= ALLOWED, f"no longer raised, drop from ALLOWED: {ALLOWED - here}"


def test_every_error_key_of_the_server_is_declared_and_said_in_every_language() -> None:
    used: set[str] = set()
    for _, tree in parsed():
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and _KEY.fullmatch(text):
                used.add(text)
    for _, _, call in raises():
        used |= _keys_named(call)
    assert len(used) > 50
    assert not used - set(KEYS), f"not in protocol.errors.KEYS: {sorted(used - set(KEYS))}"
    for lang in LANGS:
        catalog = i18n.read(lang)
        for key in sorted(used):
            entry = catalog.get(key)
            said = entry is not None and all(i18n.strings(entry)) and not entry.fuzzy
            assert said, f"{lang}: {key!r} is not translated"


def test_a_keyed_message_takes_the_parameters_the_server_gives() -> None:
    """Each placeholder of a key's words is a parameter some raise of it gives, and the
    same ones in every language (a ``{seconds}`` said in English is said in Russian)."""
    given: dict[str, set[str]] = {}
    for _, _, call in raises():
        params = next((kw.value for kw in call.keywords if kw.arg == "params"), None)
        names: set[str] | None = set()  # none without params=, unknown from a variable
        if isinstance(params, ast.Dict):
            names = {str(k.value) for k in params.keys if isinstance(k, ast.Constant)}
        elif params is not None:
            names = None
        for key in _keys_named(call):
            if names is not None:
                given.setdefault(key, set()).update(names)
    catalogues = {lang: i18n.read(lang) for lang in LANGS}
    for key, names in sorted(given.items()):
        wanted = [
            set(_PLACEHOLDER.findall(" ".join(i18n.strings(catalogues[lang][key]))))
            for lang in LANGS
        ]
        assert all(w == wanted[0] for w in wanted), f"{key}: placeholders differ: {wanted}"
        assert wanted[0] <= names, f"{key}: says {wanted[0] - names}, never given"


def test_the_protocol_lists_every_key_exactly() -> None:
    """docs/protocol.md, "Error codes", lists each precise key (the codes' own are its
    ``error.CODE``) and no key the server does not name."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes = {f"error.{code}" for code in ErrorCode}
    fields = {"error.CODE", "error.state", "error.code", "error.retry_after"}
    listed = set(re.findall(r"`(error\.[A-Za-z0-9_]+)`", doc)) - fields - codes
    precise = set(KEYS) - codes
    assert not precise - listed, f"not in docs/protocol.md: {sorted(precise - listed)}"
    assert not listed - precise, f"not a key of the server: {sorted(listed - precise)}"
