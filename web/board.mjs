// The board of any game, drawn from the server's view (piles with their layout cells
// `x`, `y`, how they fan, labels) and played by the moves of `legal` only: no rules here.
//
// `Game` holds one game as the server has it (kept by delta replies, the same rule as
// protocol/delta.py) and what the player is choosing; `Board` draws it. Clicks/taps,
// drag and drop (pointer events), double-click to a foundation and typed pile ids
// all end in `Game.play(move)` with a move exactly as `legal` lists it.

import { html, useEffect, useRef, useState } from "./vendor/preact-htm.mjs";
import { applyDelta, DeltaGap, Lost, ServerError } from "./net.mjs";
import { ASSISTED_LONG, cardName, clock, formatMove, outcome, plural, pretty, shareText } from "./words.mjs";

// piles whose lower cards never play show only their last cards (client/drawing.py)
const SHORT_KINDS = new Set(["waste", "foundation", "discard"]);
const SHORT_CARDS = 8;
// the server is asked whether it can finish the game once this share of cards is home
const FINISH_FROM = 2 / 3;
// a pointer moved this far (px) from where it went down drags instead of clicking
const DRAG_FROM = 6;
const LABEL_HEIGHT = 15;
const ROW_GAP = 8;
const IDLE_GAP_MS = 60000;

export const prefs = {
  get safeAfter() {
    return localStorage.getItem("pasyans.safeAfter") === "1";
  },
  set safeAfter(on) {
    localStorage.setItem("pasyans.safeAfter", on ? "1" : "0");
  },
};

export class Game {
  // conn: a Connection; context: {titles, par, onEnd}; onChange: redraw
  constructor(conn, state, context = {}) {
    this.conn = conn;
    this.state = state;
    this.context = context;
    this.onChange = () => {};
    this.source = null; // {pid, index}
    this.choices = null; // several moves between the same two piles: the player picks
    this.message = "";
    this.busy = false;
    this.last = null; // the last move played (highlighted)
    this.finishOffer = null;
    this.noFinishAt = null;
    this.hintMove = null;
    this.hintAsked = false;
    this.received = performance.now();
    this.pointerAt = null; // performance.now() of the last click or drop on the board
    this.clickedAt = null; // that of the click whose move's answer is being drawn
  }

  get legal() {
    return this.state.legal || [];
  }
  get piles() {
    return (this.state.view && this.state.view.piles) || [];
  }
  get playing() {
    return this.state.status === "playing";
  }
  pile(pid) {
    return this.piles.find((p) => p.id === pid);
  }
  sources() {
    return new Set(this.legal.filter((m) => "from" in m).map((m) => m.from));
  }
  movesFrom(pid, index = null) {
    const moves = this.legal.filter((m) => m.from === pid);
    if (index === null || index === undefined) return moves;
    const pile = this.pile(pid);
    const top = pile ? pile.cards.length - 1 : -1;
    return moves.filter((m) => (m.index ?? top) === index);
  }
  // the card moves the chosen source (or a source given) can make
  targets(source = this.source) {
    if (!source) return new Set();
    return new Set(this.movesFrom(source.pid, source.index).map((m) => m.to));
  }
  actions() {
    return this.legal.filter((m) => "action" in m);
  }

  say(text) {
    this.message = text;
    this.changed();
  }
  changed() {
    this.onChange();
  }

  setState(state) {
    const ended = this.playing && state.status !== "playing";
    this.state = state;
    this.received = performance.now();
    this.source = null;
    this.choices = null;
    this.hintMove = null;
    if (state.status !== "playing") this.finishOffer = null;
    this.changed();
    if (ended && this.context.onEnd) this.context.onEnd(this);
  }

  // -- choosing ---------------------------------------------------------------

