// The screen is the page's hash: #home, #game/ID, #race/CODE, #watch/CODE,
// #challenge/CODE, #leaderboard/SLUG[/DATE], #replay/…, #stats[/PLAYER], #history,
// #friends, #account, #tournaments, #tournament/CODE. `go` changes it; the store's
// `route` follows it.

import { app, update } from "./store.mjs";

export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  return { name: parts[0] || "home", args: parts.slice(1) };
}

export function go(...parts) {
  const hash = `#${parts.map(encodeURIComponent).join("/")}`;
  if (location.hash === hash) update({ route: parseRoute(hash) });
  else location.hash = hash;
}

app.route = parseRoute(location.hash);
// a line of news (an invite) never stays over the game, race or challenge it announced
const PLAYING = new Set(["game", "race", "challenge", "watch", "tournament"]);
window.addEventListener("hashchange", () => {
  const route = parseRoute(location.hash);
  update(PLAYING.has(route.name) ? { route, news: null } : { route });
});
