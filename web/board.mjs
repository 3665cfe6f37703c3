// The board of any game, drawn from the server's view (piles with their layout cells
// `x`, `y`, how they fan, labels: layout.mjs) and played by the moves of `legal` only:
// no rules here. Clicks and taps, drag and drop, double-click to a foundation and the
// keys all end in the Game's queue (game.mjs); the behaviour is in hooks.mjs.

import { Component, html, useMemo, useRef, useState } from "./vendor/preact-htm.mjs";
import { Card } from "./cards.mjs";
import { EndPanel } from "./end.mjs";
import { useChanges, useDrag, useKeys, useMotion, useSize, useTick, useTiming } from "./hooks.mjs";
import { choose, hasLabel, layout } from "./layout.mjs";
import { lang } from "./i18n.mjs";
import { prefs } from "./store.mjs";
import { actionLabel, baseText, cardName, clock, formatMove, infoText, modeDay, pileTitle, pretty, W } from "./words.mjs";

// ms: the longest pause between two changes counted as play (the server's --idle-gap)
const IDLE_GAP_MS = 60000;

// what a pile is called aloud: the rank shown over it first, if any (a name holds the
// visible text from its start: "J (pile 4)"), its name, then what is on it
export function pileLabel(pile) {
  const cards = pile.cards;
  const title = pileTitle(pile);
  const shown = hasLabel(pile) ? pile.label : "";
  const name = shown && shown !== title ? `${shown} (${title})` : title;
  if (!cards.length) return W.board.emptyPile(name, baseText(pile.base));
  return W.board.pile(name, cardName(cards[cards.length - 1]), cards.length);
}

// an empty pile shows, faintly, what it takes: its base card ("A♠"), a foundation's
// short rule ("A↑", "5♠", "K→A"), else nothing (its name is spoken, never printed)
function slotText({ pile }) {
  if (pile.base && pile.base.length <= 3) return /^[A2-9TJQK][SHDC]$/.test(pile.base) ? pretty(pile.base) : baseText(pile.base);
  const label = pile.label || "";
  if (pile.kind === "foundation" && label.length <= 4 && !/^[A-Z]+\d/.test(label)) return label;
  return "";
}

// What a pile shows besides its cards: chosen, a target, playable, the last move's,
// the hint's, waiting for the server; and `chosen`: the index of its first card chosen.
function marks(pile, game, targets, sources, queued) {
  const id = pile.id;
  const source = Boolean(game.source && game.source.pid === id);
  return {
    source,
    target: targets.has(id),
    can: sources.has(id),
    last: Boolean(game.last && (game.last.from === id || game.last.to === id)),
    movedTo: Boolean(game.last && game.last.to === id),
    hinted: Boolean(game.hintMove && (game.hintMove.from === id || game.hintMove.to === id)),
    queued: queued.has(id),
    shake: game.shaking === id,
    chosen: source ? (game.source.index === null ? pile.cards.length - 1 : game.source.index) : Infinity,
  };
}

// A pile is drawn again only when it, its place or its marks changed (a move redraws
// two piles of a hundred, not the table).
class Pile extends Component {
  shouldComponentUpdate(next) {
    return next.place.pile !== this.props.place.pile || next.sig !== this.props.sig;
  }

  render({ place, gap, mark: m, onPointerDown }) {
    const { pile, spots } = place;
    const cls = ["pile", `kind-${pile.kind}`, `fan-${pile.fan}`];
    for (const flag of ["source", "target", "can", "last", "hinted", "queued", "shake"]) if (m[flag]) cls.push(flag);
    const orient = pile.orient === "v" ? "↕" : pile.orient === "h" ? "↔" : "";
    const shown = place.showsLabel ? pile.label : "";
    const count = pile.fan === "none" && pile.cards.length > 1 ? pile.cards.length : null;
    const empty = !pile.cards.length;
    const slot = empty ? slotText(place) || "" : "";
    return html`<div
      class=${cls.join(" ")}
      data-pile=${pile.id}
      tabindex="0"
      role="button"
      aria-label=${pileLabel(pile)}
      title=${pile.base ? `${pileTitle(pile)} · ${baseText(pile.base)}` : pileTitle(pile)}
      style=${{ left: `${place.left}px`, top: `${place.top}px`, width: `${place.width + gap}px`, height: `${place.label + place.height + 6}px` }}
      onPointerDown=${onPointerDown}
    >
      ${place.labelled ? html`<div class="label" aria-hidden="true" style=${{ width: `${place.labelRoom}px` }}>${shown}</div>` : ""}
      <div class="cards" style=${{ top: `${place.label}px` }} aria-hidden="true">
        ${empty ? html`<div class="slot" data-text=${slot} data-long=${slot.length > 3 ? "1" : undefined}></div>` : ""}
        ${spots.map(
          (s, n) => html`<${Card}
            key=${s.i}
            code=${pile.cards[s.i]}
            index=${s.i}
            x=${s.x}
            y=${s.y}
            whole=${n === spots.length - 1}
            chosen=${s.i >= m.chosen}
            moved=${m.movedTo && n === spots.length - 1}
          />`,
        )}
        ${count ? html`<span class="count" data-count=${count}></span>` : ""}
        ${orient ? html`<span class="orient" data-mark=${orient}></span>` : ""}
      </div>
    </div>`;
  }
}

