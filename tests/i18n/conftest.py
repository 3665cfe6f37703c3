"""Fixtures of the catalogue tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools import i18n


@pytest.fixture(scope="module")
def extracted_once() -> Iterator[None]:
    """The sources' messages extracted once for a module's tests (a CPU second each
    time: Babel reads every source; issue 45). A module asks for it with
    ``pytestmark = pytest.mark.usefixtures("extracted_once")``."""
    found = list(i18n.extracted())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "extracted", lambda: iter(found))
        yield
