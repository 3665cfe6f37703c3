"""The package as users install it (``pip install .``, not editable) carries what the
server needs outside the repository: every package, the Lua scripts, the rules page
of every game (served by the ``rules`` op from ``server.rules``) and every file of the
web client (``web/``, served from ``server.web``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from server.net.static import FILES
from server.patience import registry

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_every_package_and_every_rules_page(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "data"
        ),
    )
    # built by the locked setuptools in .venv (no isolated build fetching the newest)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("pasyans-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for slug in registry.slugs():
        assert f"server/rules/{slug}.md" in names, slug
    for name in set(FILES.values()) | {"vendor/README"}:  # the web client (web/)
        assert f"server/web/{name}" in names, name
    packages = {
        str(p.parent.relative_to(ROOT))
        for top in ("server", "client", "protocol")
        for p in (ROOT / top).rglob("__init__.py")
    }
    for package in packages:
        assert f"{package}/__init__.py" in names, package
    assert any(n.startswith("server/store/") and n.endswith(".lua") for n in names) or not list(
        (ROOT / "server" / "store").glob("*.lua")
    )
