"""Real states built from the rules engine, without a server (tests may import it)."""

from __future__ import annotations

from typing import Any

from server.patience import registry


def engine_state(slug: str, seed: int = 0, mode: str = "deal") -> dict[str, Any]:
    """A state object (docs/protocol.md) for ``seed`` of ``slug``, as the server would send."""
    game = registry.get(slug)
    state = game.deal(seed)
    found, total = game.score(state)
    return {
        "game_id": f"local-{slug}-{seed}",
        "game": slug,
        "mode": mode,
        "seq": 0,
        "status": game.status(state),
        "moves": state.moves,
        "time_ms": 0,
        "foundation": found,
        "total": total,
        "deal": {"seed": seed, "commitment": None},
        "view": game.view(state),
        "legal": [m.to_wire() for m in game.legal_moves(state)],
    }


def titles() -> dict[str, dict[str, Any]]:
    return {
        g.slug: {"slug": g.slug, "title_en": g.title_en, "title_ru": g.title_ru}
        for g in registry.games()
    }