  async choose(pid, index = null) {
    if (!this.playing) return this.say("the game is over");
    if (this.busy) return;
    this.choices = null;
    if (!this.source) return this.chooseSource(pid, index);
    if (pid === this.source.pid && (index === null || index === this.source.index)) {
      this.source = null;
      return this.say("");
    }
    if (this.targets().has(pid)) {
      const moves = this.movesFrom(this.source.pid, this.source.index).filter((m) => m.to === pid);
      if (moves.length === 1) return this.play(moves[0]);
      this.choices = moves;
      return this.say("which move?");
    }
    if (this.sources().has(pid)) return this.chooseSource(pid, index);
    this.say(`no legal move from ${this.source.pid} to ${pid}`);
  }

  async chooseSource(pid, index) {
    let moves = this.movesFrom(pid, index);
    if (!moves.length && index !== null) {
      moves = this.movesFrom(pid);
      index = null;
    }
    if (moves.length) {
      this.source = { pid, index };
      return this.say("");
    }
    const actions = this.actions();
    const pile = this.pile(pid);
    if (pile && pile.kind === "stock" && actions.length === 1) return this.play(actions[0]);
    this.say(`no legal move starts from ${pid}`);
  }

  // double-click: the card to a foundation, when exactly that move is legal
  async toFoundation(pid, index) {
    if (!this.playing || this.busy) return;
    const home = (moves) =>
      moves.filter((m) => (this.pile(m.to) || {}).kind === "foundation");
    let moves = home(this.movesFrom(pid, index));
    if (!moves.length && index !== null) moves = home(this.movesFrom(pid));
    if (moves.length === 1) return this.play(moves[0]);
    this.say(moves.length ? "more than one foundation takes it: drag it" : "no foundation takes it");
  }

  // a drag ended on pile `to`
  async dropped(from, index, to) {
    if (from === to) return;
    let moves = this.movesFrom(from, index).filter((m) => m.to === to);
    if (!moves.length) moves = this.movesFrom(from).filter((m) => m.to === to);
    if (moves.length === 1) return this.play(moves[0]);
    if (moves.length > 1) {
      this.choices = moves;
      return this.say("which move?");
    }
    this.source = null;
    this.say(`no legal move from ${from} to ${to}`);
  }

  // -- requests ---------------------------------------------------------------

  // one request for this game at a time; the reply's state or delta becomes the board
  async send(op, params, { delta = true } = {}) {
    if (this.busy) return null;
    this.busy = true;
    const gid = this.state.game_id;
    try {
      const args = { game_id: gid, ...params };
      if (delta) args.reply = "delta";
      const reply = await this.conn.call(op, args);
      if (reply.delta) {
        try {
          this.setState(applyDelta(this.state, reply.delta));
        } catch (err) {
          if (!(err instanceof DeltaGap)) throw err;
          this.busy = false;
          await this.resume();
        }
        // a delta carries no deal: a game that ended is asked for whole
        if (reply.delta.status !== "playing") {
          this.busy = false;
          await this.resume();
        }
      } else if (reply.state) {
        this.setState(reply.state);
      }
      return reply;
    } catch (err) {
      this.busy = false;
      await this.refused(err);
      return null;
    } finally {
      this.busy = false;
    }
  }

  async refused(err) {
    if (err instanceof ServerError) {
      if (err.state) this.setState(err.state);
      else if (err.code !== "illegal_move" && err.code !== "forbidden") await this.resume();
      this.say(
        err.code === "stale_seq"
          ? "the game moved on elsewhere: the board is up to date again"
          : `${err.message} (${err.code})`,
      );
    } else if (err instanceof Lost) {
      this.say("connection lost: the board comes back as the server has it…");
    } else {
      this.say(String(err));
    }
  }

  // the game as the server has it (after a gap, a refusal, a reconnection)
  async resume() {
    try {
      const reply = await this.conn.call("resume", { game_id: this.state.game_id });
      this.setState(reply.state);
      return true;
    } catch (err) {
      this.say(`could not fetch the game: ${err.message}`);
      return false;
    }
  }

  async play(move) {
    const clicked = this.pointerAt ?? performance.now();
    this.pointerAt = null;
    const reply = await this.send("move", { seq: this.state.seq, move });
    if (!reply) return false;
    this.clickedAt = clicked;
    this.last = move;
    this.say(formatMove(move));
    if (prefs.safeAfter && this.playing) await this.safe(formatMove(move));
    this.considerFinish();
    return true;
  }

