// One game as the server has it, and what the player is doing with it. No rules here:
// the moves offered are those of `legal`, and the state is the server's (kept by delta
// replies, the rule of protocol/delta.py).
//
// Every input (a click, a drop, a key, a button) goes through one queue and is read
// against the server's state once the move before it is answered: clicks made while a
// move travels wait their turn, never dropped. A card move is drawn at once (`shown`:
// the card put on its target before the reply) and put back, with a short message, if
// the server refuses it.

import { applyDelta, DeltaGap, Lost, ServerError } from "./net.mjs";
import { feel } from "./feel.mjs";
import { prefs } from "./store.mjs";
import { pile as pileName } from "./i18n.mjs";
import { formatMove, W } from "./words.mjs";

// the server is asked whether it can finish the game once this share of cards is home
const FINISH_FROM = 2 / 3;
// ms: how long a pile shakes when a move there is refused; one step of a cascade home
const SHAKE_MS = 420;
const CASCADE_MS = 45;

const still = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// The position as it will be once `move` is played: its cards moved from pile to pile
// (the one at `index`, the top `n`, else the top card). Only what is drawn meanwhile:
// the server's reply replaces it (with what a move also does: a card turned, a pile
// filled).
export function predict(state, move) {
  if (!move || !("from" in move)) return null;
  const piles = state.view.piles;
  const from = piles.find((p) => p.id === move.from);
  const to = piles.find((p) => p.id === move.to);
  if (!from || !to || !from.cards.length) return null;
  const cards = [...from.cards];
  let moved;
  if (move.n !== undefined && move.n !== null) moved = cards.splice(cards.length - move.n, move.n);
  else if (move.index !== undefined && move.index !== null) moved = cards.splice(move.index, 1);
  else moved = cards.splice(cards.length - 1, 1);
  if (moved.some((c) => c === null)) return null;
  const next = piles.map((p) => {
    if (p === from) return { ...p, cards };
    if (p === to) return { ...p, cards: [...p.cards, ...moved] };
    return p;
  });
  return { state: { ...state, view: { ...state.view, piles: next }, legal: [] }, moved: moved.length };
}

export class Game {
  // conn: a Connection; context: {par(slug)}
  constructor(conn, state, context = {}) {
    this.conn = conn;
    this.state = state;
    this.context = context;
    this.onChange = () => {};
    this.onMove = () => {}; // (move, count): before a move is drawn (the board animates it)
    this.source = null; // {pid, index}
    this.choices = null; // several moves between the same two piles: the player picks
    this.message = "";
    this.predicted = null; // the state drawn while a move travels
    this.queue = []; // inputs waiting for the move before them: [{pid, run}]
    this.pumping = false;
    this.inflight = false;
    this.last = null; // the last move played (highlighted)
    this.finishOffer = null;
    this.noFinishAt = null;
    this.hintMove = null;
    this.hintAsked = false;
    this.justWon = false; // won on this board now (the end screen celebrates it)
    this.shaking = null; // the pile that shakes: a move there was refused
    this.received = performance.now();
    this.pointerAt = null; // performance.now() of the last click or drop on the board
    this.clickedAt = null; // that of the click whose move is being drawn
  }

