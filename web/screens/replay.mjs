// A replay (#replay/GAME_ID, #replay/SLUG/DATE for the par line, #replay/SLUG/DATE/PLAYER):
// it opens at move 0; play steps through by itself, or step by step, or the slider.
// The server plays every position (the page holds no rules).

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { StaticBoard } from "../board.mjs";
import { conn } from "../session.mjs";
import { Title, useAsk } from "../ui.mjs";
import { assistedNote, formatMove, modeDay, outcome, W } from "../words.mjs";

// ms a position shows while the replay plays
const PLAY_MS = 700;

export function Replay({ args }) {
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const params =
    args.length === 1 ? { game_id: args[0] } : { game: args[0], date: args[1], ...(args[2] ? { player: args[2] } : {}) };
  const key = args.join("/");
  const [whole, error] = useAsk(() => conn.call("replay", params), [key]);
  const total = whole ? whole.replay.moves : 0;
  const at = Math.min(step, total);
  const [position] = useAsk(
    () => (whole ? conn.call("replay", { ...params, step: at }) : Promise.resolve(null)),
    [key, at, Boolean(whole)],
  );
  const pos = position && position.position;
  // playing: the next step once this one is drawn
  useEffect(() => {
    if (!playing || !pos || pos.step !== at) return undefined;
    if (at >= total) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => setStep(at + 1), PLAY_MS);
    return () => clearTimeout(timer);
  }, [playing, pos, at, total]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!whole) return html`<p class="loading">…</p>`;
  const r = whole.replay;
  const go = (n) => {
    setPlaying(false);
    setStep(Math.max(0, Math.min(total, n)));
  };
  const R = W.replay;
  return html`<section class="replay" data-step=${pos ? pos.step : ""} data-moves=${total}>
    <h1>${R.title} · <${Title} slug=${r.game} /> <small>${modeDay(r.mode, r.date)}${r.player ? ` · ${r.player}` : r.player === "" ? ` · ${W.race.left}` : ""}</small></h1>
    <p data-assisted=${r.assisted ? "1" : "0"}>${outcome(r)} · ${r.foundation}/${r.total} · ${W.count.moves(r.moves)}${assistedNote(r)}${r.seed !== null && r.seed !== undefined ? ` · ${W.end.seed(String(r.seed))}` : ""}</p>
    <div class="stepper">
      <button data-do="first" aria-label=${R.first} title=${R.first} onClick=${() => go(0)} disabled=${at === 0}>|◀</button>
      <button data-do="back" aria-label=${R.back} title=${R.back} onClick=${() => go(at - 1)} disabled=${at === 0}>◀</button>
      <button data-do="play" class="primary" aria-pressed=${String(playing)} onClick=${() => (playing ? setPlaying(false) : (at >= total && setStep(0), setPlaying(true)))}>${playing ? R.pause : R.play}</button>
      <button data-do="forward" aria-label=${R.forward} title=${R.forward} onClick=${() => go(at + 1)} disabled=${at === total}>▶</button>
      <button data-do="last" aria-label=${R.last} title=${R.last} onClick=${() => go(total)} disabled=${at === total}>▶|</button>
      <label class="field slider">${R.step}
        <input type="range" data-field="step" min="0" max=${total} value=${at} onInput=${(e) => go(Number(e.target.value))} />
      </label>
      <span class="at" aria-live="polite">${R.at(at, total)}${pos && pos.move ? ` · ${formatMove(pos.move, pos.view.piles, { card: false })}` : ""}</span>
    </div>
    ${pos ? html`<div data-status=${pos.status}><${StaticBoard} view=${pos.view} move=${pos.move} tall=${true} /></div>` : html`<p class="loading">…</p>`}
  </section>`;
}
