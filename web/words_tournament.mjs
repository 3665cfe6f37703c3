// The words of tournaments (web/screens/tournament.mjs, the friends screen's invite,
// the inbox's items): part of words.mjs's W, kept here so that neither module outgrows
// one job (tests/test_structure.py).

import { _, lang, ngettext } from "./i18n.mjs";

// "2nd" in English (Intl's ordinal rules); a number as it is elsewhere ("2-е место"
// says the rest in Russian)
const SUFFIX = { one: "st", two: "nd", few: "rd", other: "th" };
const ordinals = lang === "en" ? new Intl.PluralRules("en", { type: "ordinal" }) : null;
const nth = (n) => (ordinals ? `${n}${SUFFIX[ordinals.select(n)]}` : String(n));

// "4:05", "1:02:03": a time left
function left(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export const tournamentWords = {
  nav: _("Tournaments"),
  title: _("Tournaments"),
  lead: _("Everybody plays the same deals, one after another, for points. Nobody sees a deal before the start."),
  one: (code) => _("Tournament {code}", { code }),
  loading: (code) => _("tournament {code}…", { code }),
  statuses: { upcoming: _("upcoming"), running: _("running"), finished: _("ended") },
  startsIn: (ms) => _("starts in {clock}", { clock: left(ms) }),
  leftTime: (ms) => _("{clock} left", { clock: left(ms) }),
  countdown: (ms) => _("Starts in {clock}", { clock: left(ms) }),
  clock: left,
  minutes: (n) => ngettext("{n} minute", "{n} minutes", n),
  players: (n) => ngettext("{n} player", "{n} players", n),
  points: (n) => ngettext("{n} point", "{n} points", n),
  deal: (n) => _("deal {n}", { n }),
  you: (points) => _("you: {points}", { points }),
  yourPoints: _("your points"),
  timeLeft: _("left"),
  place: (rank, n) => _("{rank} of {n}", { rank: nth(rank), n }),
  nth,
  of: (n) => _("of {n}", { n }),
  dealLabel: _("deal in play"),
  yourPlace: (place) => _("your place: {place}", { place: nth(place) }),
  leader: (who) => _("leader: {who}", { who }),
  mine: _("you are in"),
  invited: _("invited"),
  public: _("public"),
  by: (who) => _("by {name}", { name: who }),
  empty: _("No tournament yet: make one, or join a friend's by its code."),
  scoring: _("Each deal: a win scores 2 points, a win within par 3; from the third win in a row, double; a deal lost or given up scores 0 and ends the streak. No hints; undo takes back no move that showed a card."),
  // making one
  create: _("New tournament"),
  game: _("Game"),
  startsAfter: _("Starts in"),
  length: _("Lasts"),
  inMinutes: (n) => ngettext("{n} minute", "{n} minutes", n),
  make: _("Create"),
  // joining by code
  joinTitle: _("Join by code"),
  code: _("Code"),
  join: _("Join"),
  badCode: _("A tournament's code is letters and digits, like T7QX2MH."),
  // one tournament
  share: _("Send this link, or the code:"),
  inviteHint: _("Invite friends from the Friends page."),
  enter: _("Enter the tournament"),
  entered: _("You are in: your first deal is dealt at the start."),
  play: _("Play"),
  leave: _("Leave"),
  leaveAsk: _("Leave the tournament? A deal of yours in play is given up; your points stay."),
  leaveBefore: _("Leave the tournament before it starts?"),
  standings: _("Standings"),
  nobody: _("Nobody has scored yet."),
  left: _(" (left)"),
  playingNow: _("playing"),
  // the podium
  podium: _("Podium"),
  finished: (rank, n, points) => _("You finished {rank} of {n} with {points}.", { rank: nth(rank), n, points }),
  noPoints: _("Nobody scored a point."),
  history: _("Your deals are in your history."),
  back: _("Back to tournaments"),
  // a player's tournaments, on the statistics page
  stats: (s) => _("Tournaments: {played} played, {won} won, {podiums} on the podium, best place {best}", { played: s.played, won: s.won, podiums: s.podiums, best: s.best ? nth(s.best) : "–" }),
  // invites and the inbox
  inviteThem: _("tournament"),
  inviteNone: _("You are in no tournament: make one on the Tournaments page first."),
  invitedTo: (who, code) => _("{player} is invited to your tournament {code}", { player: who, code }),
  item(item) {
    const t = item.tournament || {};
    if (item.kind === "tournament_result") {
      if (t.place && t.entrants) return _("You finished {place} of {n} in tournament {code}", { place: nth(t.place), n: t.entrants, code: t.code });
      return _("Tournament {code} is over", { code: t.code });
    }
    return _("{sender} invites you to a tournament ({code})", { sender: item.sender, code: t.code });
  },
  open: _("Open the tournament"),
  seePodium: _("See the podium"),
};
