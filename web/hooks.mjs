// The board's behaviour in small hooks: its size, the keys, dragging (with the board
// scrolling by itself near its edges), the moves' animation, and the timings the
// benchmark reads. Each takes what it needs and knows nothing of the others.

import { useEffect, useLayoutEffect, useRef, useState } from "./vendor/preact-htm.mjs";
import { W } from "./words.mjs";

// a pointer moved this far (px) from where it went down drags instead of clicking
const DRAG_FROM = 6;
// px from the board's edge where a drag scrolls it, and the most it scrolls a frame
const EDGE = 48;
const EDGE_SPEED = 18;
const MOVE_MS = 170;

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// redraw whenever `thing.onChange` is called (a Game)
export function useChanges(thing) {
  const [, redraw] = useState(0);
  useEffect(() => {
    thing.onChange = () => redraw((n) => n + 1);
    return () => {
      thing.onChange = () => {};
    };
  }, [thing]);
}

// redraw every `ms` milliseconds (a clock)
export function useTick(ms, on = true) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!on) return undefined;
    const timer = setInterval(() => tick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms, on]);
}

// The inner size (px) of the element `ref` points at, kept as it changes.
export function useSize(ref) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => {
      const next = { width: element.clientWidth, height: element.clientHeight };
      setSize((old) => (old.width === next.width && old.height === next.height ? old : next));
    };
    const watch = new ResizeObserver(measure);
    watch.observe(element);
    measure();
    return () => watch.disconnect();
  }, []);
  return size;
}

const CONTROLS = "button, a[href], input, select, textarea, summary, [contenteditable], dialog";

