// The account: the token (to sign in on another device), the player's choices (suits in
// four colours, the card back, a single tap home), installing the page as an app,
// signing out.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { Card } from "../cards.mjs";
import { app, CARD_BACKS, FELTS, prefs, saveAccount } from "../store.mjs";
import { LangChoice } from "../ui.mjs";
import { W } from "../words.mjs";

// the browser's offer to install the page (beforeinstallprompt), kept until used
let installOffer = null;
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  installOffer = event;
});

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
  </section>`;
}
