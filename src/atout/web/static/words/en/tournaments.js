// The words of the tournaments' pages (tournaments.js), in English: loaded by i18n.js when tournaments.js is
// (the tests check every language has the same keys).

export default {
  "tournaments.title": "Tournaments", "tournaments.intro": "Duplicate tournaments: every table plays the same deals from the same seats, and each seat is scored against the same seat at the other tables.",
  "tournaments.open": "Registration open", "tournaments.running": "Being played", "tournaments.finished": "Finished", "tournaments.none": "None.",
  "tournaments.create": "Create a tournament", "tournaments.name": "Name", "tournaments.deals": "Deals a round", "tournaments.players": "Players a table", "tournaments.rounds": "Rounds",
  "tournaments.start": "Start", "tournaments.when_full": "When full, with", "tournaments.people": "people", "tournaments.at_time": "At", "tournaments.private": "Private (by its link only)",
  "tournaments.make": "Create", "tournaments.guest": "Log in (or register) to create or join a tournament.",
  "tournaments.summary": "Deals a round: {deals} · rounds: {rounds} · {players} a table · robots: {level}.",
  "tournaments.starts_at": "Starts at {time}.", "tournaments.starts_full": "Starts when {size} people have registered.",
  "tournaments.entries": "Registered ({n})", "tournaments.register": "Register", "tournaments.unregister": "Unregister", "tournaments.your_table": "Your table is ready:",
  "tournaments.go_table": "play", "tournaments.commitment": "The deals come from a seed whose SHA-256 is", "tournaments.seed": "The seed, revealed:",
  "tournaments.ranking": "Ranking", "tournaments.live": "live", "tournaments.place": "Place", "tournaments.player": "Player", "tournaments.total": "Duplicate score", "tournaments.scored": "Deals",
  "tournaments.abandoned": "abandoned", "tournaments.tables": "Tables", "tournaments.round": "Round {n}", "tournaments.table": "Table {n}", "tournaments.robot": "robot",
  "tournaments.deal": "deal {n}", "tournaments.scores": "Deal by deal", "tournaments.deal_seat": "Deal", "tournaments.seat": "Seat", "tournaments.points": "Points", "tournaments.mean": "Mean",
  "tournaments.score": "Score", "tournaments.played": "Deals played: {n}", "tournaments.closed": "over", "tournaments.hidden": "Each deal's scores are shown once every table of its round has played it.",
  "tournaments.status_open": "registration open", "tournaments.status_running": "being played", "tournaments.status_finished": "finished", "tournaments.status_cancelled": "cancelled",
  "tournaments.back": "All tournaments",
  "tournaments.download": "Download every deal of every table for atout verify", "tournaments.deal_label": "round {r}, deal {k}",
};
