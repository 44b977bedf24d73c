// The words of the guided lessons (learn.js, learn-lesson.js), in French: loaded by i18n.js when the lessons
// are opened, not with the first page (the tests check every language has the same keys).

export default {
  "learn.back": "Toutes les leçons", "learn.lesson_n": "Leçon {n} sur {of}", "learn.steps": "Étapes", "learn.step_n": "Étape {n} sur {of}",
  "learn.step_done": "étape {n}, faite", "learn.step_now": "étape {n}, en cours", "learn.step_later": "étape {n}, à venir",
  "learn.about": "À propos de cette leçon", "learn.question": "La question", "learn.happened": "Ce qui s'est passé",
  "learn.wrong": "Pas celle-ci.", "learn.try_again": "Réessayez.",
  "learn.chosen": "{k} sur {n} choisies", "learn.lay": "Les écarter", "learn.clear": "Recommencer",
  "learn.show": "Montrer celles-ci", "learn.no_poignee": "N'en montrer aucune", "learn.click_card": "Cliquez sur une carte de votre main.",
  "learn.finished": "Leçon terminée", "learn.next": "Leçon suivante", "learn.again": "Rejouer cette leçon",
  "learn.play": "Jouer une vraie donne", "learn.rules": "Lire les règles",
  "learn.start": "Commencer", "learn.continue": "Continuer",
  "learn.status_done": "faite", "learn.status_step": "étape {n} sur {of}", "learn.status_new": "pas commencée",
  "learn.progress": "{n} leçons faites sur {of}", "learn.first": "Commencer par la leçon 1", "learn.resume": "Continuer : {title}",
  "learn.all_done": "Vous avez fini toutes les leçons. Jouez maintenant une donne contre des robots : les conseils et les règles sont là quand il vous les faut.",
  "learn.kept_here": "Votre progression est gardée dans ce navigateur.", "learn.kept_account": "Votre progression est gardée avec votre compte.",
  "learn.keep_it": "Connectez-vous ou inscrivez-vous pour la garder avec un compte",
  "learn.learner": "Élève", "learn.you_play": "Vous jouez {card}.", "learn.you_bid": "Vous annoncez {contract}.", "learn.you_pass": "Vous passez.",
  "learn.you_call": "Vous appelez {card}.", "learn.you_ecart": "Vous écartez {cards}.", "learn.you_poignee": "Vous montrez une poignée : {cards}.",
  "learn.you_chelem": "Vous annoncez un chelem.", "learn.you_no_chelem": "Vous n'annoncez pas de chelem.", "learn.you_win": "Vous gagnez le pli {n}.", "learn.trick_to": "{name} prend le pli {n}.",
  "learn.lost": "La leçon et cette page ne s'accordent plus (le site a changé) : la leçon recommence.",
  "learn.failed": "La leçon n'a pas pu être chargée : {why}",
};
