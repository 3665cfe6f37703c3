// The page's session with the server: the one connection, signing in (again after
// every reconnection), the server's events routed to what they change, and starting or
// opening a game. Screens call these; nothing here draws.

import { Game } from "./game.mjs";
import { Connection, ServerError } from "./net.mjs";
import { go } from "./route.mjs";
import { app, loadAccount, saveAccount, update } from "./store.mjs";
import { _, knowTitles, say } from "./i18n.mjs";
import { W } from "./words.mjs";

export async function signIn() {
  if (!app.account) return;
  try {
    const reply = await conn.call("auth", { token: app.account.token }, { signIn: true });
    app.account = { ...app.account, player: reply.player, deployment: reply.deployment };
    saveAccount(app.account);
    app.signedIn = true;
    if (reply.renamed_from) {
      // issue 49: the operators renamed the account (said once)
      app.notice = _("The operators renamed your account from {old} to {name}.", { old: reply.renamed_from, name: reply.player });
    }
  } catch (err) {
    if (err instanceof ServerError && err.error.key === "error.banned") {
      // the operators banned this account: say so, and keep the token (a ban may be lifted)
      app.signedIn = false;
      update({ banned: err.message });
      return;
    }
    if (err instanceof ServerError && err.code === "unauthorized") {
      // another tab of this browser took a new token ("Sign out everywhere else"):
      // this one signs in with it, and never forgets the account it keeps
      const kept = loadAccount();
      if (kept && kept.token !== app.account.token) {
        app.account = kept;
        return signIn();
      }
      saveAccount(null);
      app.account = null;
      app.signedIn = false;
    }
  }
}

export async function register(name) {
  const reply = await conn.call("register", { name }, { signIn: true });
  const account = { player: reply.player, token: reply.token, deployment: reply.deployment };
  saveAccount(account);
  update({ account, signedIn: true });
}

// a link code from another device of the account (`link_code`): 8 letters and digits
// (a token is far longer); spaces and dashes as a person types it are dropped
export const LINK_CODE = /^[A-Za-z0-9]{8}$/;

export async function signInWith(text) {
  const code = text.replace(/[\s-]/g, "");
  if (LINK_CODE.test(code)) return linkWith(code);
  app.account = { token: text };
  await signIn();
  update();
  return app.signedIn;
}

// Issue 49: link a device, sign out everywhere, export, leave.

// this device signed in with a code another device of the account showed; raises the
// server's refusal (a wrong or used code, too many tried) in words
export async function linkWith(code) {
  const reply = await conn.call("link", { code: code.toUpperCase() }, { signIn: true });
  const account = { player: reply.player, token: reply.token, deployment: reply.deployment };
  saveAccount(account);
  update({ account, signedIn: true });
  return true;
}

export async function linkCode() {
  return conn.call("link_code", {});
}

// a new token for this page; every other device and tab of the account is signed out
export async function rotateToken() {
  const reply = await conn.call("token_rotate", {});
  const account = { ...app.account, token: reply.token };
  saveAccount(account);
  update({ account });
}

// everything the server holds about the player, as a file the browser downloads
export async function exportAccount() {
  let reply = await conn.call("account_export", {});
  const account = reply.account;
  while (reply.cursor) {
    // the games past the first page
    reply = await conn.call("account_export", { cursor: reply.cursor });
    account.games = account.games.concat(reply.account.games);
  }
  const text = JSON.stringify(account, null, 2);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `pasyans-${app.account.player}.json`;
  a.dataset.export = "1";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return account;
}

// the account deleted (``name``: typed again); this page signs out
export async function deleteAccount(name) {
  const reply = await conn.call("account_delete", { name });
  saveAccount(null);
  update({ account: null, signedIn: false });
  return reply;
}

function myRaceGameOver(race) {
  if (race.status === "finished") return true;
  const me = app.account && app.account.player;
  const row = (race.players || []).find((p) => p.player === me);
  return Boolean(row && (row.status === "won" || row.status === "lost"));
}