  // what the board draws: the position after the move in flight, else the server's
  get shown() {
    return this.predicted || this.state;
  }
  get legal() {
    return this.state.legal || [];
  }
  get piles() {
    return (this.shown.view && this.shown.view.piles) || [];
  }
  get playing() {
    return this.state.status === "playing";
  }
  get ranked() {
    return Boolean(this.state.ranked);
  }
  get waiting() {
    return this.queue.length;
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
  // the piles the chosen source (or a source given) can go to
  targets(source = this.source) {
    if (!source) return new Set();
    return new Set(this.movesFrom(source.pid, source.index).map((m) => m.to));
  }
  actions() {
    return this.legal.filter((m) => "action" in m);
  }

  // a pile of the view named as a sentence says it: "from column 3", "to the waste"
  where(pid, form) {
    return pileName(this.pile(pid), form) || pid;
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
    this.predicted = null;
    this.received = performance.now();
    this.source = null;
    this.choices = null;
    this.hintMove = null;
    if (state.status !== "playing") this.finishOffer = null;
    if (ended && state.status === "won") {
      this.justWon = true;
      feel("win");
    }
    this.changed();
  }

  // -- the queue of inputs ----------------------------------------------------------

  // run(input) once every input before it is done; `pid` marks the pile it waits on
  input(run, pid = null) {
    this.queue.push({ run, pid });
    if (this.pumping) this.changed();
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const { run } = this.queue.shift();
        try {
          await run();
        } catch (err) {
          this.say(String(err));
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  // inputs still waiting are dropped (after a refusal: they were meant for another board)
  dropQueue() {
    const n = this.queue.length;
    this.queue = [];
    return n;
  }

  // -- choosing ---------------------------------------------------------------------

  choose(pid, index = null) {
    this.input(() => this.chooseNow(pid, index), pid);
  }

  chooseNow(pid, index) {
    if (!this.playing) return this.say(W.board.over);
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
      return this.say(W.board.which);
    }
    if (this.sources().has(pid)) return this.chooseSource(pid, index);
    const from = this.source.pid;
    this.source = null;
    this.shake(from);
    this.say(W.board.noMove(this.where(from, "from"), this.where(pid, "to")));
  }

  // a refused move: the pile shakes, the card is let go
  shake(pid) {
    this.shaking = pid;
    feel("illegal");
    setTimeout(() => {
      if (this.shaking === pid) {
        this.shaking = null;
        this.changed();
      }
    }, SHAKE_MS);
  }

  // the first foundation (in the view's order) a move of `moves` goes to
  homeOf(moves) {
    const homes = moves.filter((m) => (this.pile(m.to) || {}).kind === "foundation");
    const order = (m) => this.piles.findIndex((p) => p.id === m.to);
    return homes.sort((a, b) => order(a) - order(b))[0] || null;
  }

  chooseSource(pid, index) {
    let moves = this.movesFrom(pid, index);
    if (!moves.length && index !== null) {
      moves = this.movesFrom(pid);
      index = null;
    }
    if (moves.length) {
      // a single tap sends a card home when a foundation takes it (the first in order)
      const home = prefs.tapHome ? this.homeOf(moves) : null;
      if (home) return this.play(home);
      this.source = { pid, index };
      feel("pick");
      return this.say("");
    }
    const actions = this.actions();
    const pile = this.pile(pid);
    if (pile && pile.kind === "stock" && actions.length === 1) return this.play(actions[0]);
    if (pile && pile.cards.length) this.shake(pid);
    this.say(W.board.noMoveFrom(this.where(pid, "from")));
  }

  // double-click: the card to a foundation that takes it (the first in order)
  toFoundation(pid, index) {
    this.input(() => {
      if (!this.playing) return undefined;
      let home = this.homeOf(this.movesFrom(pid, index));
      if (!home && index !== null) home = this.homeOf(this.movesFrom(pid));
      if (home) return this.play(home);
      this.shake(pid);
      return this.say(W.board.noHome);
    }, pid);
  }

  // a drag from (from, index) ended on pile `to`
  dropped(from, index, to) {
    this.input(() => {
      if (from === to || !this.playing) {
        this.source = null;
        return this.changed();
      }
      let moves = this.movesFrom(from, index).filter((m) => m.to === to);
      if (!moves.length) moves = this.movesFrom(from).filter((m) => m.to === to);
      if (moves.length === 1) return this.play(moves[0]);
      if (moves.length > 1) {
        this.choices = moves;
        return this.say(W.board.which);
      }
      this.source = null;
      this.shake(from);
      return this.say(W.board.noMove(this.where(from, "from"), this.where(to, "to")));
    }, to);
  }

  // a move chosen from a list (an action's button, one of several choices)
  pick(move) {
    this.input(() => (this.playing ? this.play(move) : undefined));
  }

  // the game as the server has it now, once the inputs before are done (another tab
  // moved, the race ended it)
  refresh(seq = null) {
    this.input(async () => {
      if (seq === null || seq > this.state.seq) {
        await this.resume();
        if (seq !== null) this.say(W.board.elsewhere);
      }
    });
  }

  // -- requests -----------------------------------------------------------------------

  // The request `op` for this game; its reply's state or delta becomes the board. A
  // refusal puts back the server's state and drops the inputs queued behind it.
  async send(op, params, { delta = true, before = null } = {}) {
    this.inflight = true;
    try {
      const args = { game_id: this.state.game_id, ...params };
      if (delta) args.reply = "delta";
      const reply = await this.conn.call(op, args);
      if (before) await before(reply);
      if (reply.delta) {
        let gap = false;
        try {
          this.setState(applyDelta(this.state, reply.delta));
        } catch (err) {
          if (!(err instanceof DeltaGap)) throw err;
          gap = true;
        }
        // a delta carries no deal: a game that ended is asked for whole
        if (gap || reply.delta.status !== "playing") await this.resume();
      } else if (reply.state) {
        this.setState(reply.state);
      }
      return reply;
    } catch (err) {
      await this.refused(err);
      return null;
    } finally {
      this.inflight = false;
    }
  }

  async refused(err) {
    const moved = this.predicted !== null; // a card was drawn on its way: it goes back
    this.predicted = null;
    const dropped = this.dropQueue();
    const more = dropped ? ` (${W.board.dropped(dropped)})` : "";
    if (err instanceof ServerError) {
      if (err.state) this.setState(err.state);
      else if (err.code !== "illegal_move" && err.code !== "forbidden") await this.resume();
      if (moved) feel("illegal");
      const why = err.code === "stale_seq" ? W.board.staleSeq : moved ? W.board.refused(err.message) : err.message;
      this.say(why + more);
    } else if (err instanceof Lost) {
      this.say(W.board.lost + more);
    } else {
      this.say(String(err) + more);
    }
  }

  // the game as the server has it (after a gap, a refusal, a reconnection)
  async resume() {
    try {
      const reply = await this.conn.call("resume", { game_id: this.state.game_id });
      this.setState(reply.state);
      return true;
    } catch (err) {
      this.say(W.board.cantFetch(err.message));
      return false;
    }
  }

  async play(move) {
    const clicked = this.pointerAt ?? performance.now();
    this.pointerAt = null;
    const said = formatMove(move, this.piles); // before the move: the card is still where it was
    const guess = predict(this.state, move);
    this.onMove(move, guess ? guess.moved : 0);
    this.source = null;
    this.choices = null;
    this.hintMove = null;
    this.clickedAt = clicked;
    this.drawnAt = null;
    if (guess) this.predicted = guess.state;
    this.message = "";
    this.changed();
    const reply = await this.send("move", { seq: this.state.seq, move });
    if (!reply) {
      this.clickedAt = null;
      return false;
    }
    this.last = move;
    feel((this.pile(move.to) || {}).kind === "foundation" ? "home" : "drop");
    this.say(said);
    if (prefs.safeAfter && this.playing) await this.safe(said);
    this.considerFinish();
    return true;
  }

  undo() {
    this.input(async () => {
      const reply = await this.send("undo", { seq: this.state.seq });
      if (reply) {
        this.last = null;
        this.say(W.board.undone);
      }
    });
  }

  resign() {
    this.input(async () => {
      const reply = await this.send("resign", {}, { delta: false });
      if (reply) this.say(W.board.resigned);
    });
  }

  askSafe() {
    this.input(() => this.safe());
  }

  // the moves the server played (Finish, safe moves) drawn one by one, each card gliding
  // to its pile, before the server's position replaces them (at once with reduced motion)
  async cascade(played) {
    if (still() || played.length < 1) return;
    let at = this.state;
    for (const move of played) {
      const guess = predict(at, move);
      if (!guess) return;
      this.onMove(move, guess.moved);
      at = guess.state;
      this.predicted = at;
      this.last = move;
      if ((this.pile(move.to) || {}).kind === "foundation") feel("home");
      this.changed();
      await new Promise((resolve) => setTimeout(resolve, CASCADE_MS));
    }
  }

  async safe(after = "") {
    if (!this.playing) return;
    const reply = await this.send("auto", { seq: this.state.seq }, { before: (r) => this.cascade(r.played || []) });
    if (!reply) return;
    const played = reply.played || [];
    if (played.length) {
      this.last = played[played.length - 1];
      const list = played.map((m) => formatMove(m, this.piles, { card: false })).join(", ");
      this.say((after ? `${after} · ` : "") + W.board.playedSafe(played.length, list));
    } else if (!after) {
      this.say(W.board.noSafe);
    }
    this.considerFinish();
  }

  hint() {
    this.input(async () => {
      try {
        const reply = await this.conn.call("hint", { game_id: this.state.game_id });
        this.hintAsked = true;
        this.state = { ...this.state, ranked: false, assisted: true };
        if (reply.move) {
          this.hintMove = reply.move;
          this.say(W.board.hintIs(formatMove(reply.move, this.piles)));
        } else {
          this.say(W.board.noWin);
        }
      } catch (err) {
        this.say(err.message);
      }
    });
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
          this.say(W.board.canFinish);
        } else {
          this.noFinishAt = founded;
        }
      })
      .catch(() => {});
  }

  finish() {
    this.input(async () => {
      const reply = await this.send("finish", { seq: this.state.seq }, { before: (r) => this.cascade(r.played || []) });
      if (reply) this.say(W.board.finished((reply.played || []).length));
    });
  }
}
