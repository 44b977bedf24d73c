// The words of the expert's judgement, in Spanish: a deal's analysis (analysis.js), the reasons the expert gives
// for its choices (reasons.js) and the hint at a practice table (hint.js, which shows the same reasons); loaded
// by i18n.js when analysis.js is (the tests check every language has the same keys).

export default {
  "analysis.ask": "Analizar mi juego", "analysis.asking": "Pidiendo…", "analysis.queued": "Esperando al analista ({ahead} antes que el tuyo)…",
  "analysis.running": "Analizando tus decisiones: {done} de {total}", "analysis.failed": "El análisis ha fallado: {message}",
  "analysis.summary": "{n} decisiones, {loss} puntos de pérdida esperada frente a las elecciones del experto",
  "analysis.decisions": "{n} decisiones",
  "analysis.no_mark": "sin marca", "analysis.better": "mejor: {action} (+{loss})", "analysis.interval": "intervalo del 95 % de {low} a {high}",
  "analysis.mark.inaccuracy": "imprecisión", "analysis.mark.mistake": "error", "analysis.mark.blunder": "error grave",
  "analysis.marks.inaccuracy": "imprecisiones", "analysis.marks.mistake": "errores", "analysis.marks.blunder": "errores graves",
  "analysis.phase.bid": "subasta", "analysis.phase.call": "llamada", "analysis.phase.ecart": "descarte", "analysis.phase.chelem": "Capote",
  "analysis.phase.poignee": "puñado", "analysis.phase.petit_sec": "Pequeño solo", "analysis.phase.card": "carta", "analysis.trick": "baza {n}",
  "analysis.do.play": "jugar {card}", "analysis.do.bid.pass": "pasar", "analysis.do.bid": "declarar {contract}", "analysis.do.call": "llamar a {card}",
  "analysis.do.discard": "descartar {cards}", "analysis.do.poignee": "mostrar un puñado de {n}", "analysis.do.poignee.hidden": "no mostrar el puñado",
  "analysis.do.chelem": "anunciar Capote", "analysis.do.chelem.no": "sin Capote", "analysis.do.petit.redeal": "repartir de nuevo", "analysis.do.petit.play": "seguir jugando",
  
  "analysis.accuracy": "Esta ronda: {loss} puntos frente al experto, sobre todo {phase}",
  "analysis.accuracy.none": "Esta ronda: ningún punto perdido frente al experto",
  "analysis.accuracy.bid": "en la subasta", "analysis.accuracy.ecart": "en el descarte", "analysis.accuracy.taker": "en el juego como declarante",
  "analysis.accuracy.partner": "en el juego como compañero del declarante", "analysis.accuracy.defence": "en el juego en defensa",
  "analysis.accuracy.part": "{phase} {loss}", "analysis.accuracy.short.bid": "subasta", "analysis.accuracy.short.ecart": "descarte",
  "analysis.accuracy.short.taker": "declarante", "analysis.accuracy.short.partner": "compañero", "analysis.accuracy.short.defence": "defensa",
  "reasons.kind.gain": "Gana {gain} puntos de media en los {worlds} repartos explorados, frente a {other} (intervalo del 95 % de {low} a {high}).",
  "reasons.kind.noise": "Supera a {other} en {gain} puntos en los {worlds} repartos explorados, dentro del ruido de la búsqueda (intervalo del 95 % de {low} a {high}).",
  "reasons.kind.even": "{other} vale lo mismo, en los {worlds} repartos explorados.",
  "reasons.kind.petit": "El Pequeño acaba en tu bando en el {chance} % de los repartos explorados, frente al {other_chance} % con {other}.",
  "reasons.kind.wins": "Tu bando gana el reparto en el {chance} % de los repartos explorados, frente al {other_chance} % con {other}.",
  "reasons.kind.voids": "Te deja sin {suits}, que {other} conserva.",
  "reasons.kind.only": "Es la única elección sensata aquí.",
  "reasons.other.pass": "pasar", "reasons.other.call": "llamar a {card}", "reasons.other.discard": "descartar {cards}",
  "reasons.other.poignee": "mostrar el puñado", "reasons.other.poignee_hidden": "no mostrar el puñado",
  "reasons.other.chelem": "anunciar Capote", "reasons.other.chelem_no": "no anunciar Capote",
  "reasons.other.redeal": "repartir de nuevo", "reasons.other.play_on": "seguir jugando",
  
  "hint.title": "Consejo", "hint.thinking": "El experto está pensando…", "hint.would": "El experto elegiría {what}.", "hint.hidden": "No mostrar el puñado.",
  "hint.close": "Cerrar el consejo", "hint.not_your_turn": "El consejo es para tu turno.",
  "hint.refused": "No hay consejos en una mesa competitiva: los consejos son para las mesas de práctica.",
  "hint.refused_daily": "No hay consejos en el reparto del día: cada uno juega los mismos repartos solo.",
  "hint.refused_tournament": "No hay consejos en un torneo: sus mesas clasifican a cada jugador.", "hint.not_seated": "El consejo es para un jugador sentado a la mesa.",
  "hint.rate_limited": "Son muchos consejos en un minuto: vuelve a intentarlo en {seconds} s.",
};
