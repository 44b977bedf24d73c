// The words of the daily deal's pages (daily.js), in English: loaded by i18n.js when daily.js is (the tests
// check every language has the same keys).

export default {
  "daily.title": "Daily deal of {day}", "daily.past_title": "Daily deal of {day}",
  "daily.what": "{deals} deals at four, against robots ({level}), the same for everyone today: play them once, and compare.",
  "daily.what.one": "One deal at four, against robots ({level}), the same for everyone today: play it once, and compare.",
  "daily.commitment": "Today's deals come from a seed whose SHA-256 is", "daily.revealed": "The day's seed, revealed:",
  "daily.hidden": "The seed is revealed when the day is over (UTC).", "daily.play": "Play today's deal",
  "daily.guest": "Log in (or register) to play the daily deal.", "daily.playing": "Your play of today's deal goes on:",
  "daily.back": "back to your table", "daily.finished": "You played today's deal: {total} points.",
  "daily.abandoned": "You left today's deal: {total} points, ranked after those who played it to the end.",
  "daily.ranking": "The day's ranking", "daily.none": "Nobody has played this day yet.", "daily.place": "Place", "daily.name": "Player",
  "daily.total": "Points", "daily.status": "", "daily.status.abandoned": "abandoned", "daily.status.playing": "playing",
  "daily.plays": "Everyone's play of the same deals", "daily.plays_locked": "Everyone's play of the day, and its cards, are shown once the day is over (UTC): to nobody before, you included.",
  "daily.unranked.same_address": "unranked: same address", "daily.unranked.same_browser": "unranked: same browser",
  "daily.you_unranked.same_address": "Your play is not ranked: another account played this day from the same address before you (one ranked play a person).",
  "daily.you_unranked.same_browser": "Your play is not ranked: another account played this day from the same browser before you (one ranked play a person).",
  "daily.unranked_if": "One ranked play a person: another account has played today from this address or browser, so a play from here will be shown unranked.",
  "daily.deal": "deal {n}", "daily.yours": "(you)", "daily.past": "Past days", "daily.no_past": "No past day yet.",
  "daily.played_by": "{n} played", "daily.played_by.one": "{n} played", "daily.download": "Download the whole day for atout verify",
  "daily.next": "Tomorrow's commitment:", "daily.today_link": "Today's deal",
};
