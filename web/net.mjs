// The connection to the server: one WebSocket (subprotocol pasyans.v1, binary msgpack
// frames), requests matched to replies by id, events handed on, and reconnection by
// itself. The wire is docs/protocol.md; this module knows no game.
//
// 64-bit integers: seeds are uint64, usually above 2^53. Frames are decoded with
// BigInt for every 64-bit integer, then every BigInt a Number holds exactly is turned
// back into a Number (timestamps, counters): only big seeds stay BigInt. The encoder
// (useBigInt64) would send a Number of 2^32 or more as a float, which the server
// refuses for ids, seq and seeds: such Numbers are sent as BigInt instead.

import { say } from "./i18n.mjs";
import { W } from "./words.mjs";

const { Encoder, Decoder } = globalThis.MessagePack;
const encoder = new Encoder({ useBigInt64: true });
const decoder = new Decoder({ useBigInt64: true });
const TWO_32 = 2 ** 32;

export const SUBPROTOCOL = "pasyans.v1";
// seconds: a request answered `unavailable` is sent again for at most this long
const UNAVAILABLE_PATIENCE = 20;
const UNAVAILABLE_MAX_PAUSE = 4;
// the longest `retry_after` of `rate_limited` waited out (longer: the player reads it)
const RATE_WAIT_MOST = 10;
const REPLY_TIMEOUT_MS = 30000;
// pauses between reconnection attempts: from the first to the most, doubling
const RECONNECT_FIRST_MS = 300;
const RECONNECT_MOST_MS = 4000;
// close codes (docs/protocol.md, "Close codes"): not signed in within the server's
// --auth-timeout; 4000 (fell behind reading) needs nothing of its own
const CLOSE_NO_SIGN_IN = 4001;

export function exact(value) {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(-Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(exact);
  if (value && typeof value === "object" && !(value instanceof Uint8Array)) {
    const out = {};
    for (const key of Object.keys(value)) out[key] = exact(value[key]);
    return out;
  }
  return value;
}

function wire(value) {
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= TWO_32) {
    return BigInt(value);
  }
  if (Array.isArray(value)) return value.map(wire);
  if (value && typeof value === "object" && typeof value !== "bigint") {
    const out = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== undefined) out[key] = wire(value[key]);
    }
    return out;
  }
  return value;
}

export const encode = (message) => encoder.encode(wire(message));
export const decode = (bytes) => exact(decoder.decode(new Uint8Array(bytes)));

// A seed typed by a player ("12345678901234567890") as the wire wants it.
export function parseSeed(text) {
  const clean = String(text).trim();
  if (!/^[0-9]{1,20}$/.test(clean)) return null;
  const seed = BigInt(clean);
  return seed < 2n ** 64n ? seed : null;
}

export class ServerError extends Error {
  constructor(error) {
    // in the player's words (the key and its params), never the code
    super(say(error.key, error.params || {}, error.message || ""));
    this.code = error.code;
    this.error = error;
    this.state = error.state || null;
  }
}

