"""requirements.txt agrees with pyproject.toml, and .venv is what the lock says.

The lock (``make lock``, docs/dependencies.md) pins every package, direct and transitive,
with hashes; ``make`` builds .venv from it alone. These tests fail when the two files
drift apart: a dependency added to or dropped from pyproject.toml (or tools/lock.in)
without ``make lock``, a range that no longer admits the pinned version, or a venv that
holds another version than the one locked.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.txt"
# the project itself is installed editable, outside the lock
SELF = canonicalize_name("pasyans")

# "name==version ; marker \" opens each entry; its hashes follow on their own lines
ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*(.+?))?\s*\\?$")


def locked() -> dict[NormalizedName, str]:
    """The lock's pins that apply to this interpreter and platform."""
    pins: dict[NormalizedName, str] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line)
        if match is None:
            continue
        name, version, marker = match.groups()
        if marker is None or Marker(marker).evaluate():
            pins[canonicalize_name(name)] = version
    return pins


def declared() -> list[Requirement]:
    """What pyproject.toml (its dependencies and dev extra) and tools/lock.in ask for."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    for line in (ROOT / "tools" / "lock.in").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return [Requirement(line) for line in lines]


def applies(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in extras | {""})


def closure(roots: list[Requirement]) -> set[NormalizedName]:
    """Every distribution the roots need here, followed through the installed metadata."""
    needed: set[NormalizedName] = set()
    todo = [(root, set(root.extras)) for root in roots if applies(root, set())]
    seen: set[tuple[NormalizedName, frozenset[str]]] = set()
    while todo:
        requirement, extras = todo.pop()
        name = canonicalize_name(requirement.name)
        if (name, frozenset(extras)) in seen:
            continue
        seen.add((name, frozenset(extras)))
        needed.add(name)
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # reported by the test below as not installed
        for text in distribution.requires or []:
            child = Requirement(text)
            if applies(child, extras):
                todo.append((child, set(child.extras)))
    return needed


def test_every_declared_requirement_is_locked_within_its_range() -> None:
    pins = locked()
    wrong = []
    for requirement in declared():
        if not applies(requirement, set()):
            continue
        version = pins.get(canonicalize_name(requirement.name))
        if version is None:
            wrong.append(f"{requirement}: not in requirements.txt")
        elif not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{requirement}: the lock pins {version}")
    assert not wrong, "pyproject.toml and requirements.txt disagree (run make lock): " + (
        "; ".join(wrong)
    )


def test_the_lock_holds_exactly_what_the_requirements_need() -> None:
    needed = closure(declared()) - {SELF}
    pins = set(locked())
    assert sorted(needed - pins) == [], "needed but not locked (run make lock)"
    assert sorted(pins - needed) == [], "locked but needed by nothing (run make lock)"


def test_the_venv_holds_the_locked_versions() -> None:
    installed = {}
    for name in locked():
        try:
            installed[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed[name] = "not installed"
    differ = {
        name: (version, installed[name])
        for name, version in locked().items()
        if installed[name] != version
    }
    assert differ == {}, "(locked, installed): make rebuilds .venv from the lock"


@pytest.mark.parametrize("line", ["redis==8.2.0 \\", "uvloop==0.23.0 ; sys_platform != 'win32' \\"])
def test_a_lock_entry_is_read(line: str) -> None:
    match = ENTRY.match(line)
    assert match is not None
    assert match.group(2) in {"8.2.0", "0.23.0"}
