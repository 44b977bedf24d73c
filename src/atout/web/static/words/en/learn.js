// The words of the guided lessons (learn.js, learn-lesson.js), in English: loaded by i18n.js when the lessons
// are opened, not with the first page (the tests check every language has the same keys).

export default {
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
};
