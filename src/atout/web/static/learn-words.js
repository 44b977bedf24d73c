// The guided lessons' words (issue 46, item 3), in English, French and Spanish: loaded with the lessons, not
// with the first page (words/*.js hold what every page needs; a first visit stays under 100 KB).

import { wordsFrom } from "./i18n.js";

const WORDS = {
  en: {
    "learn.back": "All lessons", "learn.lesson_n": "Lesson {n} of {of}", "learn.steps": "Steps", "learn.step_n": "Step {n} of {of}",
    "learn.step_done": "step {n}, done", "learn.step_now": "step {n}, now", "learn.step_later": "step {n}, to come",
    "learn.about": "About this lesson", "learn.question": "The question", "learn.happened": "What happened",
    "learn.wrong": "Not this one.", "learn.try_again": "Try again.",
    "learn.chosen": "{k} of {n} chosen", "learn.lay": "Lay them aside", "learn.clear": "Start again",
    "learn.show": "Show these", "learn.no_poignee": "Show none", "learn.click_card": "Click a card of your hand.",
    "learn.finished": "Lesson finished", "learn.next": "Next lesson", "learn.again": "Play this lesson again",
    "learn.play": "Play a real deal", "learn.rules": "Read the rules",
    "learn.start": "Start", "learn.continue": "Continue",
    "learn.status_done": "done", "learn.status_step": "step {n} of {of}", "learn.status_new": "not started",
    "learn.progress": "{n} of {of} lessons done", "learn.first": "Start with lesson 1", "learn.resume": "Go on: {title}",
    "learn.all_done": "You finished every lesson. Play a deal against robots now: the hints and the rules are there when you need them.",
    "learn.kept_here": "Your progress is kept in this browser.", "learn.kept_account": "Your progress is kept with your account.",
    "learn.keep_it": "Log in or register to keep it with an account",
    "learn.learner": "Learner", "learn.you_play": "You play {card}.", "learn.you_bid": "You bid {contract}.", "learn.you_pass": "You pass.",
    "learn.you_call": "You call {card}.", "learn.you_ecart": "You lay aside {cards}.", "learn.you_poignee": "You show a poignée: {cards}.",
    "learn.you_chelem": "You announce a chelem.", "learn.you_no_chelem": "You announce no chelem.", "learn.you_win": "You win trick {n}.", "learn.trick_to": "{name} takes trick {n}.",
    "learn.lost": "The lesson and this page no longer agree (the site was updated): the lesson starts again.",
    "learn.failed": "The lesson could not be loaded: {why}",
  },
  fr: {
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
  },
  es: {
    "learn.back": "Todas las lecciones", "learn.lesson_n": "Lección {n} de {of}", "learn.steps": "Pasos", "learn.step_n": "Paso {n} de {of}",
    "learn.step_done": "paso {n}, hecho", "learn.step_now": "paso {n}, ahora", "learn.step_later": "paso {n}, por hacer",
    "learn.about": "Sobre esta lección", "learn.question": "La pregunta", "learn.happened": "Lo que pasó",
    "learn.wrong": "Esa no.", "learn.try_again": "Vuelve a intentarlo.",
    "learn.chosen": "{k} de {n} elegidas", "learn.lay": "Apartarlas", "learn.clear": "Empezar de nuevo",
    "learn.show": "Mostrar estas", "learn.no_poignee": "No mostrar ninguno", "learn.click_card": "Haz clic en una carta de tu mano.",
    "learn.finished": "Lección terminada", "learn.next": "Lección siguiente", "learn.again": "Repetir esta lección",
    "learn.play": "Jugar una ronda de verdad", "learn.rules": "Leer las reglas",
    "learn.start": "Empezar", "learn.continue": "Seguir",
    "learn.status_done": "hecha", "learn.status_step": "paso {n} de {of}", "learn.status_new": "sin empezar",
    "learn.progress": "{n} de {of} lecciones hechas", "learn.first": "Empezar por la lección 1", "learn.resume": "Seguir: {title}",
    "learn.all_done": "Has terminado todas las lecciones. Juega ahora una ronda contra robots: los consejos y las reglas están ahí cuando los necesites.",
    "learn.kept_here": "Tu progreso se guarda en este navegador.", "learn.kept_account": "Tu progreso se guarda con tu cuenta.",
    "learn.keep_it": "Inicia sesión o regístrate para guardarlo con una cuenta",
    "learn.learner": "Aprendiz", "learn.you_play": "Juegas {card}.", "learn.you_bid": "Apuestas {contract}.", "learn.you_pass": "Pasas.",
    "learn.you_call": "Llamas a {card}.", "learn.you_ecart": "Apartas {cards}.", "learn.you_poignee": "Muestras un puñado: {cards}.",
    "learn.you_chelem": "Anuncias un Capote.", "learn.you_no_chelem": "No anuncias Capote.", "learn.you_win": "Ganas la baza {n}.", "learn.trick_to": "{name} se lleva la baza {n}.",
    "learn.lost": "La lección y esta página ya no coinciden (el sitio se actualizó): la lección vuelve a empezar.",
    "learn.failed": "No se pudo cargar la lección: {why}",
  },
};
export const KEYS = WORDS; // the tests check every language has the same keys

/** The lessons' words in the page's language (i18n.js's wordsFrom: plurals by `n`, English where one lacks). */
export const lw = wordsFrom(WORDS);
