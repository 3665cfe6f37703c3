"""Every Redis key and pub/sub channel name, built in one place.

Keys carry hash tags (the part in braces) so that all keys of one game, one player
or one leaderboard land in the same Redis Cluster slot, and a Lua script touching
them runs on one node. An optional prefix (tests, several deployments on one Redis)
goes before everything.
"""

from __future__ import annotations


class Keys:
    """Key builder: ``Keys("t1:").game("abc") == "t1:g:{abc}"``."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix

    def __repr__(self) -> str:
        return f"Keys({self.prefix!r})"

    # players
    def player(self, name: str) -> str:
        """hash: name, token (sha256 hex), created, streak, streak_day."""
        return f"{self.prefix}pl:{{{name.casefold()}}}"

    def player_games(self, name: str) -> str:
        """zset: game id by creation time (ms)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:games"

    def player_in_play(self, name: str) -> str:
        """zset: the player's newest practice and deal games, by creation time (ms);
        only these may be in play (``Settings.max_in_play``)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:inplay"

    def player_races(self, name: str) -> str:
        """zset: the newest races the player created, by creation time (ms); an older
        one still in its lobby with nobody else in it is deleted (``Settings.race_lobbies``)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:races"

    def player_dailies(self, name: str) -> str:
        """hash: ``{date}:{slug}`` → id of the player's ranked daily game."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:daily"

    def player_stats(self, name: str) -> str:
        """hash: the player's counters, written once per finished game (``STATS``):
        ``{counter}:{slug}`` and ``{counter}:all``, ``day:{date}:won|lost``."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:stats"

    def player_counted(self, name: str) -> str:
        """set: ids of the player's games already in :meth:`player_stats`."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:counted"

    def player_follows(self, name: str) -> str:
        """set: the names of the players ``name`` follows (friends, one-way)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:follows"

    def player_followers(self, name: str) -> str:
        """Set: the names following the player (the other side of ``:follows``)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:followers"

    def player_blocks(self, name: str) -> str:
        """Set: the names (casefolded) the player blocks."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:blocks"

    def player_presence(self, name: str) -> str:
        """Hash: instance → ``expires_ms|activity|race_id`` while the player is
        connected there (expires unless refreshed)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:presence"

    def player_inbox(self, name: str) -> str:
        """List: the player's inbox items (packed), newest first, at most 100."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:inbox"

    def player_inbox_apart(self, name: str) -> str:
        """List: the player's inbox items from players they do not follow (packed,
        newest first, at most 50): kept apart, so that they never push out an item
        from a player they follow."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:inbox:apart"

    def player_inbox_read(self, name: str) -> str:
        """Set: the ids of the inbox items the player read."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:inbox:read"

    def player_invites(self, name: str, window: int) -> str:
        """String (TTL): invites the player sent in the hour ``window``."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:invites:{window}"

    def look_alike(self, key: str) -> str:
        """string: the registered name whose look-alike key
        (``server.services.names.look_alike_key``) is ``key``: a new name with the same
        key is refused, in one lookup."""
        return f"{self.prefix}alike:{{{key}}}"

    def look_alikes_backfilled(self) -> str:
        """string, set once: every player registered before the look-alike check has
        its :meth:`look_alike` key (``Accounts.backfill``)."""
        return f"{self.prefix}alike-backfilled"

    def token(self, digest: str) -> str:
        """string: player name of a token's sha256 hex digest."""
        return f"{self.prefix}tok:{{{digest}}}"

    # accounts that last (issue 49): link codes, held names, costly exports
    def link_code(self, code: str) -> str:
        """string (TTL): the player a link code signs in (``link``), until used."""
        return f"{self.prefix}link:{{{code}}}"

    def player_link(self, name: str) -> str:
        """string (TTL): the player's one live link code (a new one replaces it)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:link"

    def player_devices(self, name: str) -> str:
        """set: the token digests of the devices linked by a code (``link``); each
        signs in as the account's own token does, until ``token_rotate``."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:devices"

    def held_name(self, name: str) -> str:
        """string (TTL): a name whose player left, held back from registration."""
        return f"{self.prefix}held:{{{name.casefold()}}}"

    def player_exports(self, name: str, window: int) -> str:
        """string (TTL): exports the player asked for in window ``window``."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:exports:{window}"

    # limits per client address
    def address_count(self, address: str, kind: str, window: int) -> str:
        """string (a count, expiring with its window): what ``address`` did of
        ``kind`` in window number ``window`` (``server.services.limits``)."""
        return f"{self.prefix}addr:{{{address}}}:{kind}:{window}"

    # games
    def game(self, gid: str) -> str:
        """hash: slug, seed, player, mode, seq, status, state, timestamps, score …"""
        return f"{self.prefix}g:{{{gid}}}"

    def game_log(self, gid: str) -> str:
        """list: every accepted move (msgpack wire form), undo and resign markers."""
        return f"{self.prefix}g:{{{gid}}}:log"

    def game_packed(self, gid: str) -> str:
        """string: a finished game's final state and log, packed
        (:mod:`server.store.packing`); its hash then holds neither."""
        return f"{self.prefix}g:{{{gid}}}:packed"

    def practice_done(self) -> str:
        """zset: finished practice games not yet summarised, by when they ended (ms):
        the retention sweep's list (``services/compaction.py``)."""
        return f"{self.prefix}practice-done"

    # dailies and leaderboards
    def deployment(self) -> str:
        """string: the deployment's id, made once: every instance (and the load
        balancer) of one deployment answers with it, so a client keys accounts by it."""
        return f"{self.prefix}deployment"

    def secret(self) -> str:
        """string: the server secret the daily seeds derive from."""
        return f"{self.prefix}secret"

    def first_day(self) -> str:
        """string: the first day (``YYYY-MM-DD``) with dailies: the day this Redis was
        first used, or, for a deployment older than this key, its earliest daily."""
        return f"{self.prefix}first_day"

    def daily(self, date: str) -> str:
        """hash, per slug: ``seed:``, ``commitment:``, ``k:``, ``certified:``, ``par:``,
        ``best_founded:``, ``line:`` (the par line, msgpack), ``tried:``, ``nodes:``, and
        while it is chosen ``progress:`` (``{tried}:{started epoch ms}:{nodes
        spent}:{nodes expected}``) — each
        ``{field}:{slug}``."""
        return f"{self.prefix}daily:{{{date}}}"

    def daily_lease(self, date: str, slug: str) -> str:
        """string: the instance choosing that daily now (expires by itself)."""
        return f"{self.prefix}daily:{{{date}}}:lease:{slug}"

    def board(self, slug: str, period: str) -> str:
        """zset (all scores 0, ordered by member): entries of ``period`` (a date or
        ``all``)."""
        return f"{self.prefix}lb:{{{slug}}}:{period}"

    def board_players(self, slug: str, period: str) -> str:
        """hash: player → their member in :meth:`board`."""
        return f"{self.prefix}lb:{{{slug}}}:{period}:who"

    # races
    def race(self, rid: str) -> str:
        """hash: game, seed, code, creator, status, starts_at, created, placed."""
        return f"{self.prefix}race:{{{rid}}}"

    def race_players(self, rid: str) -> str:
        """set: the members' names."""
        return f"{self.prefix}race:{{{rid}}}:players"

    def race_games(self, rid: str) -> str:
        """hash: member → their game id once the race runs."""
        return f"{self.prefix}race:{{{rid}}}:games"

    def race_places(self, rid: str) -> str:
        """hash: member → finishing place (winners only, in order)."""
        return f"{self.prefix}race:{{{rid}}}:places"

    def race_dealer(self, rid: str) -> str:
        """string with a time to live: held by the instance dealing the race."""
        return f"{self.prefix}race:{{{rid}}}:dealer"

    def race_seen(self, rid: str) -> str:
        """hash: member → when an instance last saw them connected (ms since the
        epoch), for presence (``away``)."""
        return f"{self.prefix}race:{{{rid}}}:seen"

    def race_watch(self, rid: str) -> str:
        """string with a time to live: held by the instance checking the race's
        presence this beat."""
        return f"{self.prefix}race:{{{rid}}}:watch"

    def race_code(self, code: str) -> str:
        """string: race id of a join code."""
        return f"{self.prefix}racecode:{{{code.upper()}}}"

    def race_channel(self, rid: str) -> str:
        """pub/sub channel carrying a race's events across server instances (sharded
        on a Redis Cluster of Redis 7: ``store/channels.py``)."""
        return f"{self.prefix}ch:race:{rid}"

    def race_channels(self) -> str:
        """pattern matching every race channel (what each instance subscribes to
        under classic pub/sub)."""
        return f"{self.prefix}ch:race:*"

    # challenges (all of one challenge in its code's slot)
    def challenge(self, code: str) -> str:
        """hash: game, seed, creator, created, expires (ms), chosen, source (the game
        id the mark comes from, or "")."""
        return f"{self.prefix}chal:{{{code.upper()}}}"

    def challenge_games(self, code: str) -> str:
        """hash: player → their game id on the challenge's deal (one each)."""
        return f"{self.prefix}chal:{{{code.upper()}}}:games"

    def challenge_results(self, code: str) -> str:
        """hash: player → their result (msgpack), the creator's mark included."""
        return f"{self.prefix}chal:{{{code.upper()}}}:results"

    def player_challenges(self, name: str) -> str:
        """zset: codes of the challenges the player created or accepted, by when (ms)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:chal"

    def player_open_challenges(self, name: str) -> str:
        """zset: codes of the challenges the player created, by when they expire (ms):
        those not expired are the player's open ones (``challenge_open`` at most)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:chal:open"

    def player_challenges_seen(self, name: str) -> str:
        """hash: code → how many others' results the player has seen on it."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:chal:seen"

    # spectators of races
    def race_spectators(self, rid: str) -> str:
        """set: everyone who watched the race (never a member of it)."""
        return f"{self.prefix}race:{{{rid}}}:spectators"

    def race_watchers(self, rid: str) -> str:
        """hash: spectator → when a server last saw them watching (ms)."""
        return f"{self.prefix}race:{{{rid}}}:watchers"

    def watch_channel(self, rid: str) -> str:
        """pub/sub channel of a race's members' boards, for its spectators."""
        return f"{self.prefix}ch:watch:{rid}"

    def player_channel(self, name: str) -> str:
        """pub/sub channel of one player's news (a game of theirs written on another
        instance, an invite, a challenge result, a sign-out), subscribed where they
        are connected; the name casefolded."""
        return f"{self.player_channels_prefix()}{name.casefold()}"

    def player_channels_prefix(self) -> str:
        return f"{self.prefix}ch:pl:"

    def watch_channels(self) -> str:
        """pattern matching every watch channel."""
        return f"{self.prefix}ch:watch:*"

    # ratings (issue 51): one hash tag per game, so a race's update is one script
    def ratings(self, slug: str) -> str:
        """hash: player (casefolded) → ``mu|sigma|races`` of their rating at the game."""
        return f"{self.prefix}rt:{{{slug}}}"

    def rating_board(self, slug: str) -> str:
        """zset: registered name → displayed rating, of the players past provisional."""
        return f"{self.prefix}rt:{{{slug}}}:board"

    def rating_race(self, slug: str, rid: str) -> str:
        """string with a time to live: a race's rating outcome (JSON), written in the
        same step as the ratings it moved, so a race is rated once."""
        return f"{self.prefix}rt:{{{slug}}}:race:{rid}"

    # operators (issue 49: ``pasyans-server admin``, reports)
    def audit(self) -> str:
        """stream: every operator's action (``admin log``), at most ``AUDIT_MAX``."""
        return f"{self.prefix}audit"

    def banned_results(self, name: str) -> str:
        """hash: ``{slug}|{period}`` → the member a ban took off that board (put
        back by ``unban``)."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:banned"

    def ban_channel(self) -> str:
        """pub/sub: a player banned (every instance closes their connections)."""
        return f"{self.prefix}ch:ban"

    def reports(self) -> str:
        """stream: players' reports of other players, newest last (``admin reports``)."""
        return f"{self.prefix}reports"

    def player_reports(self, name: str, window: int) -> str:
        """string (TTL): reports the player sent in the hour ``window``."""
        return f"{self.prefix}pl:{{{name.casefold()}}}:reports:{window}"
