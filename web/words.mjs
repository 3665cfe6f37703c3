// Every word the page shows, in one catalogue: `W` (grouped by screen) and the few
// functions that write cards, moves, clocks and results as the terminal client does
// (client/text.py, protocol/cards.py). One language today (English; the games' Russian
// titles come from the server): a translation replaces W's entries, and each function
// entry takes the same arguments.

export const W = {
  brand: "Пасьянсы", // lang="ru" wherever it shows
  brandLatin: "pasyans",
  loading: "loading…",
  connecting: "connecting to the server…",
  signingIn: "signing in…",
  close: "Close",
  copy: "Copy",
  copied: "Copied ✓",
  and: ", ",
  none: "–",

  nav: {
    label: "Main",
    home: "Home",
    leaderboards: "Leaderboards",
    history: "History",
    stats: "Stats",
    friends: "Friends",
    inbox: "Inbox",
    unread: (n) => (n ? ` (${n})` : ""),
    unreadLabel: (n) => (n ? `Inbox: ${n} unread` : "Inbox"),
    account: (player) => `Account: ${player}`,
  },

  net: {
    lost: (why) => `Connection lost — reconnecting… (${why})`,
    noAnswer: "no answer",
    wasLost: "the connection was lost",
    busy: "The server cannot answer just now — trying again…",
    offline: "You are offline. The page comes back by itself when the network does.",
    unreachable: "You are offline, or the server is out of reach: the page comes back by itself when it answers.",
    offlineBody: "You are offline: the games need the server. This page opens again by itself when the network is back.",
    bye: (reason) => `The server says goodbye (${reason}): reconnecting…`,
    lostRequest: "the connection to the server was lost",
  },

  signIn: {
    lead: "Sixteen Russian patience games, a fair daily deal of each, leaderboards and races.",
    name: "Pick a name (any alphabet: Маша, Ωμέγα, alice)",
    start: "Start playing",
    have: "I have an account (a token from another device)",
    token: "Your token",
    signIn: "Sign in",
    unknown: "the server does not know this token",
  },

  home: {
    title: "Today's dailies",
    nextIn: (hms) => `next dailies in ${hms}`,
    streak: (n) => `streak: ${W.count.days(n)}`,
    certifying: (facts) => `certifying a winnable deal…${facts ? ` (${facts})` : ""}`,
    tried: (n) => `${W.count.deals(n)} tried`,
    readySeconds: (s) => `ready in about ${s} s`,
    readyMinutes: (m) => `ready in about ${m} min`,
    certified: (par) => `certified winnable · par ${par}`,
    unproven: (n, total) => `not proven winnable; best known line founds ${n} of ${total}`,
    notPlayed: "not played",
    inPlay: (moves) => `in play · ${W.count.moves(moves)}`,
    resume: "Resume",
    result: "Result",
    whenReady: "Play when ready",
    opensWhenReady: "Opens when ready — cancel",
    playDaily: "Play daily",
    practice: "Practice",
    race: "Race",
    leaderboard: "Leaderboard",
    commitment: "commitment",
    dealTitle: "Deal by number",
    dealGame: "Game",
    dealSeed: "Deal number",
    dealExample: "e.g. 12345678901234567890",
    deal: "Deal",
    badSeed: "a deal number is a whole number from 0 to 2^64 − 1",
    yesterday: (date) => `Yesterday (${date}): seeds revealed`,
    verifyAll: "Verify every commitment",
    verify: "verify",
    matches: "✓ commitment matches",
    mismatch: "✗ commitment does not match",
    parLine: "par line",
    columns: { game: "game", seed: "seed", par: "par", commitment: "commitment", check: "check" },
  },

  account: {
    title: "Account",
    device: "Use this account on another device",
    tokenNote: "Your token (keep it secret; paste it under “I have an account”):",
    fourColour: "four-colour suits (♦ blue, ♣ green)",
    tapHome: "a single tap sends a card to its foundation when that is its only move",
    back: "Card back",
    backs: { blue: "blue lattice", red: "red lattice", green: "green dots" },
    signOut: "Sign out",
    signOutAsk: "Sign out? Keep your token (use this account on another device) to come back.",
    install: "Install as an app",
  },

  board: {
    home: "← Home",
    table: "The table",
    counters: (home, total) => `${home}/${total} home`,
    ranked: "ranked",
    assisted: "assisted (not ranked)",
    undo: "Undo",
    hint: "Hint",
    safe: "Safe moves",
    safeAfter: "safe moves after each move",
    finish: "Finish",
    finishN: (n) => `Finish (${n})`,
    finishTitle: "the server plays the rest when it finds a certain win",
    resign: "Resign",
    rules: "Rules",
    more: "More",
    newGame: "New game",
    newGameTitle: "a fresh practice deal of this game",
    actionMenu: (name) => `${name}…`,
    // a game's own counter (the view's `info`, named by the server): "redeals left"
    info: (key) => key.replace(/_/g, " "),
    zoomIn: "Larger cards",
    zoomOut: "Smaller cards",
    zoomFit: "Fit the whole table",
    which: "which move?",
    over: "the game is over",
    noMoveFrom: (pid) => `no legal move starts from ${pid}`,
    noMove: (a, b) => `no legal move from ${a} to ${b}`,
    noPile: (t) => `no pile ${t}`,
    twoHomes: "more than one foundation takes it: drag it",
    noHome: "no foundation takes it",
    queued: (n) => `${n} waiting for the server…`,
    refused: (why) => `refused: ${why} — the card is back`,
    dropped: (n) => `${W.count.clicks(n)} after it not played`,
    staleSeq: "the game moved on elsewhere: the board is up to date again",
    elsewhere: "moved in another tab: the board is up to date",
    lost: "connection lost: the board comes back as the server has it…",
    cantFetch: (why) => `could not fetch the game: ${why}`,
    reconnected: "reconnected: the board is as the server has it, play on",
    undone: "undone",
    resigned: "resigned",
    hintIs: (move) => `hint: ${move}`,
    noWin: "no win found from here",
    playedSafe: (said, n, list) => `${said}played ${W.count.safeMoves(n)}: ${list}`,
    noSafe: "no safe move now (the rules page says which moves this game counts safe)",
    canFinish: "the server can finish this game for you",
    finished: (n) => `auto-completed: the server played the last ${W.count.moves(n)}`,
    hintAsk: "A hint unranks this daily: it will no longer count on the leaderboards, your stats' dailies or your streak. Ask for a hint?",
    resignAsk: "Resign this game? It ends as lost.",
    empty: "empty",
    faceDown: "face down",
    pile: (label, top, n) => `${label}: ${top}, ${W.count.cards(n)}`,
    emptyPile: (label, base) => `${label}: empty${base ? `, ${base}` : ""}`,
    pileName: (id, label) => (label && label !== id ? `${label} (${id})` : id),
    keys: "Keys: Tab or the arrows move between piles, Enter or Space picks a pile, or type a pile's name and Enter; Esc lets go.",
  },

  // the games' actions on their buttons (the server's names: deal, swap, …); an action
  // offered many ways is one button "Name…" opening its list
  actions: {
    deal: { name: "Deal" },
    redeal: { name: "Redeal" },
    shift: { name: "Shift" },
    travel: { name: "Travel" },
    next_row: { name: "Next row" },
    spread: { name: "Spread the reserve" },
    pick_up: { name: "Pick up", params: ({ column }) => `Pick up ${column}` },
    swap: { name: "Swap", params: ({ a, b }) => `Swap ${a} ↔ ${b}` },
    grace: {
      name: "Grace",
      params: ({ ace, king }) => `Grace: ${[ace && `ace from ${ace}`, king && `king from ${king}`].filter(Boolean).join(", ")}`,
    },
  },

  end: {
    won: "You won!",
    line: (home, total, moves, par, time, rank) =>
      `${home}/${total} cards · ${W.count.moves(moves)}${par !== null && par !== undefined ? ` (par ${par})` : ""} · ${time}${rank ? ` · #${rank.rank} of ${rank.of}` : ""}`,
    assisted: "assisted (the solver helped: not ranked): a hint or the solver's finish, so this result ranks nowhere",
    seed: (seed) => `seed ${seed}`,
    copy: "Copy the result",
    again: "Play again",
    newGame: "New game",
    home: "Home",
    look: "Look at the board",
    back: "Show the result",
    challenge: "Challenge a friend",
    challengeMaking: "making the challenge…",
    challengeLink: "Send this link: whoever opens it plays the same deal, and you see their result beside yours.",
    challengeOpens: (when) => `A challenge of today's daily opens to players at ${when} UTC, when the day is over (nobody may play a daily's deal while it counts).`,
    share: "Share",
  },

  rules: { title: "Rules", close: "Close the rules" },

  leaderboard: {
    title: "Leaderboard",
    game: "Game",
    board: "Board",
    daily: "daily",
    alltime: "all-time",
    date: "Date",
    aroundMe: "around me",
    friends: "friends",
    columns: { rank: "#", player: "player", result: "result", moves: "moves", time: "time" },
    won: "won",
    resigned: "resigned",
    lost: "lost",
    entries: (n) => W.count.entries(n),
    me: (rank) => ` · you: #${rank}`,
    openReplay: "open the replay",
    laterReplay: "replays open once the day is over",
  },

  replay: {
    title: "Replay",
    first: "First position",
    back: "One move back",
    play: "Play",
    pause: "Pause",
    forward: "One move on",
    last: "Final position",
    step: "Move",
    at: (at, total) => `move ${at} of ${total}`,
  },

  stats: {
    title: (player) => `Statistics · ${player}`,
    all: "all games",
    game: "game",
    columns: ["played", "won", "win %", "best moves", "best time", "dailies won", "streak"],
    streak: (n, best) => `${n} (best ${best})`,
    days: "the last 30 days",
    day: (d) => `${d.date}: ${d.won} won, ${d.lost} lost`,
  },

  history: {
    title: "History",
    columns: ["game", "mode", "result", "moves", "time", "open"],
    resume: "resume",
    replay: "replay",
    more: "more",
  },

  friends: {
    title: "Friends",
    name: "A player's name",
    follow: "Follow",
    added: (who) => `you follow ${who}`,
    already: (who) => `you followed ${who} already`,
    stats: "stats",
    unfollow: "unfollow",
    none: "You follow nobody yet.",
    offline: "offline",
    activity: { home: "online", playing: "playing", racing: "racing", watching: "watching a race" },
    joinLobby: (code) => `join their race ${code}`,
    inviteGame: "Invite to a game of",
    raceThem: "race",
    challengeThem: "challenge",
    invited: (who, code) => `${who} is invited (${code})`,
    block: "block",
    unblock: "unblock",
    blocked: (names) => `You block ${names}: their invites and follows are dropped.`,
    hidden: "You show as offline to everyone.",
    hide: "Hide my presence",
    show: "Show my presence",
  },

  inbox: {
    title: "Inbox",
    none: "Nothing yet: friends' invites and news come here.",
    unread: (n) => `${n} unread`,
    readAll: "Mark all read",
    when: (at) => new Date(Number(at)).toISOString().slice(5, 16).replace("T", " "),
    text(item) {
      const code = (item.race || item.challenge || {}).code;
      if (item.kind === "invite" && item.race) return `${item.sender} invites you to a race (${code})`;
      if (item.kind === "invite") return `${item.sender} challenges you on a deal (${code})`;
      if (item.kind === "challenge_result") return `${item.sender} finished your challenge ${code}`;
      if (item.kind === "daily_beaten") return `${item.sender} beat your daily of ${item.date}`;
      if (item.kind === "rematch") return `${item.sender} asks for a rematch (race ${code})`;
      return `${item.sender}: ${item.kind}`;
    },
    action(item) {
      if (item.race) return "Join the race";
      if (item.kind === "invite") return "Play the challenge";
      if (item.challenge) return "See the results";
      return "Mark read";
    },
    see: "open your inbox",
  },

  calendar: {
    title: "Calendar",
    open: "calendar",
    every: "Every game",
    game: "Game",
    month: "Month",
    before: "Month before",
    after: "Month after",
    columns: ["day (UTC)", "yours", "par", "difficulty", ""],
    countColumns: ["day (UTC)", "dailies won", "finished"],
    status: { won: "won", lost: "lost", assisted: "assisted (not ranked)", playing: "in play", not_played: "not played" },
    play: "Play this deal",
    playToday: "Play today's daily",
    pastNote: "A past day's deal is played after its day: unranked, its seed shown.",
    wonOf: (won, days) => `won ${won} of ${days} days`,
    summary: (won, played, days) => `dailies won: ${won} of ${played} finished, on ${days} days`,
    none: "No dailies this month.",
  },

  difficulty: {
    label: (n) => `difficulty ${n} of 3 (${["easy", "medium", "hard"][n - 1]})`,
    marks: (n) => "●".repeat(n) + "○".repeat(3 - n),
  },

  race: {
    title: (game) => `Race · ${game}`,
    panel: (code, status) => `Race ${code} · ${status}`,
    spectators: (n) => ` · ${n === 1 ? "1 spectator" : `${n} spectators`}`,
    chosen: (who) => `the deal's seed was chosen by ${who}`,
    link: "Send this link:",
    startsIn: (s) => `starting in ${s}…`,
    start: "Start",
    waiting: (who) => `Waiting for ${who} to start…`,
    rematch: "Rematch",
    leave: "Leave",
    leaveRunning: "Leave the race? Your game stays yours to finish, but no longer counts in the race.",
    leaveLobby: "Leave the race's lobby?",
    drop: "Drop",
    dropAsk: (who) => `Drop ${who}? Their game is given up (lost: dropped); a daily attempt leaves the race and plays on as their daily.`,
    end: "End race",
    endAsk: "End the race now? Every game still in play is given up (lost: race ended); a member's daily attempt leaves the race and plays on as their daily.",
    row: (p) => `${p.status}${p.place ? ` · place ${p.place}` : ""} · ${p.foundation}/${p.total} · ${W.count.moves(p.moves)}`,
    away: " · away",
    joining: (code) => `joining race ${code}…`,
    watching: (code, game) => `Watching race ${code} · ${game}`,
    watchingLoading: (code) => `watching race ${code}…`,
    notDealt: "not dealt yet",
    heldBack: "cards shown once every member's game is over (while anybody plays, no spectator sees a card: all play the same deal)",
  },

  challenge: {
    title: (code, game) => `Challenge ${code} · ${game}`,
    by: (who) => `by ${who}`,
    chosen: " · the deal's seed was chosen by a player",
    closed: "closed: its results are final",
    openUntil: (when) => `open until ${when} UTC`,
    opens: (when) => `It opens to players at ${when} UTC, when the day of its daily is over.`,
    seedKnown: "Its creator could see this deal's number before playing it: their result ranks apart.",
    seedPublic: "This deal's number is public (a past daily's, a race's or another challenge's deal): any result on it may have been worked out in advance.",
    deal: (seed) => `Deal ${seed}`,
    share: "Share:",
    columns: ["#", "player", "result", "cards", "moves", "time"],
    mark: " (mark)",
    seedKnownRow: " · seed known: not ranked",
    noResult: "No result yet.",
    playing: (names) => `Playing now: ${names}`,
    yourMark: "Your result is the mark to beat.",
    back: "Back to your game",
    play: "Play this deal",
    close: "Close the challenge",
    closeAsk: "Close this challenge? Nobody can play it any more, its results are final (a game still in play counts nowhere), and its deal's number is shown to everyone who played it.",
    loading: (code) => `challenge ${code}…`,
    news: (who, code) => `${who} finished your challenge ${code}`,
  },

  count: {
    moves: (n) => (n === 1 ? "1 move" : `${n} moves`),
    cards: (n) => (n === 1 ? "1 card" : `${n} cards`),
    days: (n) => (n === 1 ? "1 day" : `${n} days`),
    deals: (n) => (n === 1 ? "1 deal" : `${n} deals`),
    entries: (n) => (n === 1 ? "1 entry" : `${n} entries`),
    clicks: (n) => (n === 1 ? "1 click" : `${n} clicks`),
    safeMoves: (n) => (n === 1 ? "1 safe move" : `${n} safe moves`),
  },

  modes: { daily: "daily", practice: "practice", deal: "deal", race: "race", challenge: "challenge", par: "par" },

  // why a game ended (the state's `out`), as every screen says it
  out: {
    resigned: "resigned",
    timed_out: "given up: away too long",
    dropped: "dropped from the race",
    ended: "the race was ended",
    day_over: "the day was over",
  },
  won: "won",
  inPlay: "in play",
  lostWhy: (why) => `lost (${why})`,
  lostNoMove: "lost: no move left",
  assistedLong: "assisted (the solver helped: not ranked)",

  // a card as a screen reader says it
  ranks: { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" },
  suits: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
  cardName: (rank, suit) => `${rank} of ${suit}`,
  faceDownCard: "a face-down card",
  moveCard: (index) => ` (card ${index + 1})`,
};

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export const rankText = (code) => (code[0] === "T" ? "10" : code[0]);
export const pretty = (code) => (code ? rankText(code) + SUITS[code[1]] : "▒▒");
export const cardName = (code) =>
  code ? W.cardName(W.ranks[code[0]] || code[0], W.suits[code[1]]) : W.faceDownCard;

// a move as the player reads it: "T2 → FA-D", "H → C4 (card 2)", "Deal", "Swap P1 ↔ P4"
export function formatMove(move) {
  if (!move) return "";
  if ("action" in move) return actionLabel(move);
  let text = `${move.from} → ${move.to}`;
  if (move.index !== undefined && move.index !== null) text += W.moveCard(move.index);
  if (move.n !== undefined && move.n !== null) text += ` ×${move.n}`;
  return text;
}

// an action's button, in words: "Deal", "Pick up C3", "Swap P1 ↔ P4", "Grace: ace C3"
export function actionLabel(move) {
  const said = W.actions[move.action];
  const name = said ? said.name : move.action.replace(/_/g, " ");
  const params = Object.entries(move).filter(([key, value]) => key !== "action" && value !== null && value !== undefined);
  if (!params.length) return name;
  if (said && said.params) return said.params(Object.fromEntries(params));
  return [name, ...params.map(([, value]) => value)].join(" ");
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

// an assisted game (a hint, the solver's finish) ranks nowhere: every place its result
// shows says so (client/text.py ASSISTED_LONG)
export const assistedNote = (game) => (game && game.assisted ? ` · ${W.assistedLong}` : "");

export const SHARE_COMMITMENT = 12;

// A finished game's result to share: nothing that gives the deal away (client/text.py).
export function shareText(game, titles, { par = null, rank = null, of = null } = {}) {
  const names = (titles || {})[game.game] || {};
  const ru = names.title_ru || game.game;
  const en = names.title_en || "";
  const head = [W.brandLatin, en && en !== ru ? `${ru} (${en})` : ru];
  head.push(game.date ? `${modeName(game.mode)} ${game.date}` : modeName(game.mode));
  const result = [
    outcome(game),
    `${game.foundation || 0}/${game.total || 0} cards`,
    W.count.moves(Number(game.moves || 0)) + (par !== null && par !== undefined ? ` (par ${par})` : ""),
    clock(game.time_ms),
  ];
  if (rank !== null && rank !== undefined) result.push(of ? `#${rank} of ${of}` : `#${rank}`);
  if (game.auto_completed) result.push("auto-completed");
  if (game.assisted) result.push(W.assistedLong);
  const lines = [head.filter(Boolean).join(" · "), result.join(" · ")];
  const commitment = (game.deal && game.deal.commitment) || game.commitment;
  if (commitment && game.date) lines.push(`commitment ${String(commitment).slice(0, SHARE_COMMITMENT)}…`);
  return lines.join("\n");
}

// today's date (UTC) as the server writes it, and the day before
export function utcDate(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86400000);
  return d.toISOString().slice(0, 10);
}

// a moment (ms since the epoch) as "2026-11-27 00:00", UTC
export const utcMinute = (ms) => new Date(Number(ms)).toISOString().slice(0, 16).replace("T", " ");

// sha256(seed as 8 big-endian bytes ‖ "YYYY-MM-DD:slug") in hex (docs/protocol.md)
export async function commitment(seed, date, slug) {
  const text = new TextEncoder().encode(`${date}:${slug}`);
  const bytes = new Uint8Array(8 + text.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(seed));
  bytes.set(text, 8);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
