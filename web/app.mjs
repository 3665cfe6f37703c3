// The web client's shell: the screen for the page's hash (route.mjs), the site's
// navigation, the banner while the connection comes back, the cards' symbols, and the
// service worker that lets the page open offline (and be installed as an app). The
// server holds every rule; this page shows its answers.

import { html, render, useEffect, useState } from "./vendor/preact-htm.mjs";
import { Sprite } from "./cards.mjs";
import { Account } from "./screens/account.mjs";
import { Challenge } from "./screens/challenge.mjs";
import { GameScreen } from "./screens/game.mjs";
import { Home } from "./screens/home.mjs";
import { Leaderboard } from "./screens/leaderboard.mjs";
import { Calendar } from "./screens/calendar.mjs";
import { Friends, Inbox } from "./screens/friends.mjs";
import { History, Stats } from "./screens/me.mjs";
import { Race, Watch } from "./screens/race.mjs";
import { Replay } from "./screens/replay.mjs";
import { SignIn } from "./screens/signin.mjs";
import { conn, loadGames } from "./session.mjs";
import { app, CARD_BACKS, prefs, subscribe, update } from "./store.mjs";
import { W } from "./words.mjs";

function Nav() {
  const here = (name) => (app.route.name === name ? "page" : undefined);
  return html`<nav class="top" aria-label=${W.nav.label}>
    <a href="#home" class="brand" lang="ru">${W.brand}</a>
    <a href="#home" aria-current=${here("home")}>${W.nav.home}</a>
    <a href="#leaderboard" aria-current=${here("leaderboard")}>${W.nav.leaderboards}</a>
    <a href="#history" aria-current=${here("history")}>${W.nav.history}</a>
    <a href="#stats" aria-current=${here("stats")}>${W.nav.stats}</a>
    <a href="#friends" aria-current=${here("friends")}>${W.nav.friends}</a>
    <a href="#inbox" aria-current=${here("inbox")} aria-label=${W.nav.unreadLabel(app.unread)} data-unread=${app.unread}>${W.nav.inbox}${W.nav.unread(app.unread)}</a>
    <a href="#account" class="me" aria-current=${here("account")} aria-label=${W.nav.account(app.account.player)} data-player=${app.account.player}>${app.account.player}</a>
  </nav>`;
}

function Screen() {
  const { name, args } = app.route;
  if (name === "game" && args[0]) return html`<${GameScreen} key=${args[0]} id=${args[0]} />`;
  if (name === "race" && args[0]) return html`<${Race} code=${args[0]} />`;
  if (name === "challenge" && args[0]) return html`<${Challenge} code=${args[0]} />`;
  if (name === "watch" && args[0]) return html`<${Watch} code=${args[0]} />`;
  if (name === "leaderboard") return html`<${Leaderboard} slug=${args[0] || (app.games[0] || {}).slug} date=${args[1]} />`;
  if (name === "replay") return html`<${Replay} args=${args} />`;
  if (name === "stats") return html`<${Stats} player=${args[0]} />`;
  if (name === "history") return html`<${History} />`;
  if (name === "friends") return html`<${Friends} />`;
  if (name === "inbox") return html`<${Inbox} />`;
  if (name === "calendar") return html`<${Calendar} slug=${args[0]} month=${args[1]} />`;
  if (name === "account") return html`<${Account} />`;
  return html`<${Home} />`;
}

function Body() {
  if (!app.games.length) return html`<main><p class="loading" role="status">${app.offline ? W.net.offlineBody : W.connecting}</p></main>`;
  if (app.account && !app.signedIn) return html`<main><p class="loading" role="status">${W.signingIn}</p></main>`;
  if (!app.account) return html`<${SignIn} />`;
  const news = app.news && app.route.name !== "inbox"
    ? html`<p class="news" role="status" data-news="1">${app.news} · <a href="#inbox" onClick=${() => update({ news: null })}>${W.inbox.see}</a></p>`
    : "";
  return html`<${Nav} />${news}<main><${Screen} /></main>`;
}

function App() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const off = subscribe(() => setTick((n) => n + 1));
    const ask = () => loadGames().catch(() => setTimeout(ask, 1000));
    ask();
    return off;
  }, []);
  const classes = document.documentElement.classList;
  classes.toggle("four-colour", prefs.fourColour);
  for (const back of CARD_BACKS) classes.toggle(`back-${back}`, prefs.cardBack === back);
  return html`<${Sprite} />${app.banner ? html`<div class="banner" role="status" data-banner="1">${app.banner}</div>` : ""}<${Body} />`;
}

const root = document.getElementById("app");
root.textContent = ""; // the page's "loading…", which render would keep
render(html`<${App} />`, root);
window.pasyans = { app, conn };

// the shell cached for offline use (sw.js); after the page is up, not before
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => {}));
}
