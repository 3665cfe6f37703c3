// Words the page shows: cards, moves, clocks, why a game ended, the share text.
// The same words as the terminal client (client/text.py, protocol/cards.py).

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = {
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
};

export const rankText = (code) => (code[0] === "T" ? "10" : code[0]);
export const pretty = (code) => (code ? rankText(code) + SUITS[code[1]] : "▒▒");
export const cardName = (code) =>
  code ? `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]]}` : "a face-down card";

export function plural(n, word) {
  return n === 1 ? `${n} ${word}` : `${n} ${word}s`;
}

// a move as the terminal client writes it: "T2 FA-D", "H C4 #1", "deal", "swap a=P1 b=P4"
export function formatMove(move) {
  if (!move) return "";
  if ("action" in move) {
    const params = Object.entries(move)
      .filter(([key]) => key !== "action")
      .map(([key, value]) => `${key}=${value === null ? "-" : value}`);
    return [move.action, ...params].join(" ");
  }
  let text = `${move.from} → ${move.to}`;
  if (move.index !== undefined && move.index !== null) text += ` (card ${move.index + 1})`;
  if (move.n !== undefined && move.n !== null) text += ` ×${move.n}`;
  return text;
}

export function clock(ms) {
  if (ms === null || ms === undefined) return "–";
  const seconds = Math.floor(Number(ms) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// why a game ended (the state's `out`), as every screen says it
export const OUT = {
  resigned: "resigned",
  timed_out: "given up: away too long",
  dropped: "dropped from the race",
  ended: "the race was ended",
  day_over: "the day was over",
};

export function outcome(game) {
  if (game.status === "won") return "won";
  if (game.status === "playing") return "in play";
  const why = OUT[game.out];
  return why ? `lost (${why})` : "lost: no move left";
}

// an assisted game (a hint, the solver's finish) ranks nowhere: every place its result
// shows says so (client/text.py ASSISTED, ASSISTED_LONG)
export const ASSISTED = "assisted";
export const ASSISTED_LONG = "assisted (the solver helped: not ranked)";
export const assistedNote = (game) => (game && game.assisted ? ` · ${ASSISTED_LONG}` : "");

export const SHARE_COMMITMENT = 12;

// A finished game's result to share: nothing that gives the deal away (client/text.py).
export function shareText(game, titles, { par = null, rank = null, of = null } = {}) {
  const names = (titles || {})[game.game] || {};
  const ru = names.title_ru || game.game;
  const en = names.title_en || "";
  const head = ["pasyans", en && en !== ru ? `${ru} (${en})` : ru];
  head.push(game.date ? `${game.mode} ${game.date}` : game.mode);
  const result = [
    outcome(game),
    `${game.foundation || 0}/${game.total || 0} cards`,
    plural(Number(game.moves || 0), "move") + (par !== null && par !== undefined ? ` (par ${par})` : ""),
    clock(game.time_ms),
  ];
  if (rank !== null && rank !== undefined) result.push(of ? `#${rank} of ${of}` : `#${rank}`);
  if (game.auto_completed) result.push("auto-completed");
  if (game.assisted) result.push(ASSISTED_LONG);
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

// sha256(seed as 8 big-endian bytes ‖ "YYYY-MM-DD:slug") in hex (docs/protocol.md)
export async function commitment(seed, date, slug) {
  const text = new TextEncoder().encode(`${date}:${slug}`);
  const bytes = new Uint8Array(8 + text.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(seed));
  bytes.set(text, 8);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