// everything a pile is drawn from, but the pile itself, in one string
const signature = (place, table, m) =>
  [place.left, place.top, place.width, place.height, place.label, place.labelRoom, place.showsLabel, table.w, table.gap,
    place.spots.map((s) => `${s.x},${s.y}`).join(" "), Object.values(m).join(",")].join("|");

// The piles laid out on the table: shared by the board and the still boards (replays,
// a race watched).
function Table({ game, table, tableRef, targets, sources, queued, onPointerDown }) {
  const style = { width: `${table.width}px`, height: `${table.height}px`, "--cw": `${table.w}px`, "--ch": `${table.h}px`, "--f": `${table.font}px`, "--label": `${table.label}px`, "--gap": `${table.gap}px` };
  // data-room: the board's size this table was laid out for (the tests wait for it)
  return html`<div class="table" ref=${tableRef} style=${style} data-arrangement=${table.arrangement} data-room=${`${table.room.width}x${table.room.height}`}>
    ${table.placed.map((place) => {
      const m = marks(place.pile, game, targets, sources, queued);
      return html`<${Pile} key=${place.pile.id} place=${place} gap=${table.gap} mark=${m} sig=${signature(place, table, m)} onPointerDown=${onPointerDown} />`;
    })}
  </div>`;
}

// the table laid out for the room of the board element `ref` points at
function useTable(ref, piles, key, view) {
  const room = useSize(ref);
  const chosen = useMemo(
    () => (room.width ? choose(piles, room, view) : null),
    [key, room.width, room.height, view.zoom, view.fit],
  );
  return chosen ? { ...layout(piles, room, chosen), room } : null;
}

function Clock({ game }) {
  useTick(1000, game.playing);
  const s = game.state;
  let ms = Number(s.time_ms || 0);
  // run on by at most what the pause the server already counts leaves (docs/protocol.md)
  const left = s.idle_left_ms ?? IDLE_GAP_MS;
  if (s.status === "playing") ms += Math.max(0, Math.min(left, performance.now() - game.received));
  return html`<span class="clock">${clock(ms)}</span>`;
}

function Zoom({ view, setView }) {
  return html`<span class="zoom" role="group" aria-label=${W.board.table}>
    <button data-do="zoom-out" aria-label=${W.board.zoomOut} title=${W.board.zoomOut} onClick=${() => setView({ zoom: view.zoom - 1, fit: false })}>−</button>
    <button data-do="zoom-fit" aria-label=${W.board.zoomFit} title=${W.board.zoomFit} aria-pressed=${String(view.fit)} onClick=${() => setView({ zoom: 0, fit: !view.fit })}>⤢</button>
    <button data-do="zoom-in" aria-label=${W.board.zoomIn} title=${W.board.zoomIn} onClick=${() => setView({ zoom: view.zoom + 1, fit: false })}>+</button>
  </span>`;
}

// A list that opens from a button (More, an action's many ways): fixed above the button
// (so no scrolling box around it clips it; no taller than the room there: it scrolls),
// its right edge at the button's, or its left edge when there is no room on the left;
// closed once one of its items is chosen.
function placeList(event) {
  const details = event.currentTarget;
  const list = details.querySelector(".more-list");
  if (!details.open || !list) return;
  const at = details.querySelector("summary").getBoundingClientRect();
  Object.assign(list.style, {
    position: "fixed",
    bottom: `${innerHeight - at.top + 4}px`,
    maxHeight: `${Math.max(120, at.top - 8)}px`,
    right: `${innerWidth - at.right}px`,
    left: "auto",
  });
  if (list.getBoundingClientRect().left < 0) Object.assign(list.style, { left: `${Math.max(0, at.left)}px`, right: "auto" });
}
const closeList = (event) => {
  if (event.target.closest("[data-closes]")) event.currentTarget.closest("details").open = false;
};

