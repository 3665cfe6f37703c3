"""``python -m bench.load_server`` (bench/load_server/__init__.py says what it measures)."""

from .cli import main

main()
