// The screen is the page's hash: #home, #game/ID, #race/CODE, #watch/CODE,
// #challenge/CODE, #leaderboard/SLUG[/DATE], #replay/…, #stats[/PLAYER], #history,
// #friends, #account. `go` changes it; the store's `route` follows it.

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
window.addEventListener("hashchange", () => update({ route: parseRoute(location.hash) }));