// The game's actions (deal, shift, pick up…) as buttons; an action offered several
// ways (Hand Reserve's pick-up of each column) as one button opening its list.
function ActionButtons({ game }) {
  const actions = game.actions();
  const groups = new Map();
  actions.forEach((m, i) => groups.set(m.action, [...(groups.get(m.action) || []), [m, i]]));
  const button = (m, i, label) => html`<button class="action primary" data-closes="1" data-action=${m.action} data-action-index=${i} onClick=${() => game.pick(m)}>${label}</button>`;
  return [...groups.entries()].map(([name, list]) =>
    list.length <= 2
      ? list.map(([m, i]) => button(m, i, actionLabel(m, game.piles)))
      : html`<details class="more action-group" data-group=${name} onToggle=${placeList}>
          <summary class="primary">${W.board.actionMenu(actionLabel({ action: name }))}</summary>
          <div class="more-list" onClick=${closeList}>${list.map(([m, i]) => button(m, i, actionLabel(m, game.piles)))}</div>
        </details>`,
  );
}

function Actions({ game, onRules, onNew, onRestart, view, setView }) {
  const s = game.state;
  const askHint = () => {
    if (game.ranked && !game.hintAsked && !window.confirm(W.board.hintAsk)) return;
    game.hint();
  };
  const askResign = () => {
    if (window.confirm(W.board.resignAsk)) game.resign();
  };
  return html`<div class="actions">
    ${game.playing
      ? html`
          <${ActionButtons} game=${game} />
          <button data-do="undo" onClick=${() => game.undo()}>${W.board.undo}</button>
          ${s.mode !== "race" && s.hints !== false ? html`<button data-do="hint" onClick=${askHint}>${W.board.hint}</button>` : ""}
          ${prefs.safeAfter ? "" : html`<button data-do="safe" onClick=${() => game.askSafe()}>${W.board.safe}</button>`}
          ${game.finishOffer !== null
            ? html`<button data-do="finish" class="primary" onClick=${() => game.finish()}>${W.board.finishN(game.finishOffer)}</button>`
            : !s.ranked && s.mode !== "race" && s.mode !== "tournament"
              ? html`<button data-do="finish" title=${W.board.finishTitle} onClick=${() => game.finish()}>${W.board.finish}</button>`
              : ""}`
      : ""}
    <details class="more" onToggle=${placeList}>
      <summary data-do="more">${W.board.more}</summary>
      <div class="more-list" onClick=${closeList}>
        <${Zoom} view=${view} setView=${setView} />
        ${game.playing
          ? html`<label class="toggle"><input type="checkbox" data-field="safe-after" checked=${prefs.safeAfter} onChange=${(e) => (prefs.safeAfter = e.target.checked)} /> ${W.board.safeAfter}</label>
              <label class="toggle"><input type="checkbox" data-field="sound" checked=${prefs.sound} onChange=${(e) => (prefs.sound = e.target.checked)} /> ${W.board.sound}</label>
              <label class="toggle"><input type="checkbox" data-field="haptics" checked=${prefs.haptics} onChange=${(e) => (prefs.haptics = e.target.checked)} /> ${W.board.haptics}</label>
              <button data-do="resign" data-closes="1" onClick=${askResign}>${W.board.resign}</button>`
          : ""}
        ${onRestart ? html`<button data-do="restart" data-closes="1" onClick=${onRestart}>${W.board.restart}</button>` : ""}
        ${onNew ? html`<button data-do="new" data-closes="1" title=${W.board.newGameTitle} onClick=${onNew}>${W.board.newGame}</button>` : ""}
        <button data-do="rules" data-closes="1" onClick=${onRules}>${W.board.rules}</button>
      </div>
    </details>
  </div>`;
}

