// Every word the page shows: `W` (grouped by screen) and the few functions that write
// cards, moves, clocks and results as the terminal client does (client/text.py,
// protocol/i18n.py). Each is a catalogue message (i18n.mjs: `_`, `ngettext`), said in
// the page's language when this module loads (the catalogue is here by then) or, for a
// function, when it is called; English is the message id (docs/i18n.md).

import { _, date, moment, move as sayMove, N_, ngettext, number, pile as pileName, say } from "./i18n.mjs";
import { challengeWords } from "./words_challenge.mjs";
import { tournamentWords } from "./words_tournament.mjs";

const LATIN = "pasyans"; // the brand in Latin letters, in every language

export const W = {
  brand: "Пасьянсы", // lang="ru" wherever it shows
  brandLatin: LATIN,
  loading: _("loading…"),
  loadFailed: _("This screen did not load: the network or the server failed to answer."),
  loadAgain: _("Try again"),
  connecting: _("connecting to the server…"),
  signingIn: _("signing in…"),
  close: _("Close"),
  copy: _("Copy"),
  copied: _("Copied ✓"),
  and: ", ",
  none: "–",
  language: _("Language"),

  nav: {
    label: _("Main"),
    home: _("Home"),
    leaderboards: _("Leaderboards"),
    history: _("History"),
    stats: _("Stats"),
    friends: _("Friends"),
    inbox: _("Inbox"),
    unread: (n) => (n ? ` (${number(n)})` : ""),
    unreadLabel: (n) => (n ? ngettext("Inbox: {n} unread", "Inbox: {n} unread", n) : _("Inbox")),
    account: (player) => _("Account: {player}", { player }),
  },

  net: {
    lost: (why) => _("Connection lost — reconnecting… ({why})", { why }),
    noAnswer: _("no answer"),
    wasLost: _("the connection was lost"),
    busy: _("The server cannot answer just now — trying again…"),
    offline: _("You are offline. The page comes back by itself when the network does."),
    unreachable: _("You are offline, or the server is out of reach: the page comes back by itself when it answers."),
    offlineBody: _("You are offline: the games need the server. This page opens again by itself when the network is back."),
    bye: (reason) =>
      W.net.reasons[reason]
        ? _("The server says goodbye ({reason}): reconnecting…", { reason: W.net.reasons[reason] })
        : _("The server closed the connection: reconnecting…"),
    reasons: { "server shutting down": _("it is restarting") },
    lostRequest: _("the connection to the server was lost"),
  },

  signIn: {
    challenged: (code) => _("A friend challenges you to a game of patience (challenge {code}): pick a name and it opens at once, on the same deal as theirs.", { code }),
    challengedBy: (creator) => _("{creator} challenges you to", { creator }),
    challengeResults: (n) => (n ? ngettext("{n} player has played it so far.", "{n} players have played it so far.", n) : _("Nobody has played it yet: be the first.")),
    lead: _("Sixteen Russian patience games, a fair daily deal of each, leaderboards and races."),
    name: _("Pick a name: 3–20 letters of one alphabet, digits, _ or - (Маша, Ωμέγα, alice)"),
    start: _("Start playing"),
    have: _("I have an account (a code or a token from another device)"),
    token: _("The code from Account → Link a device (or your token)"),
    signIn: _("Sign in"),
    unknown: _("the server does not know this token"),
  },

  home: {
    title: _("Today's dailies"),
    nextIn: (hms) => _("next dailies in {hms}", { hms }),
    streak: (n) => ngettext("streak: {n} day", "streak: {n} days", n),
    certifying: (facts) => (facts ? _("certifying a winnable deal… ({facts})", { facts }) : _("certifying a winnable deal…")),
    tried: (n) => ngettext("{n} deal tried", "{n} deals tried", n),
    ready: (seconds) => _("ready in about {seconds}", { seconds }),
    certified: (par) => _("certified winnable · par {par}", { par }),
    unproven: (n, total) => _("not proven winnable; best known line founds {n} of {total}", { n, total }),
    notPlayed: _("not played"),
    inPlay: (moves) => _("in play · {moves}", { moves: W.count.moves(moves) }),
    resume: _("Resume"),
    result: _("Result"),
    whenReady: _("Play when ready"),
    opensWhenReady: _("Opens when ready — cancel"),
    playDaily: _("Play daily"),
    practice: _("Practice"),
    race: _("Race"),
    leaderboard: _("Leaderboard"),
    commitment: _("commitment"),
    calendar: _("Calendar"),
    continueTitle: _("Continue your game"),
    continueGame: (game) => _("Continue: {game}", { game }),
    commitmentsToday: _("Today's commitments"),
    verifyTitle: _("Verify"),
    verifyNote: _("Each daily's deal is fixed before the day starts: its commitment is published now, its number once the day is over, and your browser checks that they match."),
    dealTitle: _("Deal by number"),
    dealGame: _("Game"),
    dealSeed: _("Deal number"),
    dealExample: _("e.g. 12345678901234567890"),
    deal: _("Deal"),
    badSeed: _("a deal number is a whole number from 0 to 2^64 − 1"),
    yesterday: (day) => _("Yesterday ({date}): seeds revealed", { date: date(day) }),
    verifyAll: _("Verify every commitment"),
    verify: _("verify"),
    matches: _("✓ commitment matches"),
    mismatch: _("✗ commitment does not match"),
    parLine: _("par line"),
    columns: { game: _("game"), seed: _("seed"), par: _("par"), commitment: _("commitment"), check: _("check") },
  },

  account: {
    title: _("Account"),
    device: _("Use this account on another device"),
    tokenNote: _("Your token (keep it secret; paste it under “I have an account”):"),
    fourColour: _("four-colour suits (♦ blue, ♣ green)"),
    tapHome: _("a tap or a double-click sends a card to a foundation that takes it"),
    back: _("Card back"),
    backs: { blue: _("blue lattice"), red: _("red lattice"), green: _("green dots") },
    felt: _("Table"),
    felts: { green: _("green felt"), blue: _("blue felt"), wine: _("wine felt"), slate: _("slate felt") },
    signOut: _("Sign out"),
    signOutAsk: _("Sign out? Keep your token (use this account on another device) to come back."),
    install: _("Install as an app"),
  },

  board: {
    home: _("← Home"),
    table: _("The table"),
    counters: (home, total) => _("{home}/{total} home", { home, total }),
    ranked: _("ranked"),
    assisted: _("assisted (not ranked)"),
    undo: _("Undo"),
    hint: _("Hint"),
    safe: _("Safe moves"),
    safeAfter: _("safe moves after each move"),
    restart: _("Restart this deal"),
    sound: _("sounds"),
    haptics: _("buzz on a move (phones)"),
    finish: _("Finish"),
    finishN: (n) => _("Finish ({n})", { n }),
    finishTitle: _("the server plays the rest when it finds a certain win"),
    resign: _("Resign"),
    rules: _("Rules"),
    more: _("More"),
    newGame: _("New game"),
    newGameTitle: _("a fresh practice deal of this game"),
    actionMenu: (name) => `${name}…`,
    zoomIn: _("Larger cards"),
    zoomOut: _("Smaller cards"),
    zoomFit: _("Fit the whole table"),
    which: _("which move?"),
    over: _("the game is over"),
    noMoveFrom: (from) => _("no legal move starts {from}", { from }),
    noMove: (from, to) => _("no legal move {from} {to}", { from, to }),
    noPile: (t) => _("no pile {name}", { name: t }),
    noHome: _("no foundation takes it"),
    queued: (n) => ngettext("{n} waiting for the server…", "{n} waiting for the server…", n),
    refused: (why) => _("refused: {why} — the card is back", { why }),
    dropped: (n) => ngettext("{n} click after it not played", "{n} clicks after it not played", n),
    staleSeq: _("the game moved on elsewhere: the board is up to date again"),
    elsewhere: _("moved in another tab: the board is up to date"),
    lost: _("connection lost: the board comes back as the server has it…"),
    cantFetch: (why) => _("could not fetch the game: {why}", { why }),
    reconnected: _("reconnected: the board is as the server has it, play on"),
    undone: _("undone"),
    resigned: _("resigned"),
    hintIs: (said) => _("hint: {move}", { move: said }),
    noWin: _("no win found from here"),
    playedSafe: (n, list) => ngettext("played {n} safe move: {list}", "played {n} safe moves: {list}", n, { list }),
    noSafe: _("no safe move now (the rules page says which moves this game counts safe)"),
    canFinish: _("the server can finish this game for you"),
    finished: (n) => ngettext("auto-completed: the server played the last move", "auto-completed: the server played the last {n} moves", n),
    hintAsk: _("A hint unranks this daily: it will no longer count on the leaderboards, your stats' dailies or your streak. Ask for a hint?"),
    resignAsk: _("Resign this game? It ends as lost."),
    pile: (name, top, n) => ngettext("{pile}: {top}, {n} card", "{pile}: {top}, {n} cards", n, { pile: name, top }),
    emptyPile: (name, base) => (base ? _("{pile}: empty, {base}", { pile: name, base }) : _("{pile}: empty", { pile: name })),
    keys: _("Keys: Tab or the arrows move between piles, Enter or Space picks a pile, or type a pile's name and Enter; Esc lets go."),
  },

  // an action offered many ways is one button "Name…" opening its list (the server's
  // keyed words, action.*, name each way: "Pick up column 3")
  actionNames: { pick_up: _("Pick up"), swap: _("Swap"), grace: _("Grace") },

  end: {
    won: _("You won!"),
    line: (home, total, moves, par, time, rank) =>
      [
        _("{home}/{total} cards", { home, total }),
        W.count.moves(moves) + (par !== null && par !== undefined ? _(" (par {par})", { par }) : ""),
        time,
        rank ? _("#{rank} of {of}", { rank: rank.rank, of: rank.of }) : "",
      ].filter(Boolean).join(" · "),
    assisted: _("assisted (the solver helped: not ranked): a hint or the solver's finish, so this result ranks nowhere"),
    seed: (seed) => _("seed {seed}", { seed }),
    copy: _("Copy the result"),
    again: _("Play again"),
    newGame: _("New game"),
    next: (title) => _("Next: {game}", { game: title }),
    home: _("Home"),
    look: _("Look at the board"),
    back: _("Show the result"),
    challenge: _("Challenge a friend"),
    challengeMaking: _("making the challenge…"),
    challengeLink: _("Send this link: whoever opens it plays the same deal, and you see their result beside yours."),
    challengeOpens: (when) =>
      _("A challenge of today's daily opens to players at {when} UTC, when the day is over (nobody may play a daily's deal while it counts).", { when }),
    share: _("Share"),
  },

  rules: { title: _("Rules"), close: _("Close the rules") },

  leaderboard: {
    title: _("Leaderboard"),
    game: _("Game"),
    board: _("Board"),
    daily: _("daily"),
    alltime: _("all-time"),
    date: _("Date"),
    aroundMe: _("around me"),
    friends: _("friends"),
    columns: { rank: "#", player: _("player"), result: _("result"), moves: _("moves"), time: _("time") },
    won: _("won"),
    resigned: _("resigned"),
    lost: _("lost"),
    entries: (n) => ngettext("{n} entry", "{n} entries", n),
    me: (rank) => _(" · you: #{rank}", { rank }),
    openReplay: _("open the replay"),
    laterReplay: _("replays open once the day is over"),
  },

  replay: {
    title: _("Replay"),
    first: _("First position"),
    back: _("One move back"),
    play: _("Play"),
    pause: _("Pause"),
    forward: _("One move on"),
    last: _("Final position"),
    step: _("Move"),
    at: (at, total) => _("move {at} of {total}", { at, total }),
  },

  stats: {
    title: (player) => _("Statistics · {player}", { player }),
    all: _("all games"),
    game: _("game"),
    columns: [_("games"), _("wins"), _("win %"), _("best moves"), _("best time"), _("dailies won"), _("streak"), _("rating")],
    streak: (n, best) => _("{n} (best {best})", { n, best }),
    days: _("the last 30 days"),
    axis: _("games finished each day"), wonKey: _("wins"), lostKey: _("losses"),
    day: (d) => _("{date}: {won} won, {lost} lost", { date: date(d.date), won: d.won, lost: d.lost }),
  },

  history: {
    title: _("History"),
    columns: [_("game"), _("mode"), _("result"), _("moves"), _("time"), _("open")],
    resume: _("resume"),
    replay: _("replay"),
    more: _("more"),
  },

  friends: {
    title: _("Friends"),
    name: _("A player's name"),
    follow: _("Follow"),
    added: (who) => _("you follow {who}", { who }),
    already: (who) => _("you followed {who} already", { who }),
    stats: _("stats"),
    unfollow: _("unfollow"),
    none: _("You follow nobody yet."),
    offline: _("offline"),
    activity: { home: _("online"), playing: _("playing"), racing: _("racing"), watching: _("watching a race") },
    joinLobby: (code) => _("join their race {code}", { code }),
    inviteGame: _("Invite to a game of"),
    raceThem: _("race"),
    challengeThem: _("challenge"),
    invited: (who, code) => _("{who} is invited ({code})", { who, code }),
    block: _("block"),
    unblock: _("unblock"),
    blocked: (names) => _("You block {names}: their invites are dropped and they see nothing of you.", { names }),
    hidden: _("You show as offline to everyone."),
    hide: _("Hide my presence"),
    show: _("Show my presence"),
  },

  inbox: {
    title: _("Inbox"),
    none: _("Nothing yet: friends' invites and news come here."),
    unread: (n) => ngettext("{n} unread", "{n} unread", n),
    readAll: _("Mark all read"),
    when: (at) => moment(at),
    text(item) {
      const code = (item.race || item.challenge || {}).code;
      const sender = item.sender;
      if (item.tournament) return tournamentWords.item(item);
      if (item.kind === "invite" && item.race) return _("{sender} invites you to a race ({code})", { sender, code });
      if (item.kind === "invite") return _("{sender} challenges you on a deal ({code})", { sender, code });
      if (item.kind === "challenge_result") return _("{sender} finished your challenge {code}", { sender, code });
      if (item.kind === "daily_beaten") return _("{sender} beat your daily of {date}", { sender, date: date(item.date) });
      if (item.kind === "rematch") return _("{sender} asks for a rematch (race {code})", { sender, code });
      return _("news from {sender}", { sender });
    },
    action(item) {
      if (item.tournament) return item.kind === "tournament_result" ? tournamentWords.seePodium : tournamentWords.open;
      if (item.race) return _("Join the race");
      if (item.kind === "invite") return _("Play the challenge");
      if (item.challenge) return _("See the results");
      return _("Mark read");
    },
    see: _("open your inbox"),
  },

  howTo: { title: _("How to play"), play: _("Play"), skip: _("Skip"), setting: _("a game's how-to the first time it is opened") },

  calendar: {
    title: _("Calendar"),
    open: _("calendar"),
    every: _("Every game"),
    game: _("Game"),
    month: _("Month"),
    before: _("Month before"),
    after: _("Month after"),
    columns: [_("day (UTC)"), _("yours"), _("par"), _("difficulty"), ""],
    countColumns: [_("day (UTC)"), _("dailies won"), _("finished")],
    status: { won: _("won"), lost: _("lost"), assisted: _("assisted (not ranked)"), playing: _("in play"), not_played: _("not played") },
    play: _("Play this deal"),
    playToday: _("Play today's daily"),
    pastNote: _("A past day's deal is played after its day: unranked, its seed shown."),
    wonOf: (won, days) => ngettext("won {won} of {n} day", "won {won} of {n} days", days, { won }),
    summary: (won, played, days) => ngettext("dailies won: {won} of {played} finished, on {n} day", "dailies won: {won} of {played} finished, on {n} days", days, { won, played }),
    none: _("No dailies this month."),
    played: _("played"), open: _("open to play"),
  },

  difficulty: {
    levels: [_("easy"), _("medium"), _("hard")],
    label: (n) => _("difficulty {n} of 3 ({level})", { n, level: W.difficulty.levels[n - 1] }),
    marks: (n) => "●".repeat(n) + "○".repeat(3 - n),
  },

  race: {
    // a member who deleted their account (issue 49)
    left: _("a player who left"),
    title: _("Race"),
    panel: (code, status) => _("Race {code} · {status}", { code, status: W.race.statuses[status] || status }),
    statuses: { lobby: _("in the lobby"), countdown: _("starting"), running: _("running"), finished: _("finished") },
    spectators: (n) => " · " + ngettext("{n} spectator", "{n} spectators", n),
    chosen: (who) => _("the deal's seed was chosen by {who}", { who }),
    link: _("Send this link:"),
    startsIn: (s) => _("starting in {seconds}…", { seconds: s }),
    start: _("Start"),
    waiting: (who) => _("Waiting for {who} to start…", { who }),
    rematch: _("Rematch"),
    leave: _("Leave"),
    leaveRunning: _("Leave the race? Your game stays yours to finish, but no longer counts in the race."),
    leaveLobby: _("Leave the race's lobby?"),
    drop: _("Drop"),
    dropAsk: (who) => _("Drop {who}? Their game is given up (lost: dropped); a daily attempt leaves the race and plays on as their daily.", { who }),
    end: _("End race"),
    endAsk: _("End the race now? Every game still in play is given up (lost: race ended); a member's daily attempt leaves the race and plays on as their daily."),
    row: (p) =>
      [
        W.race.members[p.status] || p.status,
        p.place ? _("place {place}", { place: p.place }) : "",
        `${p.foundation}/${p.total}`,
        W.count.moves(p.moves),
      ].filter(Boolean).join(" · "),
    members: { ready: _("ready"), playing: _("playing"), won: _("won"), lost: _("lost") },
    away: _(" · away"),
    joining: (code) => _("joining race {code}…", { code }),
    watching: (code) => _("Watching race {code} · ", { code }),
    watchingLoading: (code) => _("watching race {code}…", { code }),
    notDealt: _("not dealt yet"),
    heldBack: _("cards shown once every member's game is over (while anybody plays, no spectator sees a card: all play the same deal)"),
    // ratings (issue 51): a member's rating at the game after a rated race, its change
    rating: (r, d) => _("rating {value}", { value: `${r.value}${r.provisional ? "?" : ""}` }) + (d == null ? " " + _("(not counted)") : ` (${d > 0 ? "+" : d < 0 ? "\u2212" : ""}${Math.abs(d)})`),
    provisional: _("? provisional: fewer than 5 rated races"),
  },

  // a player's rating at a game (issue 51): its value, "?" while provisional
  ratings: {
    value: (r) => (r ? `${r.value}${r.provisional ? "?" : ""}` : "\u2014"),
    said: (r) => _("rating {value}", { value: `${r.value}${r.provisional ? "?" : ""}` }),
    board: _("ratings from races"),
    columns: { rating: _("rating"), races: _("races") },
    notYet: _("you are not on it yet: a player is, after 5 rated races of the game"),
    legend: _("rating: from races on fresh deals · ? provisional (fewer than 5 races)"),
  },

  challenge: challengeWords,
  tournament: tournamentWords,

  count: {
    moves: (n) => ngettext("{n} move", "{n} moves", n),
    cards: (n) => ngettext("{n} card", "{n} cards", n),
  },

  modes: { daily: _("daily"), practice: _("practice"), deal: _("deal"), race: _("race"), challenge: _("challenge"), par: _("par"), tournament: _("tournament") },

  // why a game ended (the state's `out`), as every screen says it
  out: {
    resigned: _("resigned"),
    timed_out: _("given up: away too long"),
    dropped: _("dropped from the race"),
    ended: _("the race was ended"),
    day_over: _("the day was over"),
  },
  won: _("won"),
  inPlay: _("in play"),
  lostWhy: (why) => _("lost ({why})", { why }),
  lostNoMove: _("lost: no move left"),
  assistedLong: _("assisted (the solver helped: not ranked)"),

  // a card as a screen reader says it
  ranks: { A: _("ace"), T: "10", J: _("jack"), Q: _("queen"), K: _("king") },
  suits: { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") },
  cardName: (rank, suit) => _("{rank} of {suit}", { rank, suit }),
  faceDownCard: _("a face-down card"),
};

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export const rankText = (code) => (code[0] === "T" ? "10" : code[0]);
export const pretty = (code) => (code ? rankText(code) + SUITS[code[1]] : "▒▒");
export const cardName = (code) =>
  code ? W.cardName(W.ranks[code[0]] || code[0], W.suits[code[1]]) : W.faceDownCard;

// A move as the player reads it, in words: "Move the 5♦ from your hand to foundation
// 1", "Pick up column 3", "Deal" (the piles named as the view names them).
export function formatMove(move, piles = [], options = {}) {
  if (!move) return "";
  return sayMove(move, piles, options) + (move.n !== undefined && move.n !== null ? ` ×${move.n}` : "");
}

// an action's button: "Deal", "Pick up column 3", "Swap P1 and P4"; an action with no
// parameters given (a group's button): its name
export function actionLabel(move, piles = []) {
  const given = Object.keys(move).filter((key) => key !== "action");
  if (!given.length && W.actionNames[move.action]) return W.actionNames[move.action];
  return sayMove(move, piles);
}

// an empty pile's base as the server words it (Hemispheres), said in the page's language
// (a card's code as it is: "A♠")
const BASES = [N_("up in suit to K"), N_("down in suit to A")];
export const baseText = (base) => (base && BASES.includes(base) ? _(base) : base);

// a pile's name as the player reads it ("column 3", "the stock"): its keyed name, else
// its label (a short code the keys type), else its id
export const pileTitle = (pile) => pileName(pile) || pile.id;

// a game's own counter of the view's `info` ("redeals left 2"), as the terminal client
// says it (client/text.py info_line): a flag only while set, a list by its length, a
// pile by its name; null when nothing is to be said
export function infoText(key, value, piles = []) {
  if (value === null || value === undefined || value === false) return null;
  const plain = `${key.replace(/_/g, " ")}${value === true ? "" : ` ${String(value)}`}`;
  if (value === true) return say(`info.${key}`, {}, plain);
  if (Array.isArray(value)) return say(`info.${key}`, { n: value.length, value: value.length }, plain);
  const pile = typeof value === "string" ? piles.find((p) => p.id === value) : null;
  if (pile) return say(`info.${key}`, { value: pileTitle(pile) }, plain);
  return say(`info.${key}`, { value: typeof value === "number" ? number(value) : value }, plain);
}

export function clock(ms) {
  if (ms === null || ms === undefined) return W.none;
  const seconds = Math.floor(Number(ms) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function outcome(game) {
  if (game.status === "won") return W.won;
  if (game.status === "playing") return W.inPlay;
  const why = W.out[game.out];
  return why ? W.lostWhy(why) : W.lostNoMove;
}

export const modeName = (mode) => W.modes[mode] || mode;

// a mode and its day: "daily · Nov 28, 2026"
export const modeDay = (mode, day) => (day ? `${modeName(mode)} · ${date(day)}` : modeName(mode));

// an assisted game (a hint, the solver's finish) ranks nowhere: every place its result
// shows says so (client/text.py ASSISTED_LONG)
export const assistedNote = (game) => (game && game.assisted ? ` · ${W.assistedLong}` : "");

// today's date (UTC) as the server writes it, and the day before
export function utcDate(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86400000);
  return d.toISOString().slice(0, 10);
}

// a moment (ms since the epoch) as the page's language writes day and time, UTC
export const utcMinute = (ms) => moment(ms);