  async undo() {
    const reply = await this.send("undo", { seq: this.state.seq });
    if (reply) {
      this.last = null;
      this.say("undone");
    }
  }

  async resign() {
    const reply = await this.send("resign", {}, { delta: false });
    if (reply) this.say("resigned");
  }

  async safe(after = "") {
    if (!this.playing) return;
    const reply = await this.send("auto", { seq: this.state.seq });
    if (!reply) return;
    const played = reply.played || [];
    const said = after ? `${after} · ` : "";
    if (played.length) {
      this.last = played[played.length - 1];
      this.say(`${said}played ${plural(played.length, "safe move")}: ${played.map(formatMove).join(", ")}`);
    } else if (!after) {
      this.say("no safe move now (the rules page says which moves this game counts safe)");
    }
    this.considerFinish();
  }

  get ranked() {
    return Boolean(this.state.ranked);
  }

  async hint() {
    try {
      const reply = await this.conn.call("hint", { game_id: this.state.game_id });
      this.hintAsked = true;
      this.state = { ...this.state, ranked: false, assisted: true };
      if (reply.move) {
        this.hintMove = reply.move;
        this.say(`hint: ${formatMove(reply.move)}`);
      } else {
        this.say(reply.message || "no win found from here");
      }
    } catch (err) {
      this.say(`${err.message}${err.code ? ` (${err.code})` : ""}`);
    }
  }

  considerFinish() {
    const s = this.state;
    const founded = Number(s.foundation || 0);
    const total = Number(s.total || 0);
    if (!this.playing || s.mode === "race" || !total || founded < total * FINISH_FROM) return;
    if (founded === this.noFinishAt) return;
    const seq = s.seq;
    this.conn
      .call("finish", { game_id: s.game_id, seq, check: true })
      .then((reply) => {
        if (this.state.seq !== seq || !this.playing) return;
        if (reply.certain) {
          this.finishOffer = reply.moves ?? 0;
          this.say("the server can finish this game for you");
        } else {
          this.noFinishAt = founded;
        }
      })
      .catch(() => {});
  }

  async finish() {
    const reply = await this.send("finish", { seq: this.state.seq });
    if (reply) this.say(`auto-completed: the server played the last ${plural((reply.played || []).length, "move")}`);
  }
}

// -- layout -------------------------------------------------------------------

// Where every pile goes for a board `width` px wide: columns from the piles' `x`, rows
// from their `y`, each row as tall as its tallest pile.
export function layout(piles, width) {
  const cols = Math.max(1, ...piles.map((p) => p.x + 1));
  const unit = Math.max(24, Math.floor(width / cols));
  const gap = Math.max(3, Math.round(unit * 0.1));
  const cardW = Math.min(66, unit - gap);
  const cardH = Math.round(cardW * 1.4);
  const downUp = Math.max(11, Math.round(cardH * 0.27));
  const downHidden = Math.max(5, Math.round(cardH * 0.12));
  const rows = new Map();
  const placed = piles.map((pile) => {
    const shown = SHORT_KINDS.has(pile.kind) && pile.fan !== "none" ? Math.max(0, pile.cards.length - SHORT_CARDS) : 0;
    const spots = [];
    let height = cardH;
    let w = cardW;
    if (pile.fan === "down") {
      let y = 0;
      pile.cards.forEach((card, i) => {
        if (i < shown) return;
        spots.push({ i, x: 0, y });
        y += card === null ? downHidden : downUp;
      });
      height = cardH + (spots.length ? spots[spots.length - 1].y : 0);
    } else if (pile.fan === "right") {
      const row = piles.filter((p) => p.y === pile.y && p.x > pile.x).map((p) => p.x);
      const room = ((row.length ? Math.min(...row) : cols) - pile.x) * unit - gap;
      const n = pile.cards.length - shown;
      const step = n > 1 ? Math.max(4, Math.min(Math.round(cardW * 0.55), (room - cardW) / (n - 1))) : 0;
      pile.cards.forEach((card, i) => {
        if (i >= shown) spots.push({ i, x: Math.round((i - shown) * step), y: 0 });
      });
      w = Math.max(cardW, cardW + step * Math.max(0, n - 1));
    } else if (pile.cards.length) {
      spots.push({ i: pile.cards.length - 1, x: 0, y: 0 });
    }
    rows.set(pile.y, Math.max(rows.get(pile.y) || 0, height));
    return { pile, spots, width: w, height };
  });
  const tops = new Map();
  let top = 0;
  const ys = [...rows.keys()].sort((a, b) => a - b);
  for (const y of ys) {
    tops.set(y, top);
    top += LABEL_HEIGHT + rows.get(y) + ROW_GAP;
  }
  for (const p of placed) {
    p.left = p.pile.x * unit;
    p.top = tops.get(p.pile.y);
  }
  return { placed, cardW, cardH, height: top, width: cols * unit };
}