// The board's keys. Piles: Tab or the arrows move between them, Enter or Space picks
// the one focused; a pile's name typed (letters, digits, '-') and Enter picks it; Esc
// lets go. Enter and Space on a button, a link or a field are theirs, never taken.
export function useKeys(game, { onTyped }) {
  useEffect(() => {
    let typed = "";
    const setTyped = (text) => {
      typed = text;
      onTyped(text);
    };
    const onKey = (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const pile = target && target.closest("[data-pile]");
      const control = !pile && target && target.closest(CONTROLS);
      // a button, a link or a field keeps its keys: Enter and Space work it, a field
      // takes what is typed
      if (control && (event.key === "Enter" || event.key === " " || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) {
        if (typed && event.key !== " ") setTyped("");
        return;
      }
      if (event.key === "Escape") {
        game.source = null;
        game.choices = null;
        setTyped("");
        game.say("");
      } else if (event.key === "Backspace" && typed) {
        setTyped(typed.slice(0, -1));
        event.preventDefault();
      } else if (event.key === "Enter" || event.key === " ") {
        const wanted = typed.trim().toUpperCase();
        if (wanted) {
          const found = game.piles.find((p) => p.id.toUpperCase() === wanted);
          if (found) game.choose(found.id);
          else game.say(W.board.noPile(typed));
        } else if (pile) {
          game.pointerAt = performance.now();
          game.choose(pile.dataset.pile);
        } else return;
        setTyped("");
        event.preventDefault();
      } else if (event.key.startsWith("Arrow") && pile) {
        const next = neighbour(pile, event.key);
        if (next) next.focus();
        event.preventDefault();
      } else if (/^[a-zA-Z0-9-]$/.test(event.key)) {
        setTyped((typed + event.key).slice(-8));
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [game]);
}

// the pile nearest to `from` in the arrow's direction (by the piles' boxes on screen)
function neighbour(from, key) {
  const a = from.getBoundingClientRect();
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const other of from.parentElement.querySelectorAll("[data-pile]")) {
    if (other === from) continue;
    const b = other.getBoundingClientRect();
    const along = dx ? (b.left - a.left) * dx : (b.top - a.top) * dy;
    if (along <= 1) continue;
    const across = dx ? Math.abs(b.top - a.top) : Math.abs(b.left - a.left);
    const score = along + across * 3;
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

// Drag and drop with pointer events: a card (and those on it) follows the pointer as a
// ghost; near the board's edge the board scrolls towards the pointer, so a drag
// reaches any pile; the drop ends in `game.dropped`. Returns the pointerdown handler
// and a function telling whether the click that follows a drag is to be ignored.
export function useDrag(game, boardRef) {
  const drag = useRef(null);
  const justDragged = useRef(false);

  useEffect(() => {
    let frame = null;
    const scroll = () => {
      const d = drag.current;
      const board = boardRef.current;
      frame = null;
      if (!d || !d.ghost || !board) return;
      const r = board.getBoundingClientRect();
      const push = (pos, low, high) =>
        pos < low + EDGE ? -Math.ceil(((low + EDGE - pos) / EDGE) * EDGE_SPEED) : pos > high - EDGE ? Math.ceil(((pos - high + EDGE) / EDGE) * EDGE_SPEED) : 0;
      const sx = push(d.at.x, r.left, r.right);
      const sy = push(d.at.y, r.top, r.bottom);
      if (sx || sy) {
        board.scrollBy(sx, sy);
        frame = requestAnimationFrame(scroll);
      }
    };
    const move = (event) => {
      const d = drag.current;
      if (!d) return;
      d.at = { x: event.clientX, y: event.clientY };
      if (!d.ghost) {
        if (Math.hypot(event.clientX - d.x, event.clientY - d.y) < DRAG_FROM) return;
        d.ghost = ghostOf(d);
        game.source = { pid: d.pid, index: d.index };
        game.changed();
      }
      d.ghost.style.transform = `translate(${event.clientX - d.offsetX}px, ${event.clientY - d.offsetY}px)`;
      if (frame === null) frame = requestAnimationFrame(scroll);
      event.preventDefault();
    };
    const up = (event) => {
      const d = drag.current;
      drag.current = null;
      if (!d || !d.ghost) return;
      d.ghost.remove();
      justDragged.current = true;
      setTimeout(() => {
        justDragged.current = false;
      }, 0);
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const pile = under && under.closest("[data-pile]");
      game.pointerAt = performance.now();
      if (pile) game.dropped(d.pid, d.index, pile.dataset.pile);
      else {
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
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [game]);

  const onPointerDown = (event) => {
    if (event.button !== 0 || !game.playing) return;
    const card = event.target.closest("[data-index]");
    const pile = event.target.closest("[data-pile]");
    if (!card || !pile) return;
    const pid = pile.dataset.pile;
    const index = Number(card.dataset.index);
    if (!game.movesFrom(pid, index).length && !game.movesFrom(pid).length) return;
    drag.current = { pid, index, card, x: event.clientX, y: event.clientY, ghost: null };
  };
  return { onPointerDown, dragged: () => justDragged.current };
}

// the cards from the one grabbed up, copied into a layer that follows the pointer
function ghostOf(d) {
  const ghost = document.createElement("div");
  ghost.className = "ghost";
  const first = d.card.getBoundingClientRect();
  for (const card of d.card.closest("[data-pile]").querySelectorAll("[data-index]")) {
    if (Number(card.dataset.index) < d.index) continue;
    const rect = card.getBoundingClientRect();
    const copy = card.cloneNode(true);
    copy.style.left = `${rect.left - first.left}px`;
    copy.style.top = `${rect.top - first.top}px`;
    ghost.appendChild(copy);
  }
  for (const name of ["--cw", "--ch", "--f"]) ghost.style.setProperty(name, d.card.closest(".table").style.getPropertyValue(name));
  d.offsetX = d.x - first.left;
  d.offsetY = d.y - first.top;
  document.body.appendChild(ghost);
  return ghost;
}

// A move's cards glide from where they were to where they land (FLIP: measured
// before the move is drawn, animated after), unless the player asked for less motion.
export function useMotion(game, tableRef) {
  const pending = useRef(null);
  useEffect(() => {
    game.onMove = (move, count) => {
      const table = tableRef.current;
      if (!table || !count || reducedMotion()) return;
      const cards = [...table.querySelectorAll(`[data-pile="${CSS.escape(move.from)}"] [data-index]`)].slice(-count);
      pending.current = { to: move.to, count, from: cards.map((c) => c.getBoundingClientRect()) };
    };
    return () => {
      game.onMove = () => {};
    };
  }, [game]);
  useLayoutEffect(() => {
    const p = pending.current;
    const table = tableRef.current;
    if (!p || !table) return;
    pending.current = null;
    const landed = [...table.querySelectorAll(`[data-pile="${CSS.escape(p.to)}"] [data-index]`)].slice(-p.count);
    landed.forEach((card, i) => {
      const from = p.from[i];
      if (!from) return;
      const to = card.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (!dx && !dy) return;
      card.animate(
        [{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 5 }, { transform: "translate(0, 0)", zIndex: 5 }],
        { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
    });
  });
}

// The time from a click to its move drawn, and to the board drawn after the server's
// answer (bench/web.py reads window.pasyansDrawn and window.pasyansTimings).
export function useTiming(game) {
  useEffect(() => {
    if (game.clickedAt === null) return;
    const took = performance.now() - game.clickedAt;
    if (game.inflight) {
      if (game.predicted && game.drawnAt === null) {
        game.drawnAt = took;
        (window.pasyansDrawn = window.pasyansDrawn || []).push(took);
      }
      return;
    }
    if (game.drawnAt === null) (window.pasyansDrawn = window.pasyansDrawn || []).push(took);
    (window.pasyansTimings = window.pasyansTimings || []).push(took);
    game.clickedAt = null;
  });
}
