// The words of the daily deal's pages (daily.js), in French: loaded by i18n.js when daily.js is (the tests
// check every language has the same keys).

export default {
  "daily.title": "Donne du jour du {day}", "daily.past_title": "Donne du jour du {day}",
  "daily.what": "{deals} donnes à quatre, contre des robots ({level}), les mêmes pour tous aujourd'hui : jouez-les une fois, et comparez.",
  "daily.what.one": "Une donne à quatre, contre des robots ({level}), la même pour tous aujourd'hui : jouez-la une fois, et comparez.",
  "daily.commitment": "Les donnes du jour viennent d'une graine dont le SHA-256 est", "daily.revealed": "La graine du jour, révélée :",
  "daily.hidden": "La graine est révélée à la fin de la journée (UTC).", "daily.play": "Jouer la donne du jour",
  "daily.guest": "Connectez-vous (ou inscrivez-vous) pour jouer la donne du jour.", "daily.playing": "Votre partie du jour est en cours :",
  "daily.back": "retour à votre table", "daily.finished": "Vous avez joué la donne du jour : {total} points.",
  "daily.abandoned": "Vous avez quitté la donne du jour : {total} points, classé après ceux qui l'ont finie.",
  "daily.ranking": "Le classement du jour", "daily.none": "Personne n'a encore joué ce jour-là.", "daily.place": "Place", "daily.name": "Joueur",
  "daily.total": "Points", "daily.status": "", "daily.status.abandoned": "abandon", "daily.status.playing": "en cours",
  "daily.plays": "Le jeu de chacun sur les mêmes donnes", "daily.plays_locked": "Le jeu de chacun et ses cartes s'affichent à la fin de la journée (UTC) : à personne avant, vous compris.",
  "daily.unranked.same_address": "non classé : même adresse", "daily.unranked.same_browser": "non classé : même navigateur",
  "daily.you_unranked.same_address": "Votre partie n'est pas classée : un autre compte a joué ce jour-là depuis la même adresse avant vous (une partie classée par personne).",
  "daily.you_unranked.same_browser": "Votre partie n'est pas classée : un autre compte a joué ce jour-là depuis le même navigateur avant vous (une partie classée par personne).",
  "daily.unranked_if": "Une partie classée par personne : un autre compte a joué aujourd'hui depuis cette adresse ou ce navigateur, une partie jouée d'ici sera donc non classée.",
  "daily.deal": "donne {n}", "daily.yours": "(vous)", "daily.past": "Jours passés", "daily.no_past": "Pas encore de jour passé.",
  "daily.played_by": "{n} joueurs", "daily.played_by.one": "{n} joueur", "daily.download": "Télécharger toute la journée pour atout verify",
  "daily.next": "Engagement de demain :", "daily.today_link": "La donne du jour",
};
