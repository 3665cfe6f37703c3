"""The objects replies and events carry, as types: a game's state and its piles, a
move, a game's summary, a race, a challenge, a replay, a leaderboard's entry.

They are the contract (docs/protocol.md; the AsyncAPI document ``protocol.schema``
makes from them), not what the server builds: the services assemble plain dicts on
their hot path, and the suite checks every frame against the schema. A ``TypedDict``
key marked ``NotRequired`` may be left out; ``X | None`` may be null. A field's
``Annotated`` strings are its description, :class:`~protocol.checks.Shape` its other
JSON Schema keywords.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from .cards import RANKS, SUITS
from .checks import DATE_SCHEMA, ID_RE, MAX_SEED, MAX_SEQ, SLUG_RE, Shape, pattern
from .ops import Activity, DayStatus, InboxKind, Mode, TournamentStatus
from .status import GameStatus, Out, RaceStatus

# -- the words of fields ---------------------------------------------------------------

Count = Annotated[int, Shape(minimum=0)]
Ms = Annotated[int, Shape(minimum=0), "ms since the epoch (UTC): a msgpack uint64"]
Duration = Annotated[int, Shape(minimum=0), "milliseconds"]
Seq = Annotated[int, Shape(minimum=0, maximum=MAX_SEQ), "the game's change counter"]
Seed = Annotated[
    int,
    Shape(minimum=0, maximum=MAX_SEED),
    "a deal's seed: a msgpack uint64, often above 2^53 (decode as a BigInt in JavaScript)",
]
Slug = Annotated[str, Shape(pattern=pattern(SLUG_RE)), "a game's slug, as `games` lists it"]
Id = Annotated[str, Shape(pattern=pattern(ID_RE)), "an id the server made"]
Day = Annotated[str, Shape(**DATE_SCHEMA), "a UTC day, YYYY-MM-DD"]
Player = Annotated[str, "a player's name as registered"]
Card = Annotated[
    str | None,
    Shape(pattern=f"^[{RANKS}][{SUITS}]$"),
    "a face-up card (rank A23456789TJQK, suit SHDC: `TD` is the ten of diamonds), or "
    "null for a face-down one",
]
PileKind = Literal["foundation", "tableau", "stock", "waste", "reserve", "cell", "grid", "discard"]
Fan = Literal["none", "down", "right"]
Orient = Literal["v", "h"]

# -- moves -----------------------------------------------------------------------------

CardMove = TypedDict(
    "CardMove",
    {
        "from": Annotated[str, "the source pile's id"],
        "to": Annotated[str, "the destination pile's id"],
        "index": NotRequired[Annotated[int, "which card of the source pile (from the bottom)"]],
    },
)


class Action(TypedDict):
    """A move that is no card's: ``{"action": "deal"}``, ``{"action": "shift"}``, …
    (a game's actions may carry parameters besides ``action``)."""

    action: str


#: values of a map's keys beyond those its type names (see ``OPEN``)
PARAM: dict[str, Any] = {"type": ["string", "integer", "null"]}
#: the TypedDicts whose maps may hold keys beyond those they name, with their values'
#: schema: an action's parameters
OPEN: dict[type, dict[str, Any]] = {Action: PARAM}

Move = Annotated[
    CardMove | Action,
    "a move as the state's `legal` lists it: send it back exactly so with `move`",
]

# -- a game ----------------------------------------------------------------------------


class Pile(TypedDict):
    """A pile of the view, in the game's layout."""

    id: Annotated[str, "the pile's id: moves name it (`T1`, `FA-S`, `G07`, …)"]
    kind: Annotated[PileKind, "what the pile is for (a client may draw kinds apart)"]
    label: Annotated[str, "a short caption to show by the pile (may be empty)"]
    name: Annotated[
        str,
        "what players call the pile: a key of the catalogues (`pile.column`, `pile.hand`; "
        "docs/i18n.md), said with `n`, and in a move from (`pile.column.from`) and to "
        "(`pile.column.to`) it",
    ]
    n: NotRequired[Annotated[int, Shape(minimum=1), "the pile's number in its name"]]
    cards: Annotated[list[Card], "bottom first; null is a face-down card"]
    x: Annotated[int, "the pile's column in the layout's grid of cells"]
    y: Annotated[int, "the pile's row in the layout's grid of cells"]
    fan: Annotated[
        Fan,
        "how to draw the cards: `none` squared (one on another, the top showing), "
        "`down` overlapping downwards, `right` overlapping to the right",
    ]
    orient: NotRequired[
        Annotated[Orient, "a grid cell's card: `v` upright, `h` across (Carpet-like grids)"]
    ]
    base: NotRequired[
        Annotated[
            str,
            "what a foundation builds from, once its player knows: a card code (`7S`), a "
            "rank (`7`) or words (`up in suit to K`), by game",
        ]
    ]


class View(TypedDict):
    """What the player sees of the game."""

    piles: list[Pile]
    info: Annotated[
        dict[str, Any],
        "the game's own counters, each game its keys (`shifts_left`, `redeals_left`, …)",
    ]


class Deal(TypedDict):
    seed: Annotated[Seed | None, "null while the seed is hidden (see docs, Fair play)"]
    commitment: Annotated[
        str | None,
        "of a daily: sha256(seed as 8 big-endian bytes ‖ 'YYYY-MM-DD:slug') in hex",
    ]


class _Game(TypedDict):
    """What every state object says (see ``State`` and ``SpectatorState``)."""

    game: Slug
    mode: Mode
    seq: Annotated[Seq, "send it back with the next move, undo, auto or finish"]
    status: GameStatus
    moves: Annotated[Count, "moves played, undos included"]
    time_ms: Annotated[Duration, "the player's active time (pauses count at most --idle-gap)"]
    idle_left_ms: Annotated[
        Duration, "how long the clock runs on from time_ms with no change (0 once over)"
    ]
    foundation: Annotated[Count, "cards on the foundations"]
    total: Annotated[Count, "the cards a win founds"]
    deal: Deal
    clean: Annotated[bool, "false once undo was used"]
    assisted: Annotated[bool, "the solver helped (a hint, an assisted finish): ranks nowhere"]
    hints: Annotated[bool, "whether `hint` (and a searched `finish`) is offered now"]
    date: Annotated[Day | None, "the daily's day, or null"]
    auto_completed: NotRequired[Annotated[Literal[True], "only when `finish` played the rest"]]
    out: NotRequired[Annotated[Out, "only when set: why a lost game ended otherwise"]]


class State(_Game):
    """The state object: a game as its player sees it."""

    game_id: Id
    view: View
    legal: Annotated[list[Move], "exactly the moves `move` accepts now; empty once over"]
    ranked: Annotated[bool, "the daily attempt that counts on the boards"]


class SpectatorState(_Game):
    """A race member's game as a spectator sees it: no game id, legal moves or
    ranking, ``deal.seed`` null, and ``view`` null until the race is finished."""

    view: View | None


class Delta(TypedDict):
    """What a move, undo, auto or finish changed (``"reply": "delta"``): apply it to
    the state held (``protocol.delta.apply_delta``)."""

    game_id: Id
    seq: Seq
    status: GameStatus
    moves: Count
    time_ms: Duration
    idle_left_ms: Duration
    foundation: Count
    clean: bool
    legal: Annotated[list[Move], "the full list, as in the state"]
    piles: Annotated[
        dict[str, list[Card]], "pile id → its new cards, for each pile whose cards changed"
    ]
    info: Annotated[dict[str, Any], "the keys of `view.info` that changed; null: gone"]
    pile_meta: NotRequired[
        Annotated[dict[str, Pile], "pile id → the whole pile, when more than its cards changed"]
    ]
    from_seq: NotRequired[
        Annotated[Seq, "of `auto` and `finish`: the seq it follows (several moves back)"]
    ]


class Summary(TypedDict):
    """A game in a list (``my_games``, a daily's ``mine``, a friend's day)."""

    game_id: Id
    game: Slug
    mode: Mode
    status: GameStatus
    seq: Seq
    moves: Count
    foundation: Count
    total: Count
    created: Ms
    updated: Ms
    date: Day | None
    ranked: bool
    clean: bool
    auto_completed: bool
    assisted: bool
    out: Out | None
    time_ms: Duration


class Playing(TypedDict):
    """A followed player's daily still in play: only that it is."""

    status: Literal["playing"]


# -- dailies and boards ----------------------------------------------------------------


class Progress(TypedDict):
    """A daily's certification under way."""

    tried: Annotated[Count, "candidate deals searched so far"]
    elapsed_ms: Annotated[Duration, "since the scan began"]
    estimate_ms: Annotated[Duration | None, "the rest at the pace so far; null at first"]


Difficulty = Annotated[int, Shape(minimum=1, maximum=3)]
Url = Annotated[str, "a full URL opening the web client on it (the deployment's --public-url)"]


class Daily(TypedDict):
    """A day's daily of one game, decided."""

    commitment: str
    par: Annotated[Count | None, "the shortest winning line's moves; null if not certified"]
    certified: Annotated[bool, "a winning line was found and replayed through the rules"]
    best_founded: Annotated[Count, "the cards the best line found founds"]
    total: Count
    label: Annotated[
        str | None, "null, or 'not proven winnable (best line founds N of M)': show it"
    ]
    seed: Annotated[Seed | None, "once the day is over"]
    mine: Annotated[
        Summary | None,
        "your first daily game of the day and game (the ranked attempt, unless a hint or "
        "an assisted finish unranked it: see its `ranked` and `assisted`), or null",
    ]
    difficulty: Annotated[
        Difficulty | None,
        "1 (easy) to 3 (hard), from what the solver learned certifying it; null if unknown",
    ]
    k: NotRequired[Annotated[Count, "once the day is over: the candidate number"]]
    line: NotRequired[Annotated[list[Move], "once the day is over: the par line"]]


class DailyPreparing(TypedDict):
    """A day's daily of one game still being certified: ask again in a few seconds."""

    preparing: Progress
    commitment: None
    par: None
    certified: None
    best_founded: None
    seed: None
    label: None
    total: Count
    mine: Summary | None


class Entry(TypedDict):
    """A leaderboard's row."""

    rank: Annotated[int, Shape(minimum=1), "1 + the entries ranked strictly before"]
    player: Player
    won: bool
    foundation: Count
    moves: Count
    time_ms: Duration
    clean: bool
    resigned: Annotated[bool, "the loss was given up rather than ended with no move left"]
    finished: Ms


# -- races -----------------------------------------------------------------------------


class RaceRow(TypedDict):
    """A race's member."""

    player: Player
    status: Literal["ready"] | GameStatus
    foundation: Count
    total: Count
    moves: Count
    time_ms: Duration
    place: Annotated[int | None, Shape(minimum=1), "1 for the first to win; null otherwise"]
    away: Annotated[bool, "not seen connected for over `away_after_ms` (false once finished)"]
    away_ms: Annotated[Duration, "how long away, at the time of the event; 0 when here"]
    out: Out | None
    rating: Annotated[
        Rating | None,
        "your rating at the game after this race, once it is over and rated (a fresh deal: "
        "not a chosen seed, not a daily); else null",
    ]
    rating_change: Annotated[
        int | None,
        "how much this race moved `rating.value`; null when it did not count for you "
        '(docs/protocol.md, "Fair play")',
    ]
    left: NotRequired[
        Annotated[bool, 'the member deleted their account (`player` is ""): "a player who left"']
    ]


RaceCode = Annotated[str, Shape(pattern="^[A-HJ-NP-Z2-9]{6}$"), "a race's join code"]


class Rematch(TypedDict):
    race_id: Id
    code: str


class Race(TypedDict):
    """The race object (and the ``race`` event's fields)."""

    race_id: Id
    code: Annotated[
        str,
        Shape(pattern="^[A-HJ-NP-Z2-9]{6}$"),
        "6 of A-Z and 2-9 without I, O, 0 and 1; `race_join` takes it in any case",
    ]
    game: Slug
    status: RaceStatus
    starts_at: Annotated[Ms | None, "the deal's time, once counting down"]
    players: Annotated[
        list[RaceRow],
        "the winners first by place, then the others by more cards founded; ties by "
        "name, in code-point order",
    ]
    creator: Player
    rematch: Rematch | None
    date: Annotated[Day | None, "the daily's day, for a race on a daily deal"]
    seed_chosen: Annotated[bool, "the creator chose the seed"]
    away_after_ms: Duration
    absent_limit_ms: Duration
    watchers: Annotated[Count, "spectators watching now"]
    url: Url


class MemberBoard(TypedDict):
    """A member's board, to a spectator."""

    race_id: Id
    player: Player
    state: SpectatorState


# -- challenges ------------------------------------------------------------------------

ChallengeCode = Annotated[
    str,
    Shape(pattern="^[A-HJ-NP-Z][A-HJ-NP-Z2-9]{7}$"),
    "8 of A-Z and 2-9 without I, O, 0 and 1, a letter first; read in any case",
]


class Result(TypedDict):
    """A challenge's result."""

    player: Player
    status: GameStatus
    won: bool
    foundation: Count
    total: Count
    moves: Count
    time_ms: Duration
    clean: bool
    assisted: bool
    auto_completed: bool
    out: Out | None
    finished: Ms
    rank: Annotated[int | None, Shape(minimum=1), "null: it ranks apart (seed_known)"]
    mark: NotRequired[Annotated[bool, "the creator's result the challenge was made from"]]
    seed_known: NotRequired[Annotated[bool, "its player could see the seed"]]


class _ChallengeHead(TypedDict):
    """What a challenge and its row in ``challenges`` both say."""

    code: ChallengeCode
    link: Annotated[str, "`#challenge/CODE`: what a web client opens"]
    url: Url
    game: Slug
    creator: Player
    created: Ms
    expires: Ms
    opens: Annotated[Ms | None, "a challenge of today's daily: when it opens; else null"]
    closed: Annotated[bool, "expired, or closed by its creator"]
    seed_known: Annotated[bool, "its creator could see the seed before playing"]
    seed_public: Annotated[bool, "others may have seen the seed"]
    played: Annotated[bool, "you have a result"]
    game_id: Annotated[Id | None, "your game on it, once accepted"]
    unread: Annotated[Count, "others' results you have not seen (`challenge` reads them)"]


class Challenge(_ChallengeHead):
    """The challenge object."""

    seed_chosen: Annotated[bool, "a player chose the seed"]
    seed: Annotated[Seed | None, "once closed, or to a creator who knows it anyway"]
    mark: Annotated[bool, "the creator's result is among the results"]
    results: Annotated[list[Result], "ranked first, by rank; then those ranked apart"]
    playing: Annotated[list[Player], "who accepted and is still playing"]


class ChallengeRow(_ChallengeHead):
    """A challenge in ``challenges``: its results counted, not listed."""

    expired: bool
    results: Annotated[Count, "how many results it has (the list is in `challenge`)"]
    leader: Annotated[Player | None, "the first ranked"]


# -- replays and statistics ------------------------------------------------------------


class Replay(TypedDict):
    """A finished game, or a past daily's par line (``mode: "par"``)."""

    game_id: Id | None
    game: Slug
    player: Player | None
    mode: Mode | Literal["par"]
    date: Day | None
    race_id: Id | None
    status: GameStatus
    seed: Seed | None
    commitment: str | None
    line: Annotated[list[Move], "the moves in force, in order (what undo took back left out)"]
    moves: Count
    foundation: Count
    total: Count
    time_ms: Duration | None
    created: Ms | None
    finished: Ms | None
    clean: bool
    auto_completed: bool
    assisted: bool
    out: Out | None
    par: NotRequired[Annotated[Count, "par lines only"]]


class Position(TypedDict):
    """The position after ``step`` moves of a replay."""

    step: Count
    view: View
    foundation: Count
    total: Count
    status: GameStatus
    move: Annotated[Move | None, "the move that led here (null at step 0)"]


class Rating(TypedDict):
    """A player's rating at one game, from rated races (docs/protocol.md, "Ratings")."""

    value: Annotated[int, "what to show: 1500 + 40 × (mu − 3·sigma), openskill's ordinal"]
    uncertainty: Annotated[Count, "40 × sigma: how unsure the rating still is"]
    races: Annotated[Count, "rated races played at the game"]
    provisional: Annotated[bool, 'fewer than 5 rated races: shown with "?"']


class RatingEntry(TypedDict):
    """A row of a game's rating board."""

    rank: Annotated[int, Shape(minimum=1), "1 for the highest rating"]
    player: Player
    rating: Rating


class Block(TypedDict):
    """Statistics of one game, or of all."""

    played: Count
    won: Count
    win_pct: Annotated[float | None, "null before the first game"]
    best_moves: Annotated[Count | None, "of a win"]
    best_time_ms: Annotated[Duration | None, "of a win"]
    founded_avg: Annotated[float | None, "cards founded a game"]
    daily_played: Annotated[Count, "ranked dailies"]
    daily_won: Count
    streak: Count
    best_streak: Count


class DayCount(TypedDict):
    date: Day
    won: Count
    lost: Count


# -- the rest --------------------------------------------------------------------------


class Limits(TypedDict):
    """The connection's request budget."""

    rate: Annotated[float, "requests a second (a float)"]
    burst: Annotated[int, "requests at once (an int)"]


class LayoutCell(TypedDict):
    """Where a pile of a game lies on its table (as a view's pile has it): no card."""

    x: Annotated[int, Shape(minimum=0)]
    y: Annotated[int, Shape(minimum=0)]
    kind: PileKind
    fan: Fan


class GameInfo(TypedDict):
    """A game of the catalogue."""

    slug: Slug
    title_en: str
    title_ru: str
    decks: Annotated[int, Shape(minimum=1)]
    summary: str
    layout: Annotated[
        list[LayoutCell], "its piles' places, in the view's order (a picture of the game)"
    ]


class FriendDay(TypedDict):
    """A followed player and their games on today's dailies."""

    player: Player
    today: Annotated[dict[str, Summary | Playing], "slug → the game (in play: only that)"]
    online: Annotated[bool, "connected now, to any instance (false when they hide it)"]
    activity: Annotated[Activity | None, "what they are doing, when online; else null"]
    race: Annotated[
        RaceCode | None, "racing in a lobby open to join: its code (race_join); else null"
    ]
    ratings: Annotated[dict[str, Rating], "slug → their rating, at the games they have one"]


class InboxRace(TypedDict):
    code: RaceCode
    url: Url


class InboxChallenge(TypedDict):
    code: ChallengeCode
    url: Url


class InboxTournament(TypedDict):
    code: Annotated[str, "the tournament's code (`tournament_join`, `tournament`)"]
    url: Url
    place: Annotated[
        int | None, Shape(minimum=1), "`tournament_result`: your final place; else null"
    ]
    entrants: Annotated[Count | None, "`tournament_result`: how many entrants; else null"]


class InboxItem(TypedDict):
    """An item of the inbox (and the ``invited`` event's ``item``)."""

    id: Id
    kind: Annotated[
        InboxKind,
        "`invite` (a race, a challenge or a tournament sent to you), `challenge_result` "
        "(someone finished your challenge), `daily_beaten` (someone you follow beat your "
        "daily), `rematch` (a race you were in has a rematch), `tournament_result` (a "
        "tournament you played is over: your place)",
    ]
    sender: Annotated[Player, "who sent it, finished it, beat you or asked the rematch"]
    at: Ms
    read: bool
    game: Slug
    date: Annotated[Day | None, "`daily_beaten`: the day"]
    race: Annotated[InboxRace | None, "an invite to a race, a rematch"]
    challenge: Annotated[InboxChallenge | None, "an invite to a challenge, its result"]
    tournament: NotRequired[
        Annotated[
            InboxTournament,
            "an invite to a tournament, or your result in one (`tournament_result`): "
            "present only on those",
        ]
    ]


class CalendarDay(TypedDict):
    """A day of the month for one game."""

    date: Day
    status: Annotated[DayStatus, "your ranked attempt: won, lost, assisted, playing, not_played"]
    par: Annotated[Count | None, "null if not certified, or not chosen yet"]
    difficulty: Difficulty | None
    playable: Annotated[
        bool, "a past day's deal you may play now (`start` daily with `date`: unranked)"
    ]


class CalendarCount(TypedDict):
    """A day of the month across games."""

    date: Day
    won: Annotated[Count, "games whose daily you won that day"]
    played: Annotated[Count, "games whose daily you finished that day"]


# -- tournaments (issue 51) ------------------------------------------------------------

TournamentCode = Annotated[
    str,
    Shape(pattern="^[A-HJ-NP-Z2-9]{7}$"),
    "7 of A-Z and 2-9 without I, O, 0 and 1; read in any case",
]


class Standing(TypedDict):
    """An entrant's row of a tournament's standings."""

    rank: Annotated[int, Shape(minimum=1), "1 + the entrants strictly ahead"]
    player: Player
    points: Annotated[Count, 'by the scoring rules (docs/protocol.md, "Tournaments")']
    won: Annotated[Count, "deals won"]
    played: Annotated[Count, "deals over (won, lost or given up)"]
    founded: Annotated[Count, "cards founded over the deals over: the first tie-break"]
    streak: Annotated[Count, "wins in a row now (from the 3rd a win counts double)"]
    playing: Annotated[bool, "a deal of theirs is in play now"]
    left: Annotated[bool, "left the running tournament (`tournament_leave`)"]


class _TournamentHead(TypedDict):
    """What a tournament and its row in the lobby both say."""

    tournament_id: Id
    code: TournamentCode
    game: Slug
    status: TournamentStatus
    starts_at: Ms
    ends_at: Annotated[Ms, "`starts_at` + `minutes`: no deal is dealt after it"]
    minutes: Annotated[int, Shape(minimum=1)]
    entrants: Annotated[Count, "players who joined (those who left before the start not)"]
    creator: Annotated[Player | None, "null for a scheduled public tournament"]
    public: Annotated[bool, "scheduled by the server, listed to everyone"]
    joined: Annotated[bool, "you are an entrant"]
    url: Url


class TournamentRow(_TournamentHead):
    """A tournament in the lobby (``tournaments``)."""

    invited: Annotated[bool, "a player sent you it (`invite`)"]
    place: Annotated[int | None, Shape(minimum=1), "your final rank once finished; else null"]
    leader: Annotated[Player | None, "the first of the standings once any deal is over"]


class Tournament(_TournamentHead):
    """The tournament object (``tournament``, ``tournament_create``, ``tournament_join``,
    ``tournament_watch``, and the ``tournament`` event's fields)."""

    deals: Annotated[Count, "deals in the sequence: each certified winnable before the start"]
    ready: Annotated[bool, "every deal is certified (else the server is still choosing them)"]
    commitment: Annotated[
        str, "sha256 of the sequence's secret, shown from creation: its `seed` proves it"
    ]
    seed: Annotated[
        Seed | None,
        "the sequence's secret once the tournament is finished (null before): "
        "sha256(seed as 8 big-endian bytes ‖ 'tournament:ID:slug') is `commitment`",
    ]
    seeds: Annotated[
        list[Seed] | None, "once finished: each deal's seed, in order (deal 1 first); else null"
    ]
    standings: Annotated[
        list[Standing],
        "the first rows (at most 20), by points, then cards founded, then name in code-point order",
    ]
    me: Annotated[Standing | None, "your own row (null: not an entrant)"]
    deal: Annotated[
        Count, "your deal now: 0 before your first, k while deal k is in play or after it"
    ]
    watchers: Annotated[Count, "connections watching it (`tournament_watch`)"]
