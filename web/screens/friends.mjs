// The players one follows — online or not, doing what, their dailies today — with a
// race or a challenge sent in one click, a block, and one's own presence hidden or
// shown; and the inbox: friends' invites and news, each accepted in one click.

import { html, useState } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn, loadUnread, openGame } from "../session.mjs";
import { app, update } from "../store.mjs";
import { Report } from "../report.mjs";
import { GamePicker, Title, useAsk } from "../ui.mjs";
import { assistedNote, outcome, W } from "../words.mjs";

function Presence({ f }) {
  if (!f.online) return html`<span class="presence off" data-presence="offline">${W.friends.offline}</span>`;
  return html`<span class="presence on" data-presence=${f.activity}>${W.friends.activity[f.activity] || f.activity}</span>
    ${f.race ? html` <button class="link" data-do="join-lobby" onClick=${() => go("race", f.race)}>${W.friends.joinLobby(f.race)}</button>` : ""}`;
}

export function Friends() {
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [game, setGame] = useState(app.games[0] ? app.games[0].slug : "");
  const [answer, error, again] = useAsk(() => conn.call("friends", {}), []);
  const tell = (text) => setNote(text);
  const add = async (event) => {
    event.preventDefault();
    try {
      const reply = await conn.call("friend_add", { name: name.trim() });
      tell(reply.added ? W.friends.added(reply.friend) : W.friends.already(reply.friend));
      setName("");
      again();
    } catch (err) {
      tell(err.message);
    }
  };
  const act = async (op, params) => {
    try {
      await conn.call(op, params);
    } catch (err) {
      tell(err.message);
    }
    again();
  };
  const race = async (who) => {
    try {
      const made = await conn.call("race_create", { game });
      await conn.call("invite", { name: who, race: made.race.code });
      update({ race: made.race, game: null });
      go("race", made.race.code);
    } catch (err) {
      tell(err.message);
    }
  };
  const challenge = async (who) => {
    try {
      const made = await conn.call("challenge_create", { game });
      await conn.call("invite", { name: who, challenge: made.challenge.code });
      tell(W.friends.invited(who, made.challenge.code));
      go("challenge", made.challenge.code);
    } catch (err) {
      tell(err.message);
    }
  };
  // issue 51: to the tournament of yours (made or entered, not over) that starts first
  const tournament = async (who) => {
    try {
      const rows = (await conn.call("tournaments", {})).tournaments;
      const open = rows.find((t) => t.status !== "finished" && (t.joined || t.creator === app.account.player));
      if (!open) return tell(W.tournament.inviteNone);
      await conn.call("invite", { name: who, tournament: open.code });
      tell(W.tournament.invitedTo(who, open.code));
    } catch (err) {
      tell(err.message);
    }
  };
  const F = W.friends;
  return html`<section class="friends">
    <h1>${F.title}</h1>
    <form onSubmit=${add}>
      <label class="field">${F.name}
        <input data-field="friend" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="off" />
      </label>
      <button data-do="friend-add">${F.follow}</button> <span role="status">${note}</span>
    </form>
    <${GamePicker} slug=${game} onPick=${setGame} field="invite-game" label=${F.inviteGame} />
    ${error ? html`<p class="error">${error}</p>` : ""}
    ${answer
      ? html`${answer.friends.length
          ? html`<ul class="friend-list">
              ${answer.friends.map(
                (f) => html`<li data-friend=${f.player} data-online=${f.online ? "1" : "0"}>
                  <strong>${f.player}</strong> <${Presence} f=${f} />
                  ${Object.entries(f.today).map(([slug, g]) => html` <span class="today" data-assisted=${g.assisted ? "1" : "0"}><${Title} slug=${slug} english=${false} />: ${g.status === "playing" ? W.inPlay : `${outcome(g)}${assistedNote(g)}`}</span>`)}
                  ${Object.entries(f.ratings || {}).sort((a, b) => b[1].value - a[1].value).map(([slug, r]) => html` <span class="rating" data-rating=${`${slug} ${W.ratings.value(r)}`}>· <${Title} slug=${slug} english=${false} />: ${W.ratings.said(r)} </span>`)}
                  <span class="row-actions">
                    <button data-do="invite-race" onClick=${() => race(f.player)}>${F.raceThem}</button>
                    <button data-do="invite-challenge" onClick=${() => challenge(f.player)}>${F.challengeThem}</button>
                    <button data-do="invite-tournament" onClick=${() => tournament(f.player)}>${W.tournament.inviteThem}</button>
                    <button class="link" onClick=${() => go("stats", f.player)}>${F.stats}</button>
                    <button class="link" onClick=${() => act("friend_remove", { name: f.player })}>${F.unfollow}</button>
                    <button class="link" data-do="block" onClick=${() => act("block", { name: f.player })}>${F.block}</button>
                    <${Report} name=${f.player} />
                  </span>
                </li>`,
              )}
            </ul>`
          : html`<p>${F.none}</p>`}
          ${answer.blocked.length
            ? html`<p class="note">${F.blocked(answer.blocked.join(", "))} ${answer.blocked.map((b) => html`<button class="link" data-do="unblock" onClick=${() => act("unblock", { name: b })}>${F.unblock} ${b}</button> `)}</p>`
            : ""}
          <p>${answer.hidden ? html`${F.hidden} ` : ""}<button data-do="presence" onClick=${() => act("presence", { hidden: !answer.hidden })}>${answer.hidden ? F.show : F.hide}</button></p>`
      : ""}
  </section>`;
}

export function Inbox() {
  const [answer, error, again] = useAsk(() => conn.call("inbox", {}), []);
  const [failed, setFailed] = useState("");
  const I = W.inbox;
  const read = async (item) => {
    await conn.call("inbox_read", item ? { item: item.id } : {}).catch(() => {});
    loadUnread();
  };
  const accept = async (item) => {
    setFailed("");
    await read(item);
    try {
      if (item.tournament) {
        go("tournament", item.tournament.code);
      } else if (item.race) {
        go("race", item.race.code);
      } else if (item.kind === "invite" && item.challenge) {
        const reply = await conn.call("challenge_accept", { code: item.challenge.code });
        openGame(reply.state);
      } else if (item.challenge) {
        go("challenge", item.challenge.code);
      } else {
        again();
      }
    } catch (err) {
      setFailed(err.message);
      again();
    }
  };
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">${W.loading}</p>`;
  return html`<section class="inbox">
    <h1>${I.title} <small>${I.unread(answer.unread)}</small></h1>
    ${failed ? html`<p class="error" role="alert">${failed}</p>` : ""}
    ${answer.items.length
      ? html`<button data-do="read-all" onClick=${async () => { await read(null); again(); }}>${I.readAll}</button>
        <ul class="inbox-list">
          ${answer.items.map(
            (item) => html`<li data-item=${item.kind} data-read=${item.read ? "1" : "0"} class=${item.read ? "read" : "unread"}>
              <span>${item.read ? "" : html`<strong aria-hidden="true">• </strong>`}${I.text(item)} · <${Title} slug=${item.game} english=${false} /></span>
              <small>${I.when(item.at)}</small>
              <button class="primary" data-do="accept" onClick=${() => accept(item)}>${I.action(item)}</button>
            </li>`,
          )}
        </ul>`
      : html`<p>${I.none}</p>`}
  </section>`;
}