// the server's unasked frames: what each changes
const EVENTS = {
  race(event) {
    const { ev, ...race } = event;
    if (app.watching && event.race_id === app.watching.race.race_id) {
      update({ watching: { ...app.watching, race } });
    } else if (app.race && event.race_id === app.race.race_id) {
      update({ race });
      // the race says our game is over (ended, dropped, timed out) while the board
      // still shows it in play: the board fetches it now, not at the next move
      const game = app.game;
      if (game && game.state.mode === "race" && game.playing && myRaceGameOver(race)) game.refresh();
    }
  },
  // a tournament's standings or status changed (batched by the server)
  tournament(event) {
    const { ev, ...fields } = event;
    if (app.tournament && event.tournament_id === app.tournament.tournament_id) update({ tournament: { ...app.tournament, ...fields } });
  },
  race_board(event) {
    if (app.watching && event.race_id === app.watching.race.race_id) {
      const boards = { ...app.watching.boards, [event.player]: event.state };
      update({ watching: { ...app.watching, boards } });
    }
  },
  race_started(event) {
    if (app.race && event.race_id === app.race.race_id) openGame(event.state, { race: true });
  },
  // one of this player's games changed on another connection (another tab, device)
  game(event) {
    const game = app.game;
    if (game && game.state.game_id === event.game_id && event.seq > game.state.seq) game.refresh(event.seq);
  },
  challenge_result(event) {
    update({ notice: W.challenge.news(event.player, event.code) });
    loadUnread();
  },
  // a friend sent a race or a challenge: the inbox holds it
  // (a line that goes by itself after NEWS_MS; the inbox keeps it)
  invited(event) {
    const news = W.inbox.text(event.item);
    update({ unread: event.unread, news });
    setTimeout(() => app.news === news && update({ news: null }), NEWS_MS);
  },
  bye(event) {
    const why = event.key ? say(event.key, event.params || {}, event.reason) : event.reason;
    update({ banner: W.net.bye(why) });
  },
};

// ms: how long a friend's invite shows as a line over the page (then only the inbox)
const NEWS_MS = 8000;

export const conn = new Connection({
  onStatus: (text, offline = false) => update({ banner: text, offline: Boolean(text) && offline }),
  onOpen: async () => {
    app.opens += 1;
    await signIn();
    update();
    loadUnread();
    if (app.opens > 1) setTimeout(reconnected, 0);
  },
  onEvent: (event) => {
    const handle = EVENTS[event.ev];
    if (handle) handle(event);
  },
});

// after a reconnection: the game on the board as the server has it (a move whose
// answer was lost is never sent again: the player sees the board and decides)
async function reconnected() {
  if (app.game) {
    await app.game.resume();
    app.game.say(W.board.reconnected);
  }
  if (app.tournament && app.tournament.joined) {
    try {
      const reply = await conn.call("tournament_join", { code: app.tournament.code });
      update({ tournament: reply.tournament });
    } catch (err) {
      // the standings keep the last rows
    }
  }
  if (app.race && app.race.code) {
    try {
      const reply = await conn.call("race_join", { code: app.race.code });
      update({ race: reply.race });
    } catch (err) {
      // the race panel keeps the last rows
    }
  }
  update();
}

// the inbox's unread count, for the navigation
export async function loadUnread() {
  if (!app.signedIn) return;
  try {
    const reply = await conn.call("inbox", {});
    update({ unread: reply.unread });
  } catch (err) {
    // an older server has no inbox: no count
  }
}

export const parOf = (slug) => {
  const entry = app.daily && app.daily.games && app.daily.games[slug];
  return entry && entry.certified ? entry.par : null;
};

export function openGame(state, { race = false } = {}) {
  const game = new Game(conn, state, { par: parOf });
  game.considerFinish();
  update({ game });
  if (!race) go("game", state.game_id);
}

export async function start(slug, mode, extra = {}) {
  try {
    const reply = await conn.call("start", { game: slug, mode, ...extra });
    update({ notice: null });
    openGame(reply.state);
  } catch (err) {
    if (mode === "daily" && err.error && err.error.preparing) {
      // still being certified: it opens by itself once it is (the home screen asks)
      update({ startWhenReady: { [slug]: true }, notice: null });
      if (app.reloadHome) app.reloadHome();
      return;
    }
    update({ notice: err.message });
  }
}

// the games' titles, once: every screen names games by them
export async function loadGames() {
  const reply = await conn.call("games", {});
  const titles = {};
  for (const g of reply.games) titles[g.slug] = g;
  knowTitles(titles);
  update({ games: reply.games, titles });
}
