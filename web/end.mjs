// The end of a game, over its board: the result (a win gets a moment of its own), the
// share text, a challenge to a friend on the same deal, a new game.

import { html, useEffect, useRef, useState } from "./vendor/preact-htm.mjs";
import { reducedMotion } from "./hooks.mjs";
import { _, lang } from "./i18n.mjs";
import { clock, modeDay, outcome, utcMinute, W } from "./words.mjs";

export const SHARE_COMMITMENT = 12;

// A finished game's result to share: nothing that gives the deal away (client/text.py).
export function shareText(game, titles, { par = null, rank = null, of = null } = {}) {
  const names = (titles || {})[game.game] || {};
  const ru = names.title_ru || game.game;
  const en = names.title_en || "";
  // in English both titles (the Russian one first), in Russian the Russian one
  const head = [W.brandLatin, lang !== "ru" && en && en !== ru ? `${ru} (${en})` : ru];
  head.push(modeDay(game.mode, game.date));
  const result = [
    outcome(game),
    _("{home}/{total} cards", { home: game.foundation || 0, total: game.total || 0 }),
    W.count.moves(Number(game.moves || 0)) + (par !== null && par !== undefined ? _(" (par {par})", { par }) : ""),
    clock(game.time_ms),
  ];
  if (rank !== null && rank !== undefined) result.push(of ? _("#{rank} of {of}", { rank, of }) : `#${rank}`);
  if (game.auto_completed) result.push(_("auto-completed"));
  if (game.assisted) result.push(W.assistedLong);
  const lines = [head.filter(Boolean).join(" · "), result.join(" · ")];
  const commitment = (game.deal && game.deal.commitment) || game.commitment;
  if (commitment && game.date) lines.push(_("commitment {commitment}…", { commitment: String(commitment).slice(0, SHARE_COMMITMENT) }));
  return lines.join("\n");
}

const BURST = 18; // suits thrown up by a win
const SUIT_KEYS = ["S", "H", "D", "C"];

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    return false;
  }
}

// a handful of suits flying up from the middle, once (nothing with reduced motion)
function Burst() {
  const ref = useRef(null);
  useEffect(() => {
    const box = ref.current;
    if (!box || reducedMotion()) return;
    for (let i = 0; i < BURST; i++) {
      const suit = SUIT_KEYS[i % 4];
      const bit = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      bit.setAttribute("viewBox", "0 0 100 100");
      bit.setAttribute("class", `bit ${suit === "H" || suit === "D" ? "red" : "black"}`);
      const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
      use.setAttribute("href", `#suit-${suit}`);
      bit.appendChild(use);
      box.appendChild(bit);
      const angle = (Math.PI * 2 * i) / BURST;
      const far = 90 + (i % 3) * 40;
      bit.animate(
        [
          { transform: "translate(0, 0) scale(.4) rotate(0deg)", opacity: 1 },
          { transform: `translate(${Math.cos(angle) * far}px, ${Math.sin(angle) * far - 40}px) scale(1) rotate(${i * 40}deg)`, opacity: 0 },
        ],
        { duration: 1400 + (i % 4) * 150, easing: "cubic-bezier(.1,.8,.3,1)", fill: "forwards" },
      );
    }
  }, []);
  return html`<div class="burst" ref=${ref} aria-hidden="true"></div>`;
}

// "Challenge a friend": a challenge made of this finished game, its link to send
function ChallengeFriend({ game }) {
  const [made, setMade] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const make = async () => {
    setBusy(true);
    setError("");
    try {
      const reply = await game.conn.call("challenge_create", { game_id: game.state.game_id });
      setMade(reply.challenge);
    } catch (err) {
      setError(err.message);
    }
    setBusy(false);
  };
  if (!made) {
    return html`<button data-do="challenge-make" disabled=${busy} onClick=${make}>${busy ? W.end.challengeMaking : W.end.challenge}</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}`;
  }
  const link = `${location.origin}/${made.link}`;
  const share = async () => {
    if (navigator.share) {
      try {
        await navigator.share({ url: link });
        return;
      } catch (err) {
        // the player closed the share sheet: copying still works
      }
    }
    setCopied(await copyText(link));
  };
  return html`<div class="challenge-made" data-challenge-link=${link}>
    <p>${W.end.challengeLink}</p>
    <p><a href=${`#challenge/${made.code}`}>${link}</a></p>
    ${made.opens !== null && made.opens !== undefined ? html`<p class="note" data-opens="1">${W.end.challengeOpens(utcMinute(made.opens))}</p>` : ""}
    <button data-do="challenge-copy" onClick=${share}>${copied ? W.copied : navigator.share ? W.end.share : W.copy}</button>
  </div>`;
}

export function EndPanel({ game, titles, onLeave, onNew, onNext, onHide }) {
  const s = game.state;
  const [rank, setRank] = useState(null);
  const [copied, setCopied] = useState(false);
  const won = s.status === "won";
  const moment = won && game.justWon;
  const heading = useRef(null);
  useEffect(() => {
    if (heading.current) heading.current.focus();
  }, []);
  useEffect(() => {
    if (s.mode !== "daily" || !s.date || !s.ranked) return;
    game.conn
      .call("leaderboard", { game: s.game, board: "daily", date: s.date, around_me: true, limit: 1 })
      .then((reply) => reply.me && setRank({ rank: reply.me.rank, of: reply.total }))
      .catch(() => {});
  }, [s.game_id]);
  const par = game.context.par ? game.context.par(s.game) : null;
  const text = shareText(s, titles, { par, rank: rank && rank.rank, of: rank && rank.of });
  const next = onNext ? onNext() : null; // (the next game, asked once the game is over)
  return html`<aside class=${`end${moment ? " moment" : ""}`} data-end=${s.status} aria-labelledby="end-title">
    ${moment ? html`<${Burst} />` : ""}
    <h2 id="end-title" tabindex="-1" ref=${heading}>${won ? W.end.won : outcome(s)}</h2>
    <p>${W.end.line(s.foundation, s.total, Number(s.moves || 0), par, clock(s.time_ms), rank)}</p>
    ${s.assisted ? html`<p class="note" data-assisted="1">${W.end.assisted}</p>` : ""}
    ${s.deal && s.deal.seed !== null && s.deal.seed !== undefined ? html`<p class="seed">${W.end.seed(String(s.deal.seed))}</p>` : ""}
    <pre class="share">${text}</pre>
    <div class="end-actions">
      <button data-do="copy" onClick=${async () => setCopied(await copyText(text))}>${copied ? W.copied : W.end.copy}</button>
      ${next ? html`<button class="primary" data-do="next" onClick=${next.go}>${W.end.next(next.title)}</button>` : ""}
      ${onNew ? html`<button class=${next ? "" : "primary"} data-do="new-end" onClick=${onNew}>${W.end.newGame}</button>` : ""}
      <button data-do="end-home" onClick=${onLeave}>${W.end.home}</button>
      <button data-do="look" onClick=${onHide}>${W.end.look}</button>
      ${s.mode === "tournament" ? "" : html`<${ChallengeFriend} game=${game} />`}
    </div>
  </aside>`;
}
