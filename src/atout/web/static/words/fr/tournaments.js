// The words of the tournaments' pages (tournaments.js), in French: loaded by i18n.js when tournaments.js is
// (the tests check every language has the same keys).

export default {
  "tournaments.title": "Tournois", "tournaments.intro": "Tournois en duplicate : chaque table joue les mêmes donnes aux mêmes places, et chaque place est comparée à la même place des autres tables.",
  "tournaments.open": "Inscriptions ouvertes", "tournaments.running": "En cours", "tournaments.finished": "Terminés", "tournaments.none": "Aucun.",
  "tournaments.create": "Créer un tournoi", "tournaments.name": "Nom", "tournaments.deals": "Donnes par tour", "tournaments.players": "Joueurs par table", "tournaments.rounds": "Tours",
  "tournaments.start": "Début", "tournaments.when_full": "Quand il est complet, à", "tournaments.people": "personnes", "tournaments.at_time": "À", "tournaments.private": "Privé (par son lien seulement)",
  "tournaments.make": "Créer", "tournaments.guest": "Connectez-vous (ou inscrivez-vous) pour créer un tournoi ou y participer.",
  "tournaments.summary": "Donnes par tour : {deals} · tours : {rounds} · {players} par table · robots : {level}.",
  "tournaments.starts_at": "Début à {time}.", "tournaments.starts_full": "Commence quand {size} personnes sont inscrites.",
  "tournaments.entries": "Inscrits ({n})", "tournaments.register": "S'inscrire", "tournaments.unregister": "Se désinscrire", "tournaments.your_table": "Votre table est prête :",
  "tournaments.go_table": "jouer", "tournaments.commitment": "Les donnes viennent d'une graine dont le SHA-256 est", "tournaments.seed": "La graine, révélée :",
  "tournaments.ranking": "Classement", "tournaments.live": "en direct", "tournaments.place": "Place", "tournaments.player": "Joueur", "tournaments.total": "Score duplicate", "tournaments.scored": "Donnes",
  "tournaments.abandoned": "abandon", "tournaments.tables": "Tables", "tournaments.round": "Tour {n}", "tournaments.table": "Table {n}", "tournaments.robot": "robot",
  "tournaments.deal": "donne {n}", "tournaments.scores": "Donne par donne", "tournaments.deal_seat": "Donne", "tournaments.seat": "Place", "tournaments.points": "Points", "tournaments.mean": "Moyenne",
  "tournaments.score": "Score", "tournaments.played": "Donnes jouées : {n}", "tournaments.closed": "finie", "tournaments.hidden": "Les scores de chaque donne s'affichent quand toutes les tables de son tour l'ont jouée.",
  "tournaments.status_open": "inscriptions ouvertes", "tournaments.status_running": "en cours", "tournaments.status_finished": "terminé", "tournaments.status_cancelled": "annulé",
  "tournaments.back": "Tous les tournois",
  "tournaments.download": "Télécharger toutes les donnes de toutes les tables pour atout verify", "tournaments.deal_label": "tour {r}, donne {k}",
};