// The connection dropped while the request was out: whether it was done is unknown
// (the caller asks the server again, e.g. `resume`; a move is never sent twice).
export class Lost extends Error {
  constructor() {
    super(W.net.lostRequest);
    this.code = "lost";
  }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export class Connection {
  // onEvent(event): unasked frames; onStatus(text|null, offline): a banner while the
  // connection is down (offline: not even the network reaches the server);
  // onOpen(): after every (re)connection, before other requests go out (sign in again).
  constructor({ onEvent = () => {}, onStatus = () => {}, onOpen = async () => {} } = {}) {
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.nextId = 1;
    this.pending = new Map();
    this.ws = null;
    this.ready = null; // a promise: open and signed in (freshReady)
    this.opened = () => {};
    this.closed = false;
    this.attempt = 0;
    this.connect();
  }

  connect() {
    this.freshReady();
    this.dial();
    window.addEventListener("online", () => {
      // the network is back: try now rather than at the end of the pause
      if (!this.ws && !this.closed) this.dial();
    });
    window.addEventListener("offline", () => this.onStatus(W.net.offline, true));
  }

  // a new `ready` promise: resolved once the connection is open and signed in
  freshReady() {
    this.ready = new Promise((ok) => {
      this.opened = ok;
    });
  }

  dial() {
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.redial);
    let ws;
    try {
      ws = new WebSocket(this.url, SUBPROTOCOL);
    } catch (err) {
      this.retry(String(err));
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    let wasOpen = false;
    ws.onopen = async () => {
      wasOpen = true;
      this.attempt = 0;
      try {
        await this.onOpen();
      } catch (err) {
        // signing in failed for good (an unknown token): the app decides
      }
      this.onStatus(null);
      this.opened();
    };
    ws.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      let message;
      try {
        message = decode(event.data);
      } catch (err) {
        return;
      }
      if ("re" in message) {
        const waiter = this.pending.get(message.re);
        if (waiter) {
          this.pending.delete(message.re);
          waiter.done(message);
        }
      } else if (message.ev) {
        this.onEvent(message);
      }
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const waiter of this.pending.values()) waiter.fail(new Lost());
      this.pending.clear();
      if (this.closed) return;
      if (event && event.code === CLOSE_NO_SIGN_IN) {
        // open too long without signing in (a visitor on the welcome page): come back
        // quietly, no banner; any other close (4000 too slow, 1001 restart, a network
        // drop) is a drop like any: the banner says so and the page reconnects
        if (wasOpen) this.freshReady();
        clearTimeout(this.redial);
        this.dial();
        return;
      }
      // a fresh `ready`, unless this connection never opened (then it still waits)
      if (wasOpen) {
        this.freshReady();
        this.retry(W.net.wasLost);
      } else this.retry(W.net.noAnswer);
    };
  }

  retry(why) {
    const pause = Math.min(RECONNECT_MOST_MS, RECONNECT_FIRST_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.say(why);
    clearTimeout(this.redial);
    this.redial = setTimeout(() => this.dial(), pause * (1 + Math.random() * 0.25));
  }

  // Why the page is not connected, in words: offline (the browser says so, or not even
  // an HTTP request reaches the server), else the connection is coming back.
  async say(why) {
    let offline = navigator.onLine === false;
    if (!offline) {
      try {
        await fetch("/healthz", { cache: "no-store" });
      } catch (err) {
        offline = true;
      }
    }
    if (this.online) return;
    const text = !offline ? W.net.lost(why) : navigator.onLine === false ? W.net.offline : W.net.unreachable;
    this.onStatus(text, offline);
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000);
  }

  get online() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  // One request on the open socket, no waiting for `ready` (used while signing in).
  raw(op, params = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Lost());
    const id = this.nextId++;
    return new Promise((ok, no) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        no(new Lost());
        ws.close();
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, {
        done: (message) => {
          clearTimeout(timer);
          ok(message);
        },
        fail: (err) => {
          clearTimeout(timer);
          no(err);
        },
      });
      ws.send(encode({ ...params, id, op }));
    });
  }

  // The result of `op` (a map), or a ServerError / Lost. `unavailable` is waited out
  // and sent again (a move names its seq: a repeat of a written one is `stale_seq`).
  async call(op, params = {}, { signIn = false } = {}) {
    const started = Date.now();
    let pause = 0;
    for (let round = 0; ; round++) {
      if (!signIn) await this.ready;
      const reply = await this.raw(op, params);
      if (reply.ok) return reply;
      const error = reply.error || { code: "internal", message: "no error" };
      const retry = Number(error.retry_after || 0);
      // a daily still being certified is the page's to wait for (it shows the progress)
      if (error.code === "unavailable" && !error.preparing && (Date.now() - started) / 1000 < UNAVAILABLE_PATIENCE) {
        pause = Math.min(UNAVAILABLE_MAX_PAUSE, Math.max(retry || 0.5, pause * 2));
        this.onStatus(W.net.busy);
        await sleep(pause * 1000);
        continue;
      }
      if (error.code === "rate_limited" && retry > 0 && retry <= RATE_WAIT_MOST && round < 20) {
        await sleep(retry * 1000);
        continue;
      }
      if (pause) this.onStatus(null);
      throw new ServerError(error);
    }
  }
}

// The state held, moved on by one delta reply: the same rule as protocol/delta.py
// (a DeltaGap error: ask for `resume`).
export class DeltaGap extends Error {}

const COUNTERS = ["seq", "status", "moves", "time_ms", "idle_left_ms", "foundation", "clean", "legal"];

export function applyDelta(state, delta) {
  if (delta.game_id !== state.game_id) {
    throw new DeltaGap(`a delta of game ${delta.game_id}, not ${state.game_id}`);
  }
  if (delta.from_seq !== undefined && delta.from_seq !== null) {
    if (delta.from_seq !== state.seq) throw new DeltaGap(`a delta from seq ${delta.from_seq}`);
  } else if (delta.seq !== state.seq + 1) {
    throw new DeltaGap(`a delta to seq ${delta.seq}, the state held is at ${state.seq}`);
  }
  const out = { ...state };
  for (const key of COUNTERS) if (key in delta) out[key] = delta[key];
  const view = { ...state.view };
  const cards = delta.piles || {};
  const meta = delta.pile_meta || {};
  const named = new Set([...Object.keys(cards), ...Object.keys(meta)]);
  if (named.size) {
    view.piles = view.piles.map((pile) => {
      named.delete(pile.id);
      if (pile.id in meta) return { ...meta[pile.id] };
      if (pile.id in cards) return { ...pile, cards: cards[pile.id] };
      return pile;
    });
    if (named.size) throw new DeltaGap(`a delta of piles this state lacks: ${[...named]}`);
  }
  const info = delta.info || {};
  if (Object.keys(info).length) {
    const next = { ...(view.info || {}) };
    for (const [key, value] of Object.entries(info)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    view.info = next;
  }
  out.view = view;
  return out;
}
