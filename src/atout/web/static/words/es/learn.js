// The words of the guided lessons (learn.js, learn-lesson.js), in Spanish: loaded by i18n.js when the lessons
// are opened, not with the first page (the tests check every language has the same keys).

export default {
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
};