export function pileLabel(pile) {
  const cards = pile.cards;
  const top = cards.length ? cards[cards.length - 1] : undefined;
  const name = pile.label && pile.label !== pile.id ? `${pile.id} (${pile.label})` : pile.id;
  if (!cards.length) return `${name}: empty${pile.base ? `, ${pile.base}` : ""}`;
  return `${name}: ${cardName(top)}, ${plural(cards.length, "card")}`;
}

// -- drawing ------------------------------------------------------------------

function Card({ code, index, x, y, w, h, chosen, moved }) {
  const face = code !== null;
  const red = face && (code[1] === "H" || code[1] === "D");
  const cls = [
    "card",
    face ? `suit-${code[1]}` : "back",
    red ? "red" : "",
    chosen ? "chosen" : "",
    moved ? "moved" : "",
  ].join(" ");
  return html`<div
    class=${cls}
    data-card=${face ? code : "?"}
    data-index=${index}
    style=${{ left: `${x}px`, top: `${y + LABEL_HEIGHT}px`, width: `${w}px`, height: `${h}px`, fontSize: `${Math.max(10, Math.round(w * 0.36))}px` }}
  >${face ? html`<span class="rank">${pretty(code).slice(0, -1)}</span><span class="suit">${pretty(code).slice(-1)}</span>` : ""}</div>`;
}

function Pile({ place, box, game, targets, sources, onPointerDown }) {
  const { pile, spots } = place;
  const source = game.source && game.source.pid === pile.id;
  const last = game.last && (game.last.from === pile.id || game.last.to === pile.id);
  const hinted = game.hintMove && (game.hintMove.from === pile.id || game.hintMove.to === pile.id);
  const cls = [
    "pile",
    `kind-${pile.kind}`,
    source ? "source" : "",
    targets.has(pile.id) ? "target" : "",
    sources.has(pile.id) ? "can" : "",
    last ? "last" : "",
    hinted ? "hinted" : "",
  ].join(" ");
  const mark = pile.orient === "v" ? " ↕" : pile.orient === "h" ? " ↔" : "";
  const count = pile.fan === "none" && pile.cards.length > 1 ? pile.cards.length : null;
  const movedTo = game.last && game.last.to === pile.id;
  return html`<div
    class=${cls}
    data-pile=${pile.id}
    tabindex="0"
    role="button"
    aria-label=${pileLabel(pile)}
    title=${pile.base ? `${pile.label} · ${pile.base}` : pile.label}
    style=${{ left: `${place.left}px`, top: `${place.top}px`, width: `${place.width}px`, height: `${place.height + LABEL_HEIGHT}px` }}
    onPointerDown=${onPointerDown}
  >
    <div class="label">${pile.label}${mark}${count ? html` <span class="count">×${count}</span>` : ""}</div>
    ${pile.cards.length === 0
      ? html`<div class="slot" style=${{ top: `${LABEL_HEIGHT}px`, width: `${box.cardW}px`, height: `${box.cardH}px` }}>${pile.base && pile.base.length <= 3 ? pile.base : ""}</div>`
      : ""}
    ${spots.map(
      (s, n) => html`<${Card}
        key=${s.i}
        code=${pile.cards[s.i]}
        index=${s.i}
        x=${s.x}
        y=${s.y}
        w=${box.cardW}
        h=${box.cardH}
        chosen=${source && (game.source.index === null ? n === spots.length - 1 : s.i >= game.source.index)}
        moved=${movedTo && n === spots.length - 1}
      />`,
    )}
  </div>`;
}

