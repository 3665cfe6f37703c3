// The account: linking another device (a one-use code shown big with its countdown, or
// the token), the player's choices (suits in four colours, the card back, a single tap
// home), installing the page as an app, signing out (here, or everywhere else), the
// player's data downloaded, the account deleted.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { Card } from "../cards.mjs";
import { deleteAccount, exportAccount, linkCode, rotateToken } from "../session.mjs";
import { app, CARD_BACKS, FELTS, prefs, saveAccount } from "../store.mjs";
import { LangChoice } from "../ui.mjs";
import { _ } from "../i18n.mjs";
import { W } from "../words.mjs";

// the words of linking a device, signing out everywhere, the data and leaving (issue 49)
const K = {
    link: _("Link a device"),
    linkNote: _("On the other device choose “I have an account” and type this code. It works once."),
    linkLeft: (left) => _("works for {left} more", { left }),
    linkOver: _("The code has expired: ask for a new one."),
    rotate: _("Sign out everywhere else"),
    rotateAsk: _("Sign out every other device and tab of this account? They need a new link code to come back."),
    rotated: _("Done: every other device is signed out. This one keeps a new token."),
    exportData: _("Download my data"),
    exported: _("Your data is downloaded (a JSON file)."),
    leave: _("Delete my account"),
    leaveNote: (days) => _("Your account, friends, inbox and results are deleted for good; others' races show “a player who left”. Your name is held for {days} days. Type your name to confirm:", { days }),
    leaveName: _("Your name, typed again"),
    leaveDo: _("Delete for good"),
};

// the browser's offer to install the page (beforeinstallprompt), kept until used
let installOffer = null;
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  installOffer = event;
});

