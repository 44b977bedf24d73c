// The words of the daily deal's pages (daily.js), in Spanish: loaded by i18n.js when daily.js is (the tests
// check every language has the same keys).

export default {
  "daily.title": "Ronda del día {day}", "daily.past_title": "Ronda del día {day}",
  "daily.what": "{deals} rondas a cuatro, contra robots ({level}), las mismas para todos hoy: juégalas una vez y compara.",
  "daily.what.one": "Una ronda a cuatro, contra robots ({level}), la misma para todos hoy: júgala una vez y compara.",
  "daily.commitment": "Las rondas de hoy salen de una semilla cuyo SHA-256 es", "daily.revealed": "La semilla del día, revelada:",
  "daily.hidden": "La semilla se revela cuando termina el día (UTC).", "daily.play": "Jugar la ronda del día",
  "daily.guest": "Inicia sesión (o regístrate) para jugar la ronda del día.", "daily.playing": "Tu partida del día sigue:",
  "daily.back": "volver a tu mesa", "daily.finished": "Has jugado la ronda del día: {total} puntos.",
  "daily.abandoned": "Dejaste la ronda del día: {total} puntos, clasificado detrás de quienes la terminaron.",
  "daily.ranking": "La clasificación del día", "daily.none": "Nadie ha jugado todavía este día.", "daily.place": "Puesto", "daily.name": "Jugador",
  "daily.total": "Puntos", "daily.status": "", "daily.status.abandoned": "abandono", "daily.status.playing": "jugando",
  "daily.plays": "El juego de cada uno en las mismas rondas", "daily.plays_locked": "El juego de cada uno y sus cartas se muestran cuando termina el día (UTC): a nadie antes, tampoco a ti.",
  "daily.unranked.same_address": "sin clasificar: misma dirección", "daily.unranked.same_browser": "sin clasificar: mismo navegador",
  "daily.you_unranked.same_address": "Tu partida no está clasificada: otra cuenta jugó ese día desde la misma dirección antes que tú (una partida clasificada por persona).",
  "daily.you_unranked.same_browser": "Tu partida no está clasificada: otra cuenta jugó ese día desde el mismo navegador antes que tú (una partida clasificada por persona).",
  "daily.unranked_if": "Una partida clasificada por persona: otra cuenta ya jugó hoy desde esta dirección o este navegador, así que una partida jugada desde aquí saldrá sin clasificar.",
  "daily.deal": "ronda {n}", "daily.yours": "(tú)", "daily.past": "Días anteriores", "daily.no_past": "Todavía no hay días anteriores.",
  "daily.played_by": "{n} han jugado", "daily.played_by.one": "{n} ha jugado", "daily.download": "Descargar todo el día para atout verify",
  "daily.next": "Compromiso de mañana:", "daily.today_link": "La ronda del día",
};
