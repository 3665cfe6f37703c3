// Tournaments (issue 51): the lobby (#tournaments: upcoming and running ones, yours
// and those you are invited to; make one, join one by its code), one tournament
// (#tournament/CODE: its countdown, the link to share, the standings), its deals on
// the board with the standings beside it (above it on a phone), and the podium.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { Board } from "../board.mjs";
import { go } from "../route.mjs";
import { conn, openGame } from "../session.mjs";
import { app, update } from "../store.mjs";
import { GamePicker, Title, useAsk } from "../ui.mjs";
import { W } from "../words.mjs";
import { Rules } from "./game.mjs";

const STARTS_IN = [5, 15, 30, 60];
const LENGTHS = [30, 45, 60];
const CODE = /^[A-Za-z0-9]{4,12}$/;

// the clock of a countdown: the time now, again every `ms` while `on`
function useNow(on, ms = 250) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return undefined;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

function when(t, now) {
  const T = W.tournament;
  if (t.status === "upcoming") return T.startsIn(t.starts_at - now);
  if (t.status === "running") return T.leftTime(t.ends_at - now);
  return T.statuses.finished;
}

function Row({ t, now }) {
  const T = W.tournament;
  const me = app.account && app.account.player;
  const marks = [
    t.place ? T.yourPlace(t.place) : t.joined ? T.mine : t.invited ? T.invited : "",
    t.public ? T.public : t.creator && t.creator !== me ? T.by(t.creator) : "",
    t.leader ? T.leader(t.leader) : "",
  ].filter(Boolean);
  return html`<li data-tournament=${t.code} data-status=${t.status}>
    <a href=${`#tournament/${t.code}`} class="tour-row">
      <strong><${Title} slug=${t.game} english=${false} /></strong>
      <span class="when" data-when=${t.status}>${when(t, now)}</span>
      <span class="muted">${T.players(t.entrants)} · ${T.minutes(t.minutes)} · <code>${t.code}</code></span>
      ${marks.length ? html`<span class="marks">${marks.join(" · ")}</span>` : ""}
    </a>
  </li>`;
}

export function Tournaments() {
  const T = W.tournament;
  const [answer, error] = useAsk(() => conn.call("tournaments", {}), []);
  const [game, setGame] = useState(app.games[0] ? app.games[0].slug : "");
  const [startsIn, setStartsIn] = useState(STARTS_IN[0]);
  const [minutes, setMinutes] = useState(LENGTHS[0]);
  const [code, setCode] = useState("");
  const [failed, setFailed] = useState("");
  const now = useNow(true, 1000);
  const create = async (event) => {
    event.preventDefault();
    setFailed("");
    try {
      const made = await conn.call("tournament_create", { game, starts_at: Date.now() + startsIn * 60_000, minutes });
      update({ tournament: made.tournament });
      go("tournament", made.tournament.code);
    } catch (err) {
      setFailed(err.message);
    }
  };
  const join = async (event) => {
    event.preventDefault();
    setFailed("");
    const typed = code.replace(/\s/g, "").toUpperCase();
    if (!CODE.test(typed)) return setFailed(T.badCode);
    try {
      const joined = await conn.call("tournament_join", { code: typed });
      update({ tournament: joined.tournament });
      go("tournament", joined.tournament.code);
    } catch (err) {
      setFailed(err.message);
    }
  };
  const rows = answer ? answer.tournaments : [];
  return html`<section class="tournaments">
    <h1>${T.title}</h1>
    <p class="lead">${T.lead}</p>
    ${error ? html`<p class="error">${error}</p>` : ""}
    ${!answer ? html`<p class="loading">${W.loading}</p>` : rows.length ? html`<ul class="tour-list">${rows.map((t) => html`<${Row} t=${t} now=${now} />`)}</ul>` : html`<p>${T.empty}</p>`}
    ${failed ? html`<p class="error" role="alert">${failed}</p>` : ""}
    <div class="tour-forms">
      <form class="tour-form" onSubmit=${create} aria-labelledby="tour-new">
        <h2 id="tour-new">${T.create}</h2>
        <${GamePicker} slug=${game} onPick=${setGame} field="tour-game" label=${T.game} />
        <label class="field">${T.startsAfter}
          <select data-field="tour-starts" value=${startsIn} onChange=${(e) => setStartsIn(Number(e.target.value))}>
            ${STARTS_IN.map((n) => html`<option value=${n}>${T.inMinutes(n)}</option>`)}
          </select>
        </label>
        <label class="field">${T.length}
          <select data-field="tour-minutes" value=${minutes} onChange=${(e) => setMinutes(Number(e.target.value))}>
            ${LENGTHS.map((n) => html`<option value=${n}>${T.inMinutes(n)}</option>`)}
          </select>
        </label>
        <button class="primary" data-do="tour-create">${T.make}</button>
      </form>
      <form class="tour-form" onSubmit=${join} aria-labelledby="tour-join">
        <h2 id="tour-join">${T.joinTitle}</h2>
        <label class="field">${T.code}
          <input data-field="tour-code" value=${code} onInput=${(e) => setCode(e.target.value)} autocomplete="off" autocapitalize="characters" placeholder="T7QX2MH" />
        </label>
        <button data-do="tour-join">${T.join}</button>
      </form>
    </div>
    <p class="note">${T.scoring}</p>
  </section>`;
}

// the standings: the first rows, yours marked (and yours after "…" when further down)
function Standings({ t, most = 10 }) {
  const T = W.tournament;
  const me = app.account && app.account.player;
  const rows = t.standings || [];
  if (t.status === "upcoming") {
    // before the start nobody ranks: who is in, that is all
    return html`<ul class="entrants">${rows.map((r) => html`<li data-player=${r.player} class=${r.player === me ? "me" : ""}>${r.player}</li>`)}</ul>`;
  }
  const live = t.status === "running";
  const shown = rows.slice(0, most);
  const mine = t.me && !shown.some((r) => r.player === me) ? t.me : null;
  const line = (r) => html`<li data-player=${r.player} data-rank=${r.rank} data-points=${r.points} class=${r.player === me ? "me" : ""}>
    <span class="rank">${r.rank}</span><span class="who">${r.player}${r.left ? T.left : ""}${live && r.playing ? html` <small class="muted">· ${T.playingNow}</small>` : ""}</span><span class="pts">${r.points}</span>
  </li>`;
  if (!rows.length) return html`<p class="muted">${T.nobody}</p>`;
  return html`<ol class="standings">${shown.map(line)}${mine ? html`<li class="gap" aria-hidden="true">…</li>${line(mine)}` : ""}</ol>`;
}

// the standings beside the board: the time left, your deal, points and place, the leaders
function Panel({ t, now }) {
  const T = W.tournament;
  const me = t.me;
  const stat = (value, label, data = {}) => html`<span class="stat" ...${data}><strong>${value}</strong><small>${label}</small></span>`;
  return html`<aside class="tour-panel" data-tournament-status=${t.status} aria-labelledby="tour-title">
    <h2 id="tour-title">${T.one(t.code)}</h2>
    <p class="tour-me" data-deal=${t.deal} data-points=${me ? me.points : 0}>
      ${stat(t.ends_at ? T.clock(t.ends_at - now) : "", T.timeLeft, { "data-left": "1" })}
      ${stat(t.deal || "–", T.dealLabel)}
      ${stat(me ? me.points : 0, T.yourPoints)}
      ${me && me.rank ? stat(T.nth(me.rank), T.of(t.entrants), { "data-rank": me.rank }) : ""}
    </p>
    <${Standings} t=${t} most=${8} />
  </aside>`;
}

export function Podium({ t }) {
  const T = W.tournament;
  const top = (t.standings || []).filter((r) => r.rank <= 3).slice(0, 3);
  const me = t.me;
  // 2nd, 1st, 3rd: the winner in the middle, highest
  const order = [top[1], top[0], top[2]].filter(Boolean);
  return html`<section class="podium-screen" data-podium=${t.code}>
    <h1>${T.one(t.code)} · ${T.podium}</h1>
    <p><${Title} slug=${t.game} /></p>
    ${top.length
      ? html`<ol class="podium" aria-label=${T.podium}>
          ${order.map(
            (r) => html`<li class=${`step step-${r.rank}`} data-rank=${r.rank} data-player=${r.player}>
              <strong>${r.player}</strong><span>${T.points(r.points)}</span><span class="block" aria-hidden="true">${r.rank}</span>
            </li>`,
          )}
        </ol>`
      : html`<p>${T.noPoints}</p>`}
    ${me && me.rank ? html`<p class="tour-result" data-my-rank=${me.rank}><strong>${T.finished(me.rank, t.entrants, T.points(me.points))}</strong></p>` : ""}
    <${Standings} t=${t} />
    <p class="muted">${T.history} <a href="#history">${W.nav.history}</a></p>
    <button class="primary" data-do="tour-back" onClick=${() => go("tournaments")}>${T.back}</button>
  </section>`;
}

// the tournament's deal of ours now: in play, else the next
async function playNext(t) {
  try {
    const dealt = await conn.call("tournament_play", { tournament_id: t.tournament_id });
    update({ tournament: { ...app.tournament, deal: dealt.deal } });
    openGame(dealt.state, { race: true });
  } catch (err) {
    update({ tournamentNote: err.message });
  }
}

export function Tournament({ code }) {
  const T = W.tournament;
  const [error, setError] = useState("");
  const [rules, setRules] = useState(false);
  const t = app.tournament && app.tournament.code.toUpperCase() === code.toUpperCase() ? app.tournament : null;
  const now = useNow(Boolean(t && t.status !== "finished"));
  useEffect(() => {
    let alive = true;
    let watched = null;
    update({ tournamentNote: null });
    conn
      .call("tournament", { code })
      .then(async (reply) => {
        // an entrant comes back (its events again), anyone else watches the standings
        const again = reply.tournament.joined
          ? await conn.call("tournament_join", { code })
          : await conn.call("tournament_watch", { code });
        if (!reply.tournament.joined) watched = again.tournament.tournament_id;
        if (!alive) return;
        update({ tournament: again.tournament });
        if (again.state || reply.state) openGame(again.state || reply.state, { race: true });
      })
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
      if (watched) conn.call("tournament_unwatch", { tournament_id: watched }).catch(() => {});
    };
  }, [code]);
  const status = t && t.status;
  const game = app.game && app.game.state.mode === "tournament" ? app.game : null;
  // the start: the first deal, dealt to an entrant at once
  useEffect(() => {
    if (t && status === "running" && t.joined && !game) playNext(t);
  }, [status, t && t.joined]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!t) return html`<p class="loading">${T.loading(code)}</p>`;
  if (status === "finished") return html`<${Podium} t=${t} />`;
  const leave = async () => {
    if (!window.confirm(status === "running" ? T.leaveAsk : T.leaveBefore)) return;
    await conn.call("tournament_leave", { tournament_id: t.tournament_id }).catch(() => {});
    update({ tournament: null, game: null });
    go("tournaments");
  };
  if (game && status === "running") {
    const next = () => (game.playing ? null : { title: T.deal((t.deal || 0) + 1), go: () => playNext(t) });
    return html`<${Board} game=${game} titles=${app.titles} onLeave=${() => go("tournaments")} onRules=${() => setRules(true)} onNext=${next} side=${html`<${Panel} t=${t} now=${now} />`} />
      ${rules ? html`<${Rules} slug=${game.state.game} onClose=${() => setRules(false)} />` : ""}`;
  }
  const enter = async () => {
    try {
      const joined = await conn.call("tournament_join", { code: t.code });
      update({ tournament: joined.tournament });
    } catch (err) {
      setError(err.message);
    }
  };
  const link = t.url || `${location.origin}/#tournament/${t.code}`;
  return html`<section class="tournament" data-tournament=${t.code} data-tournament-status=${status}>
    <h1>${T.one(t.code)} · <${Title} slug=${t.game} /></h1>
    ${status === "upcoming"
      ? html`<p class="countdown big" aria-live="polite" data-countdown="1">${T.countdown(t.starts_at - now)}</p>`
      : html`<p class="countdown" data-left="1">${when(t, now)}</p>`}
    <p>${T.minutes(t.minutes)}${status === "upcoming" ? "" : ` · ${T.players(t.entrants)}`}</p>
    <p>${T.share} <a href=${link} data-tour-link=${link}>${link}</a> <code>${t.code}</code></p>
    <p class="muted">${T.inviteHint} <a href="#friends">${W.nav.friends}</a></p>
    ${t.joined
      ? status === "running"
        ? html`<button class="primary" data-do="tour-play" onClick=${() => playNext(t)}>${T.play}</button>`
        : html`<p data-entered="1">${T.entered}</p>`
      : html`<button class="primary" data-do="tour-enter" onClick=${enter}>${T.enter}</button>`}
    ${app.tournamentNote ? html`<p class="note" role="status">${app.tournamentNote}</p>` : ""}
    <h2>${status === "upcoming" ? T.players(t.entrants) : T.standings}</h2>
    <${Standings} t=${t} />
    <p class="note">${T.scoring}</p>
    ${t.joined ? html`<button data-do="tour-leave" onClick=${leave}>${T.leave}</button>` : ""}
  </section>`;
}