export function Board({ game, titles, onLeave, onRules, onNew, onRestart, onNext, side }) {
  useChanges(game);
  const boardRef = useRef(null);
  const tableRef = useRef(null);
  const [view, setView] = useState({ zoom: 0, fit: false });
  const [typed, setTyped] = useState("");
  const [endHidden, setEndHidden] = useState(false);
  useKeys(game, { onTyped: setTyped });
  const { onPointerDown, dragged } = useDrag(game, boardRef);
  useMotion(game, tableRef);
  useTiming(game);
  const table = useTable(boardRef, game.piles, game.state.game_id, view);
  const targets = game.targets();
  const sources = game.playing && !game.inflight ? game.sources() : new Set();
  const queued = new Set(game.queue.map((q) => q.pid).filter(Boolean));
  const s = game.state;

  const whereIs = (event) => {
    const card = event.target.closest("[data-index]");
    const pile = event.target.closest("[data-pile]");
    return { pid: pile ? pile.dataset.pile : null, index: card ? Number(card.dataset.index) : null };
  };
  const onClick = (event) => {
    // the second click of a double-click is not a second tap: the first one already
    // sent the card home, and this one would send the card it uncovered after it
    if (dragged() || event.detail > 1) return;
    const { pid, index } = whereIs(event);
    if (!pid) return;
    game.pointerAt = performance.now();
    game.choose(pid, index);
  };
  const onDblClick = (event) => {
    if (prefs.tapHome) return; // its first click did it (or chose the card: no home)
    const { pid, index } = whereIs(event);
    if (pid && index !== null) game.toFoundation(pid, index);
  };

  const title = (titles || {})[s.game] || {};
  // the game's own counters (redeals left, the pass…); a flag only while it is set
  const piles = (s.view && s.view.piles) || [];
  const info = Object.entries((s.view && s.view.info) || {})
    .filter(([, v]) => typeof v !== "object" || Array.isArray(v))
    .map(([k, v]) => infoText(k, v, piles))
    .filter(Boolean);
  const mode = [modeDay(s.mode, s.date), s.ranked ? `· ${W.board.ranked}` : "", s.assisted ? `· ${W.board.assisted}` : ""];
  return html`<section
    class=${`game${side ? " has-side" : ""}`}
    data-game-id=${s.game_id}
    data-status=${s.status}
    data-seq=${s.seq}
    data-busy=${game.inflight || game.waiting ? "1" : "0"}
  >
    <header class="game-head">
      <button class="link home" data-do="home" onClick=${onLeave}>${W.board.home}</button>
      <h1 lang=${lang === "ru" ? "ru" : "en"}>${(lang === "ru" ? title.title_ru : title.title_en) || title.title_ru || s.game}</h1>
      <span class="counters">
        <span class="mode" data-assisted=${s.assisted ? "1" : "0"}>${mode.filter(Boolean).join(" ")}</span>
        <span>${W.board.counters(s.foundation, s.total)}</span>
        <span>${W.count.moves(Number(s.moves || 0))}</span>
        <${Clock} game=${game} />
        ${info.map((text) => html`<span class="info">${text}</span>`)}
      </span>
    </header>
    <div class="board-wrap">
      <div
        class="board"
        ref=${boardRef}
        role="group"
        aria-label=${W.board.table}
        aria-describedby="board-keys"
        onClick=${onClick}
        onDblClick=${onDblClick}
      >
        ${table
          ? html`<${Table} game=${game} table=${table} tableRef=${tableRef} targets=${targets} sources=${sources} queued=${queued} onPointerDown=${onPointerDown} />`
          : ""}
      </div>
      ${s.status !== "playing"
        ? endHidden
          ? html`<button class="show-end primary" data-do="show-end" onClick=${() => setEndHidden(false)}>${W.end.back}</button>`
          : html`<${EndPanel} game=${game} titles=${titles} onLeave=${onLeave} onNew=${onNew} onNext=${onNext} onHide=${() => setEndHidden(true)} />`
        : ""}
    </div>
    ${side ? html`<div class="side">${side}</div>` : ""}
    <div class="bar">
      <p class="message" role="status">${game.message}${typed ? html` <kbd>${typed}</kbd>` : ""}${game.waiting ? html` <span class="queued-note">${W.board.queued(game.waiting)}</span>` : ""}</p>
      <p id="board-keys" class="keys">${W.board.keys}</p>
      ${game.choices
        ? html`<div class="choices">${game.choices.map((m) => html`<button onClick=${() => game.pick(m)}>${formatMove(m, game.piles)}</button>`)}</div>`
        : ""}
      <${Actions} game=${game} onRules=${onRules} onNew=${onNew} onRestart=${onRestart} view=${view} setView=${setView} />
    </div>
  </section>`;
}

// A position drawn read-only (replays, a race watched): the same layout, no moves.
export function StaticBoard({ view, move = null, tall = false }) {
  const ref = useRef(null);
  const still = { source: null, last: move, hintMove: null };
  const table = useTable(ref, view.piles, "still", { zoom: 0, fit: false });
  const none = new Set();
  return html`<div class=${`board still${tall ? " tall" : ""}`} ref=${ref} role="group" aria-label=${W.board.table}>
    ${table ? html`<${Table} game=${still} table=${table} targets=${none} sources=${none} queued=${none} />` : ""}
  </div>`;
}
