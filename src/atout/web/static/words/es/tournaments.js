// The words of the tournaments' pages (tournaments.js), in Spanish: loaded by i18n.js when tournaments.js is
// (the tests check every language has the same keys).

export default {
  "tournaments.title": "Torneos", "tournaments.intro": "Torneos duplicados: todas las mesas juegan las mismas rondas desde los mismos asientos, y cada asiento se puntúa frente al mismo asiento de las demás mesas.",
  "tournaments.open": "Inscripción abierta", "tournaments.running": "En juego", "tournaments.finished": "Terminados", "tournaments.none": "Ninguno.",
  "tournaments.create": "Crear un torneo", "tournaments.name": "Nombre", "tournaments.deals": "Rondas por vuelta", "tournaments.players": "Jugadores por mesa", "tournaments.rounds": "Vueltas",
  "tournaments.start": "Comienzo", "tournaments.when_full": "Cuando esté completo, con", "tournaments.people": "personas", "tournaments.at_time": "A las", "tournaments.private": "Privado (solo con su enlace)",
  "tournaments.make": "Crear", "tournaments.guest": "Inicia sesión (o regístrate) para crear un torneo o apuntarte.",
  "tournaments.summary": "Rondas por vuelta: {deals} · vueltas: {rounds} · {players} por mesa · robots: {level}.",
  "tournaments.starts_at": "Comienza a las {time}.", "tournaments.starts_full": "Comienza cuando se hayan inscrito {size} personas.",
  "tournaments.entries": "Inscritos ({n})", "tournaments.register": "Inscribirme", "tournaments.unregister": "Borrarme", "tournaments.your_table": "Tu mesa está lista:",
  "tournaments.go_table": "jugar", "tournaments.commitment": "Las rondas salen de una semilla cuyo SHA-256 es", "tournaments.seed": "La semilla, revelada:",
  "tournaments.ranking": "Clasificación", "tournaments.live": "en directo", "tournaments.place": "Puesto", "tournaments.player": "Jugador", "tournaments.total": "Puntuación duplicada", "tournaments.scored": "Rondas",
  "tournaments.abandoned": "abandono", "tournaments.tables": "Mesas", "tournaments.round": "Vuelta {n}", "tournaments.table": "Mesa {n}", "tournaments.robot": "robot",
  "tournaments.deal": "ronda {n}", "tournaments.scores": "Ronda a ronda", "tournaments.deal_seat": "Ronda", "tournaments.seat": "Asiento", "tournaments.points": "Puntos", "tournaments.mean": "Media",
  "tournaments.score": "Puntuación", "tournaments.played": "Rondas jugadas: {n}", "tournaments.closed": "terminada", "tournaments.hidden": "Los puntos de cada ronda se muestran cuando todas las mesas de su vuelta la han jugado.",
  "tournaments.status_open": "inscripción abierta", "tournaments.status_running": "en juego", "tournaments.status_finished": "terminado", "tournaments.status_cancelled": "cancelado",
  "tournaments.back": "Todos los torneos",
  "tournaments.download": "Descargar todas las rondas de todas las mesas para atout verify", "tournaments.deal_label": "vuelta {r}, ronda {k}",
};
