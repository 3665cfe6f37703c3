"""An account the operators renamed (issue 49): ``auth`` says ``renamed_from`` once;
the token is then saved under the new name and the player told."""

from __future__ import annotations

from typing import Any

from . import config
from .lang import _


def told_renamed(server: str, creds: config.Credentials, signed: dict[str, Any]) -> str:
    """After ``auth``: when the operators renamed the account, its token is saved under
    the new name and the player told so (issue 49); else ``""``."""
    old = signed.get("renamed_from")
    if not old:
        return ""
    config.save(server, config.Credentials(str(signed["player"]), creds.token))
    config.drop(server, creds.player)
    return _(
        "the operators of {server} renamed your account from {old} to {name}",
        server=server,
        old=old,
        name=signed["player"],
    )