function Clock({ game }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const s = game.state;
  let ms = Number(s.time_ms || 0);
  if (s.status === "playing") ms += Math.min(IDLE_GAP_MS, performance.now() - game.received);
  return html`<span class="clock">${clock(ms)}</span>`;
}

function useGame(game) {
  const [, redraw] = useState(0);
  useEffect(() => {
    game.onChange = () => redraw((n) => n + 1);
    return () => {
      game.onChange = () => {};
    };
  }, [game]);
}

export function Board({ game, titles, onLeave, onRules, onAgain, side }) {
  useGame(game);
  const root = useRef(null);
  const [width, setWidth] = useState(Math.min(1200, window.innerWidth - 16));
  const drag = useRef(null);
  const suppressClick = useRef(false);
  const [typed, setTyped] = useState("");

  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    const watch = new ResizeObserver(() => setWidth(element.clientWidth));
    watch.observe(element);
    setWidth(element.clientWidth);
    return () => watch.disconnect();
  }, []);

  // the time from a click to the board drawn after its answer (bench/web.py reads it)
  useEffect(() => {
    if (game.clickedAt !== null && !game.busy) {
      const took = performance.now() - game.clickedAt;
      game.clickedAt = null;
      (window.pasyansTimings = window.pasyansTimings || []).push(took);
    }
  });

  // typed pile ids (as in the terminal client): letters, digits and '-', Enter chooses
  useEffect(() => {
    const onKey = (event) => {
      if (event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        game.source = null;
        game.choices = null;
        setTyped("");
        game.say("");
      } else if (event.key === "Backspace") {
        setTyped((t) => t.slice(0, -1));
      } else if (event.key === "Enter" || event.key === " ") {
        const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.pile;
        setTyped((t) => {
          const wanted = t.trim().toUpperCase();
          const pile = game.piles.find((p) => p.id.toUpperCase() === wanted);
          if (pile) game.choose(pile.id);
          else if (!t && focused) game.choose(focused);
          else if (t) game.say(`no pile ${t}`);
          return "";
        });
        event.preventDefault();
      } else if (/^[a-zA-Z0-9-]$/.test(event.key)) {
        setTyped((t) => (t + event.key).slice(-8));
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [game]);

  const box = layout(game.piles, Math.max(200, width));
  const targets = game.targets();
  const sources = game.playing ? game.sources() : new Set();
  const s = game.state;

  const whereIs = (event) => {
    const card = event.target.closest("[data-index]");
    const pile = event.target.closest("[data-pile]");
    return {
      pid: pile ? pile.dataset.pile : null,
      index: card ? Number(card.dataset.index) : null,
    };
  };

  const onClick = (event) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    const { pid, index } = whereIs(event);
    if (pid) {
      game.pointerAt = performance.now();
      game.choose(pid, index);
    }
  };
  const onDblClick = (event) => {
    const { pid, index } = whereIs(event);
    if (pid && index !== null) game.toFoundation(pid, index);
  };

  const onPointerDown = (event) => {
    if (event.button !== 0 || !game.playing) return;
    const { pid, index } = whereIs(event);
    if (!pid || index === null) return;
    if (!game.movesFrom(pid, index).length && !game.movesFrom(pid).length) return;
    drag.current = { pid, index, x: event.clientX, y: event.clientY, ghost: null, card: event.target.closest("[data-index]") };
  };

  useEffect(() => {
    const move = (event) => {
      const d = drag.current;
      if (!d) return;
      if (!d.ghost) {
        if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_FROM) return;
        const pileElement = d.card.closest("[data-pile]");
        const ghost = document.createElement("div");
        ghost.className = "ghost";
        const first = d.card.getBoundingClientRect();
        for (const card of pileElement.querySelectorAll("[data-index]")) {
          if (Number(card.dataset.index) < d.index) continue;
          const rect = card.getBoundingClientRect();
          const copy = card.cloneNode(true);
          copy.style.left = `${rect.left - first.left}px`;
          copy.style.top = `${rect.top - first.top}px`;
          ghost.appendChild(copy);
        }
        d.offsetX = d.x - first.left;
        d.offsetY = d.y - first.top;
        document.body.appendChild(ghost);
        d.ghost = ghost;
        game.source = { pid: d.pid, index: d.index };
        game.changed();
      }
      d.ghost.style.transform = `translate(${event.clientX - d.offsetX}px, ${event.clientY - d.offsetY}px)`;
      event.preventDefault();
    };
    const up = (event) => {
      const d = drag.current;
      drag.current = null;
      if (!d || !d.ghost) return;
      d.ghost.remove();
      suppressClick.current = true;
      setTimeout(() => {
        suppressClick.current = false;
      }, 0);
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const pile = under && under.closest("[data-pile]");
      if (pile) {
        game.pointerAt = performance.now();
        game.dropped(d.pid, d.index, pile.dataset.pile);
      } else {
        game.source = null;
        game.say("");
      }
    };
    const cancel = () => {
      const d = drag.current;
      drag.current = null;
      if (d && d.ghost) d.ghost.remove();
    };
    window.addEventListener("pointermove", move, { passive: false });
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
  }, [game]);

  const title = (titles || {})[s.game] || {};
  const info = Object.entries((s.view && s.view.info) || {}).filter(([, v]) => v !== null && typeof v !== "object");
  const askHint = () => {
    if (game.ranked && !game.hintAsked) {
      const yes = window.confirm(
        "A hint unranks this daily: it will no longer count on the leaderboards, your stats' dailies or your streak. Ask for a hint?",
      );
      if (!yes) return;
    }
    game.hint();
  };
  const askResign = () => {
    if (window.confirm("Resign this game? It ends as lost.")) game.resign();
  };

  return html`<section class="game" data-game-id=${s.game_id} data-status=${s.status} data-seq=${s.seq}>
    <header class="game-head">
      <button class="link" onClick=${onLeave}>← home</button>
      <h2>${title.title_ru || s.game} <small>${title.title_en || ""}</small></h2>
      <span class="mode" data-assisted=${s.assisted ? "1" : "0"}>${s.mode}${s.date ? ` ${s.date}` : ""}${s.ranked ? " · ranked" : ""}${s.assisted ? " · assisted (not ranked)" : ""}</span>
    </header>
    <div class="status-line" aria-live="polite">
      <span>${s.foundation}/${s.total} home</span>
      <span>${plural(Number(s.moves || 0), "move")}</span>
      <${Clock} game=${game} />
      ${s.status !== "playing" ? html`<strong class="result">${outcome(s)}</strong>` : ""}
      ${info.map(([k, v]) => html`<span class="info">${k.replace(/_/g, " ")}: ${String(v)}</span>`)}
    </div>
    <div class="with-side">
      <div
        class="board"
        ref=${root}
        style=${{ height: `${box.height}px` }}
        onClick=${onClick}
        onDblClick=${onDblClick}
      >
        ${box.placed.map(
          (place) => html`<${Pile}
            key=${place.pile.id}
            place=${place}
            box=${box}
            game=${game}
            targets=${targets}
            sources=${sources}
            onPointerDown=${onPointerDown}
          />`,
        )}
      </div>
      ${side || ""}
    </div>
    <div class="message" role="status">${game.message}${typed ? html` <kbd>${typed}</kbd>` : ""}</div>
    ${game.choices
      ? html`<div class="choices">${game.choices.map(
          (m) => html`<button onClick=${() => game.play(m)}>${formatMove(m)}</button>`,
        )}</div>`
      : ""}
    <div class="actions">
      ${game.playing
        ? html`
            ${game.actions().map(
              (m) => html`<button class="action" data-action=${m.action} onClick=${() => game.play(m)}>${formatMove(m)}</button>`,
            )}
            <button data-do="undo" onClick=${() => game.undo()}>Undo</button>
            ${s.mode !== "race" && s.hints !== false ? html`<button data-do="hint" onClick=${askHint}>Hint</button>` : ""}
            <button data-do="safe" onClick=${() => game.safe()}>Safe moves</button>
            <label class="toggle"><input
              type="checkbox"
              checked=${prefs.safeAfter}
              onChange=${(e) => {
                prefs.safeAfter = e.target.checked;
                game.changed();
              }}
            /> after each move</label>
            ${game.finishOffer !== null
              ? html`<button data-do="finish" class="primary" onClick=${() => game.finish()}>Finish (${game.finishOffer})</button>`
              : !s.ranked && s.mode !== "race"
                ? html`<button data-do="finish" title="the server plays the rest when it finds a certain win" onClick=${() => game.finish()}>Finish</button>`
                : ""}
            <button data-do="resign" onClick=${askResign}>Resign</button>`
        : ""}
      <button data-do="rules" onClick=${onRules}>Rules</button>
    </div>
    ${s.status !== "playing" ? html`<${EndPanel} game=${game} titles=${titles} onLeave=${onLeave} onAgain=${onAgain} />` : ""}
  </section>`;
}

