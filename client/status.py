"""The exit status of a command, and which failure gives which (docs/client.md,
"Commands"): 0 done, 1 the server refused something, 2 bad usage, 3 the server
cannot be reached. The command line and the app both end with these."""

from __future__ import annotations

from protocol.errors import ErrorCode

from .connection import ClientError, ServerError, ServerUnavailable, UsageError

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3


def exit_status(exc: ClientError) -> int:
    """The status a command ends with when ``exc`` stopped it: an argument the
    server finds malformed is bad usage like one the client finds."""
    if isinstance(exc, ServerUnavailable):
        return EXIT_UNREACHABLE
    if isinstance(exc, UsageError):
        return EXIT_USAGE
    if isinstance(exc, ServerError) and exc.code == ErrorCode.BAD_REQUEST:
        return EXIT_USAGE
    return EXIT_REFUSED
