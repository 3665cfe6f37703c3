"""The Textual screens. They ask the app only for what :class:`client.host.Host`
offers, and import each other one way: ``base`` and ``dialogs`` ← ``leaderboard``
← ``board`` ← ``race``; ``race_dialogs``, ``leaderboard`` ← ``home``."""
