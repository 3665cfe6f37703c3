// The words of a challenge (web/screens/challenge.mjs): part of words.mjs's W, kept
// here so that neither module outgrows one job (tests/test_structure.py).

import { _ } from "./i18n.mjs";

export const challengeWords = {
  title: (code) => _("Challenge {code} · ", { code }),
  by: (who) => _("by {who}", { who }),
  chosen: _(" · the deal's seed was chosen by a player"),
  closed: _("closed: its results are final"),
  openUntil: (when) => _("open until {when} UTC", { when }),
  opens: (when) => _("It opens to players at {when} UTC, when the day of its daily is over.", { when }),
  seedKnown: _("Its creator could see this deal's number before playing it: their result ranks apart."),
  seedPublic: _("This deal's number is public (a past daily's, a race's or another challenge's deal): any result on it may have been worked out in advance."),
  deal: (seed) => _("Deal {seed}", { seed }),
  share: _("Share:"),
  columns: ["#", _("player"), _("result"), _("cards"), _("moves"), _("time")],
  mark: _(" (mark)"),
  seedKnownRow: _(" · seed known: not ranked"),
  noResult: _("No result yet."),
  playing: (names) => _("Playing now: {names}", { names }),
  yourMark: _("Your result is the mark to beat."),
  back: _("Back to your game"),
  play: _("Play this deal"),
  close: _("Close the challenge"),
  closeAsk: _("Close this challenge? Nobody can play it any more, its results are final (a game still in play counts nowhere), and its deal's number is shown to everyone who played it."),
  loading: (code) => _("challenge {code}…", { code }),
  news: (who, code) => _("{sender} finished your challenge {code}", { sender: who, code }),
};
