"""Everything the services ask of Redis, one method per question or atomic step:
:class:`Store`, the concepts' classes gathered.

Each concept keeps its methods in a module of its own, as a class over
:class:`~.connection.Connection` (the client, the key names, the bound on concurrent
calls and their timing, and the transports of scripts, chosen once: :mod:`.transport`):

=================  ============================================================
:mod:`.players`    accounts, tokens, look-alike names, streak, statistics
:mod:`.follows`    the players a player follows
:mod:`.limits`     counts per client address
:mod:`.games`      a game, its log, a move's compare-and-set, lists of games
:mod:`.dailies`    the secret, the first day, each day's choice, ranked attempts
:mod:`.boards`     leaderboards
:mod:`.races`      races, their codes, leases and presence
:mod:`.challenges` challenges, and each player's own
:mod:`.watchers`   spectators of races
:mod:`.presence`   who is connected, doing what; who hides it
:mod:`.inbox`      each player's inbox, and invites counted
:mod:`.accounts`   link codes, a token replaced, an account deleted
:mod:`.ratings`    each game's ratings from races, and their board (issue 51)
:mod:`.moderation` bans, results taken off, the audit log, reports (issue 49)
=================  ============================================================

Why one class of many bases rather than a store holding one object per concept: the
services, the net, the tests and the benches call ``store.<method>(...)``, and keep
doing so; the concepts share one connection's state (its attributes are set once, by
``Connection.__init__``, and no concept class has an ``__init__`` of its own), and no
two of them define the same name (``tests/server/store/test_concepts.py``), so the
order of the bases decides nothing. Delegating instead would write every method twice.
"""

from __future__ import annotations

from .accounts import AccountStore
from .boards import BoardStore
from .challenges import ChallengeStore
from .dailies import DailyStore
from .follows import FollowStore
from .games import GameStore
from .inbox import InboxStore
from .limits import LimitStore
from .moderation import ModerationStore
from .players import PlayerStore
from .presence import PresenceStore
from .races import RaceStore
from .ratings import RatingStore
from .tournaments import TournamentStore
from .watchers import WatcherStore

#: the concepts a store gathers
CONCEPTS: tuple[type, ...] = (
    PlayerStore,
    FollowStore,
    LimitStore,
    GameStore,
    DailyStore,
    BoardStore,
    RaceStore,
    ChallengeStore,
    WatcherStore,
    PresenceStore,
    InboxStore,
    AccountStore,
    RatingStore,
    ModerationStore,
    TournamentStore,
)


class Store(
    PlayerStore,
    FollowStore,
    LimitStore,
    GameStore,
    DailyStore,
    BoardStore,
    RaceStore,
    ChallengeStore,
    WatcherStore,
    PresenceStore,
    InboxStore,
    AccountStore,
    RatingStore,
    ModerationStore,
    TournamentStore,
):
    """The Redis side of pasyans: ``Store(url, *, cluster, prefix, max_connections,
    observe, durability, wait_replicas, replica_timeout)``, as
    :class:`~.connection.Connection` takes them."""
