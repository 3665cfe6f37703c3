// The page's language, picked before anything is drawn (a classic script in <head>):
// the one the player chose (remembered in localStorage), else the browser's, else
// English. It marks <html lang> (the page's "loading…" shows in that language: style.css)
// and starts fetching that language's catalogue (i18n/LANG.json) while the modules
// load; i18n.mjs waits for it before any word is made (docs/i18n.md).
(function () {
  var LANGS = ["en", "ru"];
  var lang = null;
  try {
    lang = localStorage.getItem("pasyans.lang");
  } catch (e) {
    lang = null;
  }
  if (LANGS.indexOf(lang) < 0) {
    lang = "en";
    var tags = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < tags.length; i++) {
      var primary = String(tags[i]).toLowerCase().split(/[-_]/)[0];
      if (LANGS.indexOf(primary) >= 0) {
        lang = primary;
        break;
      }
    }
  }
  document.documentElement.lang = lang;
  window.pasyansLang = lang;
  window.pasyansCatalogue = fetch("/i18n/" + lang + ".json")
    .then(function (r) {
      return r.ok ? r.json() : null;
    })
    .catch(function () {
      return null;
    });
})();
