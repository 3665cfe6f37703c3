// Signing in: a new name (any one alphabet), or an account made on another device: a
// link code that device shows (Account → Link a device), or its token.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { Card } from "../cards.mjs";
import { lang } from "../i18n.mjs";
import { conn, register, signInWith } from "../session.mjs";
import { app } from "../store.mjs";
import { LangChoice, Title } from "../ui.mjs";
import { W } from "../words.mjs";

// What a challenge link is, before signing in: the game, who made it, how many played
// (the server shows a challenge to anyone, seed hidden until it closes)
function ChallengePreview({ code }) {
  const [challenge, setChallenge] = useState(null);
  useEffect(() => {
    let alive = true;
    conn.call("challenge", { code }).then((reply) => alive && setChallenge(reply.challenge), () => {});
    return () => {
      alive = false;
    };
  }, [code]);
  if (!challenge) return "";
  return html`<p class="challenge-preview" data-preview=${challenge.code}>
    ${W.signIn.challengedBy(challenge.creator)} <strong><${Title} slug=${challenge.game} english=${lang !== "ru"} /></strong>.
    ${" "}${W.signIn.challengeResults(challenge.results.length)}
  </p>`;
}

export function SignIn() {
  // a challenge's link opened by a newcomer: said first, and played once signed in
  const invited = app.route.name === "challenge" && app.route.args[0] ? app.route.args[0] : null;
  if (invited) app.playChallenge = invited;
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const [error, setError] = useState("");
  const onRegister = async (event) => {
    event.preventDefault();
    setError("");
    try {
      await register(name.trim());
    } catch (err) {
      setError(err.message);
    }
  };
  const onLogin = async (event) => {
    event.preventDefault();
    setError("");
    try {
      if (!(await signInWith(token.trim()))) setError(W.signIn.unknown);
    } catch (err) {
      setError(err.message); // a wrong or used link code, too many tried: in words
    }
  };
  return html`<main class="signin">
    <div class="hero" aria-hidden="true">
      ${["KH", "QS", "AD", "JC", "TH"].map((code, i) => html`<span class="fanned" style=${{ "--i": i }}><${Card} code=${code} index=${i} x=${0} y=${0} whole=${true} /></span>`)}
    </div>
    <h1><span lang="ru">${W.brand}</span> <small>${W.brandLatin}</small></h1>
    ${invited
      ? html`<p class="invited" data-invited=${invited}>${W.signIn.challenged(invited)}</p><${ChallengePreview} code=${invited} />`
      : html`<p>${W.signIn.lead}</p>`}
    <form onSubmit=${onRegister}>
      <label>${W.signIn.name}
        <input data-field="name" value=${name} onInput=${(e) => setName(e.target.value)}
          minlength="3" maxlength="20" required autocomplete="nickname" />
      </label>
      <button class="primary" data-do="register">${W.signIn.start}</button>
    </form>
    <details>
      <summary>${W.signIn.have}</summary>
      <form onSubmit=${onLogin}>
        <label>${W.signIn.token}
          <input data-field="token" value=${token} onInput=${(e) => setToken(e.target.value)} autocomplete="off" />
        </label>
        <button data-do="login">${W.signIn.signIn}</button>
      </form>
    </details>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
    <${LangChoice} />
  </main>`;
}
