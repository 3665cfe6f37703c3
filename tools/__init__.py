"""Developer tools run as modules (``python -m tools.NAME``); not part of the package."""
