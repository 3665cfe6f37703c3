"""The protocol's AsyncAPI 3 document, made from the types in ``protocol/``
(``protocol.schema.document``) and committed as ``docs/protocol.asyncapi.json``;
``tests/protocol/test_schema.py`` fails while the two differ.

    python -m tools.schema            # exit 1 (and say so) if the file is out of date
    python -m tools.schema --write    # write the file again
    python -m tools.schema --print    # the document on standard output
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from protocol.schema import document, dumps

PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.asyncapi.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.schema", description=__doc__)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help=f"write {PATH.name} again")
    what.add_argument("--print", action="store_true", help="print the document")
    args = parser.parse_args(argv)
    text = dumps(document())
    if args.print:
        sys.stdout.write(text)
        return 0
    if args.write:
        PATH.write_text(text, encoding="utf-8")
        print(f"wrote {PATH} ({len(text.splitlines())} lines)")
        return 0
    if not PATH.exists() or PATH.read_text(encoding="utf-8") != text:
        print(f"{PATH} is out of date: run python -m tools.schema --write", file=sys.stderr)
        return 1
    print(f"{PATH} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