function EndPanel({ game, titles, onLeave, onAgain }) {
  const s = game.state;
  const [rank, setRank] = useState(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (s.mode !== "daily" || !s.date || !s.ranked) return;
    game.conn
      .call("leaderboard", { game: s.game, board: "daily", date: s.date, around_me: true, limit: 1 })
      .then((reply) => reply.me && setRank({ rank: reply.me.rank, of: reply.total }))
      .catch(() => {});
  }, [s.game_id]);
  const par = game.context.par ? game.context.par(s.game) : null;
  const text = shareText(s, titles, { par, rank: rank && rank.rank, of: rank && rank.of });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch (err) {
      setCopied(false);
    }
  };
  return html`<aside class="end" data-end=${s.status}>
    <h3>${s.status === "won" ? "Won!" : outcome(s)}</h3>
    <p>${s.foundation}/${s.total} cards · ${plural(Number(s.moves || 0), "move")}${par !== null && par !== undefined ? ` (par ${par})` : ""} · ${clock(s.time_ms)}${rank ? ` · #${rank.rank} of ${rank.of}` : ""}</p>
    ${s.assisted ? html`<p class="note" data-assisted="1">${ASSISTED_LONG}: a hint or the solver's finish, so this result ranks nowhere</p>` : ""}
    ${s.deal && s.deal.seed !== null && s.deal.seed !== undefined ? html`<p class="seed">seed ${String(s.deal.seed)}</p>` : ""}
    <pre class="share">${text}</pre>
    <button onClick=${copy}>${copied ? "Copied ✓" : "Copy the result"}</button>
    ${onAgain ? html`<button onClick=${onAgain}>Play again (practice)</button>` : ""}
    <button onClick=${onLeave}>Home</button>
  </aside>`;
}

// A position drawn read-only (replays): the same layout, no moves.
export function StaticBoard({ view, move = null }) {
  const root = useRef(null);
  const [width, setWidth] = useState(Math.min(1200, window.innerWidth - 16));
  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    const watch = new ResizeObserver(() => setWidth(element.clientWidth));
    watch.observe(element);
    setWidth(element.clientWidth);
    return () => watch.disconnect();
  }, []);
  const box = layout(view.piles, Math.max(200, width));
  const still = { source: null, last: move, hintMove: null };
  const none = new Set();
  return html`<div class="board still" ref=${root} style=${{ height: `${box.height}px` }}>
    ${box.placed.map(
      (place) => html`<${Pile} key=${place.pile.id} place=${place} box=${box} game=${still} targets=${none} sources=${none} />`,
    )}
  </div>`;
}