// "m:ss" of a number of seconds
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Link a device: the code, big, and the seconds it works for, counted down
function LinkDevice() {
  const [code, setCode] = useState(null); // {code, until (ms, this page's clock)}
  const [now, setNow] = useState(Date.now());
  const [error, setError] = useState("");
  useEffect(() => {
    if (!code) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [code]);
  const ask = async () => {
    setError("");
    try {
      const reply = await linkCode();
      setCode({ code: reply.code, until: Date.now() + reply.expires_in * 1000 });
      setNow(Date.now());
    } catch (err) {
      setError(err.message);
    }
  };
  const left = code ? (code.until - now) / 1000 : 0;
  return html`<div class="link-device">
    <button class="primary" data-do="link-code" onClick=${ask}>${K.link}</button>
    ${code && left > 0
      ? html`<p>${K.linkNote}</p>
          <p class="link-code" data-link-code=${code.code} aria-live="polite">${code.code}</p>
          <p class="link-left" data-link-left=${Math.ceil(left)}>${K.linkLeft(clock(left))}</p>`
      : code
        ? html`<p class="link-left" data-link-left="0">${K.linkOver}</p>`
        : ""}
    ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
  </div>`;
}

// Sign out everywhere else, download my data, delete my account
function Keeping() {
  const [said, setSaid] = useState("");
  const [error, setError] = useState("");
  const [name, setName] = useState("");
  const run = async (what, done) => {
    setSaid("");
    setError("");
    try {
      await what();
      setSaid(done);
    } catch (err) {
      setError(err.message);
    }
  };
  const rotate = () => window.confirm(K.rotateAsk) && run(rotateToken, K.rotated);
  const leave = async (event) => {
    event.preventDefault();
    await run(() => deleteAccount(name.trim()), "");
    if (!app.account) {
      location.hash = "";
      location.reload();
    }
  };
  return html`<div class="keeping">
    <button data-do="token-rotate" onClick=${rotate}>${K.rotate}</button>
    <button data-do="export" onClick=${() => run(exportAccount, K.exported)}>${K.exportData}</button>
    <details class="leave">
      <summary>${K.leave}</summary>
      <form onSubmit=${leave}>
        <p>${K.leaveNote(30)}</p>
        <label>${K.leaveName}
          <input data-field="leave-name" value=${name} onInput=${(e) => setName(e.target.value)} autocomplete="off" required />
        </label>
        <button class="danger" data-do="delete-account">${K.leaveDo}</button>
      </form>
    </details>
    ${said ? html`<p class="said" role="status">${said}</p>` : ""}
    ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
  </div>`;
}

export function Account() {
  const [shown, setShown] = useState(false);
  const [canInstall, setCanInstall] = useState(Boolean(installOffer));
  useEffect(() => {
    const offered = () => setCanInstall(true);
    window.addEventListener("beforeinstallprompt", offered);
    return () => window.removeEventListener("beforeinstallprompt", offered);
  }, []);
  const signOut = () => {
    if (!window.confirm(W.account.signOutAsk)) return;
    saveAccount(null);
    location.hash = "";
    location.reload();
  };
  const install = async () => {
    if (!installOffer) return;
    installOffer.prompt();
    await installOffer.userChoice.catch(() => null);
    installOffer = null;
    setCanInstall(false);
  };
  return html`<section class="account">
    <h1>${W.account.title}: ${app.account.player}</h1>
    <${LinkDevice} />
    <button data-do="show-token" aria-expanded=${String(shown)} onClick=${() => setShown(!shown)}>${W.account.device}</button>
    ${shown ? html`<p>${W.account.tokenNote}</p><pre class="token">${app.account.token}</pre>` : ""}
    <div class="prefs">
      <${LangChoice} />
      <label class="toggle"><input type="checkbox" data-field="four-colour" checked=${prefs.fourColour} onChange=${(e) => (prefs.fourColour = e.target.checked)} /> ${W.account.fourColour}</label>
      <label class="toggle"><input type="checkbox" data-field="tap-home" checked=${prefs.tapHome} onChange=${(e) => (prefs.tapHome = e.target.checked)} /> ${W.account.tapHome}</label>
      <label class="toggle"><input type="checkbox" data-field="safe-after-account" checked=${prefs.safeAfter} onChange=${(e) => (prefs.safeAfter = e.target.checked)} /> ${W.board.safeAfter}</label>
      <label class="toggle"><input type="checkbox" data-field="sound-account" checked=${prefs.sound} onChange=${(e) => (prefs.sound = e.target.checked)} /> ${W.board.sound}</label>
      <label class="toggle"><input type="checkbox" data-field="haptics-account" checked=${prefs.haptics} onChange=${(e) => (prefs.haptics = e.target.checked)} /> ${W.board.haptics}</label>
      <label class="toggle"><input type="checkbox" data-field="how-to" checked=${prefs.howTo} onChange=${(e) => (prefs.howTo = e.target.checked)} /> ${W.howTo.setting}</label>
      <fieldset class="backs felts">
        <legend>${W.account.felt}</legend>
        ${FELTS.map(
          (felt) => html`<label class=${`felt-choice felt-${felt}`}>
            <input type="radio" name="felt" value=${felt} data-field=${`felt-${felt}`} checked=${prefs.felt === felt} onChange=${() => (prefs.felt = felt)} />
            <span class="swatch" aria-hidden="true"></span>
            ${W.account.felts[felt]}
          </label>`,
        )}
      </fieldset>
      <fieldset class="backs">
        <legend>${W.account.back}</legend>
        ${CARD_BACKS.map(
          (back) => html`<label class=${`back-choice back-${back}`}>
            <input type="radio" name="back" value=${back} data-field=${`back-${back}`} checked=${prefs.cardBack === back} onChange=${() => (prefs.cardBack = back)} />
            <span class="sample" aria-hidden="true"><${Card} code=${null} index=${0} x=${0} y=${0} /></span>
            ${W.account.backs[back]}
          </label>`,
        )}
      </fieldset>
      <div class="sample-cards" aria-hidden="true">
        ${["AS", "KH", "QD", "JC", "TS"].map((code, i) => html`<${Card} code=${code} index=${i} x=${i * 62} y=${0} whole=${true} />`)}
      </div>
    </div>
    ${canInstall ? html`<button data-do="install" onClick=${install}>${W.account.install}</button>` : ""}
    <button data-do="sign-out" onClick=${signOut}>${W.account.signOut}</button>
    <${Keeping} />
  </section>`;
}
