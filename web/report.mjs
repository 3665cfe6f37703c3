// Report a player to the server's operators (issue 49): a link on a player's row (a
// leaderboard, friends) and on a finished race's members, opening a small form — a
// reason, a few words if the player likes, sent with `report` (at most 5 an hour: the
// server says so in words when past it).

import { html, useState } from "./vendor/preact-htm.mjs";
import { conn } from "./session.mjs";
import { app } from "./store.mjs";
import { _ } from "./i18n.mjs";
import { W } from "./words.mjs";

const REASONS = ["cheating", "name", "abuse", "other"];

// the form's words (kept here: words.mjs is full)
const R = {
  open: _("report"),
  title: (name) => _("Report {name} to the server's operators", { name }),
  reason: _("Why"),
  reasons: {
    cheating: _("cheating"),
    name: _("an offensive name"),
    abuse: _("abuse"),
    other: _("something else"),
  },
  text: _("A few words (optional)"),
  send: _("Send the report"),
  sent: _("reported ✓"),
};

export function Report({ name, gameId = null, note = "" }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("cheating");
  const [text, setText] = useState(note);
  const [said, setSaid] = useState("");
  if (!app.account || !app.signedIn || name === app.account.player) return "";
  const stop = (event) => event.stopPropagation(); // a leaderboard row opens a replay
  if (!open) {
    return html`<button class="link report" data-do="report" title=${R.title(name)} onClick=${(e) => { stop(e); setOpen(true); }}>${said || R.open}</button>`;
  }
  const send = async (event) => {
    event.preventDefault();
    const params = { name, reason };
    if (text.trim()) params.text = text.trim().slice(0, 280);
    if (gameId) params.game_id = gameId;
    try {
      await conn.call("report", params);
      setSaid(R.sent);
      setOpen(false);
    } catch (err) {
      setSaid(err.message);
    }
  };
  return html`<form class="report-form" data-report=${name} onClick=${stop} onSubmit=${send}>
    <label class="field">${R.reason}
      <select data-field="report-reason" value=${reason} onChange=${(e) => setReason(e.target.value)}>
        ${REASONS.map((r) => html`<option value=${r}>${R.reasons[r]}</option>`)}
      </select>
    </label>
    <label class="field">${R.text}
      <input data-field="report-text" maxlength="280" value=${text} onInput=${(e) => setText(e.target.value)} />
    </label>
    <button data-do="report-send">${R.send}</button>
    <button type="button" class="link" onClick=${() => setOpen(false)}>${W.close}</button>
    ${said ? html`<span role="status">${said}</span>` : ""}
  </form>`;
}
