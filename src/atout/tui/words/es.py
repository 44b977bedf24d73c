"""The terminal game in Spanish: each English message of the code (the key) and its Spanish words, with
tarot's words as the Spanish rules use them (docs/glossary-es.md): la ronda, la baza, el declarante, Toma,
Guardia, el Perro, el descarte, los triunfos, la Excusa, el Pequeño, los Bouts, el puñado, Capote."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- cards, contracts, levels
    "You": "Tú",
    "Excuse": "Excusa",
    "trump {n}": "triunfo {n}",
    "Pass": "Paso",
    "Prise": "Toma",
    "Garde": "Guardia",
    "Garde sans": "Guardia sin el Perro",
    "Garde contre": "Guardia contra el Perro",
    "beginner": "principiante",
    "club": "club",
    "expert": "experto",
    "random": "al azar",
    "search": "búsqueda",
    "simple": "simple",
    "double": "doble",
    "triple": "triple",
    "(no cards)": "(sin cartas)",
    "Choose card": "Elegir carta",
    # -- the log
    "{who} pass": "{who} pasas",
    "{who} passes": "{who} pasa",
    "{who} bid {contract}": "{who} declaras {contract}",
    "{who} bids {contract}": "{who} declara {contract}",
    "{who} call {card}": "{who} llamas al {card}",
    "{who} calls {card}": "{who} llama al {card}",
    "{who} lay aside {cards}": "{who} descartas {cards}",
    "{who} lays aside {cards}": "{who} descarta {cards}",
    "{who} lay aside the écart": "{who} apartas el descarte",
    "{who} lays aside the écart": "{who} aparta el descarte",
    "{who} lay aside the écart, showing {cards}": "{who} apartas el descarte y muestras {cards}",
    "{who} lays aside the écart, showing {cards}": "{who} aparta el descarte y muestra {cards}",
    "{who} announce a chelem!": "¡{who} anuncias Capote!",
    "{who} announces a chelem!": "¡{who} anuncia Capote!",
    "{who} announce no chelem": "{who} no anuncias Capote",
    "{who} announces no chelem": "{who} no anuncia Capote",
    "{who} show a poignée: {cards}": "{who} muestras un puñado: {cards}",
    "{who} shows a poignée: {cards}": "{who} muestra un puñado: {cards}",
    "{who} play {card}": "{who} juegas {card}",
    "{who} plays {card}": "{who} juega {card}",
    "{who} have the petit sec: redeal": "{who} tienes el Pequeño solo: se reparte de nuevo",
    "{who} has the petit sec: redeal": "{who} tiene el Pequeño solo: se reparte de nuevo",
    "{who} have the petit sec: play on": "{who} tienes el Pequeño solo: sigues jugando",
    "{who} has the petit sec: play on": "{who} tiene el Pequeño solo: sigue jugando",
    "You deal": "Repartes tú",
    "{name} deals": "Reparte {name}",
    "Deal {n} of {of}: {dealer}.": "Ronda {n} de {of}: {dealer}.",
    "Trick {n}:": "Baza {n}:",
    # -- the status line, the table and its notes
    "Deal {n}/{of}": "Ronda {n}/{of}",
    "bidding": "subasta",
    "best bid so far {name}: {contract}": "mejor declaración hasta ahora {name}: {contract}",
    "best bid so far: {name}, {contract}": "mejor declaración hasta ahora: {name}, {contract}",
    "called {card}": "llamado el {card}",
    "partner {name}": "compañero {name}",
    "taker alone": "declarante solo",
    "you play alone": "juegas solo",
    "in the dog: taker alone": "en el Perro: declarante solo",
    "partner unknown": "compañero desconocido",
    "trick {n}": "baza {n}",
    "Dog:": "Perro:",
    "Écart trumps:": "Triunfos del descarte:",
    "Poignée {size}, {name}:": "Puñado {size}, {name}:",
    "{cards} (c to see)": "{cards} (c para verlas)",
    "You hold the called card: you are the taker's partner.":
        "Tienes la carta llamada: eres el compañero del declarante.",
    "TAKER": "DECLARANTE",
    "partner": "compañero",
    "dealer": "reparte",
    "bid {contract}": "declara {contract}",
    "passed": "pasó",
    "You win trick {n}": "Ganas la baza {n}",
    "{name} wins trick {n}": "{name} gana la baza {n}",
    # -- the prompt
    "Refused: {reason}": "No permitido: {reason}",
    "Your bid: 1 passes, 2 to 5 bid a contract; the greyed ones are no higher than the best bid so far.":
        "Tu declaración: 1 pasa, de 2 a 5 declaran un contrato; los grises no superan la mejor declaración "
        "hasta ahora.",
    "{contract} + chelem": "{contract} + Capote",
    "Call a card: its holder will be your secret partner.":
        "Llama a una carta: quien la tenga será tu compañero secreto.",
    "Call {card}": "Llamar al {card}",
    "Do you announce a chelem (all the tricks)?": "¿Anuncias Capote (todas las bazas)?",
    "No chelem": "Sin Capote",
    "Announce a chelem": "Anunciar Capote",
    "You hold the petit sec.": "Tienes el Pequeño solo.",
    "Redeal": "Repartir de nuevo",
    "Play on": "Seguir jugando",
    "Your turn: play one of the bright cards.": "Te toca: juega una de las cartas iluminadas.",
    "Lay aside {count} cards (dog cards underlined): choose them one by one; {k}/{count} chosen.":
        "Aparta {count} cartas para el descarte (las del Perro, subrayadas): elígelas una a una; "
        "{k}/{count} elegidas.",
    "Lay aside ({k}/{count})": "Descartar ({k}/{count})",
    "Clear": "Borrar",
    "the écart has {count} cards already: take one back first":
        "el descarte ya tiene {count} cartas: devuelve una antes",
    "{card}: only {trumps} may be laid aside; lay aside your other allowed cards":
        "{card}: solo se pueden descartar {trumps}; descarta tus otras cartas permitidas",
    "not in your hand": "no está en tu mano",
    "a king may never be laid aside": "un Rey nunca va al descarte",
    "a bout (21, Petit, Excuse) may never be laid aside": "un Bout (21, Pequeño, Excusa) nunca va al descarte",
    "a trump may be laid aside only when too few other cards may be":
        "un triunfo solo va al descarte cuando no hay bastantes cartas de otro tipo que descartar",
    "You may show a poignée ({n} trumps + the Excuse) before your first card, or just play a card to decline.":
        "Puedes mostrar un puñado ({n} triunfos + la Excusa) antes de tu primera carta, o simplemente jugar "
        "una carta para no mostrarlo.",
    "You may show a poignée ({n} trumps) before your first card, or just play a card to decline.":
        "Puedes mostrar un puñado ({n} triunfos) antes de tu primera carta, o simplemente jugar una carta "
        "para no mostrarlo.",
    "Show {size} ({n})": "Mostrar {size} ({n})",
    "No poignée": "Sin puñado",
    "Choose the {n} trumps to show (click to swap): {k}/{n}.":
        "Elige los {n} triunfos que mostrar (haz clic para cambiarlos): {k}/{n}.",
    "Show these {k}": "Mostrar estos {k}",
    "Cancel": "Cancelar",
    "Hint: the {level} robot would {what}.": "Consejo: el robot {level} haría esto: {what}.",
    "Hint: the {level} robot would {what} (chosen for you: change them or lay them aside).":
        "Consejo: el robot {level} haría esto: {what} (elegidas por ti: cámbialas o descártalas).",
    "wait for your turn": "espera tu turno",
    "{card}: a poignée shows only trumps (the Excuse only when you lack one trump)":
        "{card}: un puñado solo muestra triunfos (la Excusa solo si te falta un triunfo)",
    "{card}: a poignée shows only trumps": "{card}: un puñado solo muestra triunfos",
    "the poignée has {n} cards: take one back first": "el puñado tiene {n} cartas: devuelve una antes",
    "bid first: choose a contract or pass with the buttons": "declara antes: elige un contrato o pasa con los botones",
    "call a card with the buttons": "llama a una carta con los botones",
    "choose with the buttons": "elige con los botones",
    "the écart has {count} cards: {k} chosen so far": "el descarte tiene {count} cartas: {k} elegidas hasta ahora",
    "pass": "pasar",
    "play {card}": "jugar {card}",
    "call {card}": "llamar al {card}",
    "lay aside {cards}": "descartar {cards}",
    "announce a chelem": "anunciar Capote",
    "announce no chelem": "no anunciar Capote",
    "show the poignée {cards}": "mostrar el puñado {cards}",
    # -- refusals
    "you must follow the suit led": "tienes que seguir el palo de salida",
    "you must play a higher trump": "tienes que jugar un triunfo más alto",
    "you must trump": "tienes que fallar con triunfo",
    "you do not hold that card": "no tienes esa carta",
    "it is not your turn": "no es tu turno",
    "a king or a bout never goes to the écart": "un Rey o un Bout nunca van al descarte",
    "the écart does not have the right number of cards": "el descarte no tiene el número de cartas correcto",
    "a poignée shows exactly the number of trumps of its size":
        "un puñado muestra exactamente el número de triunfos de su tamaño",
    "a poignée is shown once, just before your first card": "un puñado se muestra una vez, justo antes de tu primera carta",
    "a poignée shows only trumps": "un puñado solo muestra triunfos",
    # -- the game screen
    "Hint": "Consejo",
    "Prev trick": "Baza anterior",
    "Shown cards": "Cartas mostradas",
    "Help": "Ayuda",
    "Save": "Guardar",
    "Quit": "Salir",
    "The deal is over.": "La ronda ha terminado.",
    "{taker} took a {contract}; the dog is shown to all:": "{taker} declaró {contract}; el Perro se muestra a todos:",
    "The dog": "El Perro",
    "{name} is thinking…": "{name} está pensando…",
    "Could not save: {error}": "No se pudo guardar: {error}",
    "{name}'s robot failed ({error}); it plays a random legal move instead":
        "El robot de {name} falló ({error}); juega en su lugar una jugada legal al azar",
    "{name}'s robot chose an illegal move ({error}); it plays a random legal move instead":
        "El robot de {name} eligió una jugada ilegal ({error}); juega en su lugar una jugada legal al azar",
    "Could not save the game: {error}": "No se pudo guardar la partida: {error}",
    "could not save the game: {error}": "no se pudo guardar la partida: {error}",
    "No trick has been played yet.": "Todavía no se ha jugado ninguna baza.",
    "No save directory: start with --save-dir to save.": "Sin carpeta para guardar: empieza con --save-dir para guardar.",
    "Game saved to {path}; resume it with: {command}": "Partida guardada en {path}; continúala con: {command}",
    "The hint is for your turn.": "El consejo es para tu turno.",
    "The {level} robot is thinking…": "El robot {level} está pensando…",
    "No unfinished game to resume.": "No hay ninguna partida sin terminar que continuar.",
    "This game has no save directory (--save-dir): leaving ends it.":
        "Esta partida no tiene carpeta para guardar (--save-dir): si sales, se acaba.",
    "The game could not be saved in {path} ({error}): leaving loses it.":
        "La partida no se pudo guardar en {path} ({error}): si sales, se pierde.",
    "The game is saved in {path}. Continue it later with: {command}":
        "La partida está guardada en {path}. Continúala más tarde con: {command}",
    # -- the boxes
    "Close": "Cerrar",
    "OK (Enter)": "Aceptar (Intro)",
    "Leave": "Salir",
    "Stay": "Quedarse",
    "Leave the game?": "¿Salir de la partida?",
    "Leave (y)": "Salir (y)",
    "Stay (n)": "Quedarse (n)",
    "wins the trick": "gana la baza",
    "Previous trick (trick {n})": "Baza anterior (baza {n})",
    "Trumps in the écart:": "Triunfos en el descarte:",
    "Your {size} poignée ({bonus}):": "Tu puñado {size} ({bonus}):",
    "{name}'s {size} poignée ({bonus}):": "Puñado {size} de {name} ({bonus}):",
    "No card has been shown yet.": "Todavía no se ha mostrado ninguna carta.",
    "Cards shown to all": "Cartas mostradas a todos",
    # -- the result
    "Continue": "Continuar",
    "Analyse my play": "Analizar mi juego",
    "Void deal": "Ronda nula",
    "Deal {n} of {of}": "Ronda {n} de {of}",
    "Score sheet": "Hoja de puntos",
    "Final ranking": "Clasificación final",
    "Next deal (Enter)": "Ronda siguiente (Intro)",
    "Analyse my play (a)": "Analizar mi juego (a)",
    "all passed": "todos pasaron",
    "a player held the petit sec": "un jugador tenía el Pequeño solo",
    "The deal is void: {why}. ": "La ronda es nula: {why}. ",
    "It does not count; the next dealer deals.": "No cuenta; reparte el siguiente.",
    "{taker} took a {contract} (×{k})": "{taker} declaró {contract} (×{k})",
    "with {partner} as partner": "con {partner} de compañero",
    "You took a {contract}; the dog is shown to all:": "Declaraste {contract}; el Perro se muestra a todos:",
    "You took a {contract} (×{k})": "Declaraste {contract} (×{k})",
    "with you as partner": "contigo de compañero",
    "alone": "solo",
    "Taker's side: {points} points with {bouts}; needed {target}. ":
        "Bando del declarante: {points} puntos con {bouts}; necesitaba {target}. ",
    "MADE by {margin}.": "CUMPLIDA por {margin}.",
    "FAILED by {margin}.": "FALLADA por {margin}.",
    "petit au bout": "Pequeño al final",
    "Unit U = {core} × {k}": "Unidad U = {core} × {k}",
    "chelem": "Capote",
    "{unit}: each defender scores −U": "{unit}: cada defensor se anota −U",
    "none": "no",
    "won by the taker's side": "ganado por el bando del declarante",
    "won by the defence": "ganado por los defensores",
    "Petit au bout: {what}.": "Pequeño al final: {what}.",
    "Poignées: {list}.": "Puñados: {list}.",
    "Chelem: {what}.": "Capote: {what}.",
    "announced and made (+400)": "anunciado y hecho (+400)",
    "made without announcing (+200)": "hecho sin anunciarlo (+200)",
    "announced and failed (−200)": "anunciado y fallado (−200)",
    "made by the defence (−200 for the taker)": "hecho por los defensores (−200 para el declarante)",
    "This deal:": "Esta ronda:",
    "contract": "contrato",
    "void": "nula",
    "Total": "Total",
    # -- the analysis
    "Your play, analysed by the expert": "Tu juego, analizado por el experto",
    "The expert is going over your decisions…": "El experto está repasando tus decisiones…",
    "no mark": "sin marca",
    "trick": "baza",
    "decision": "decisión",
    "you played": "jugaste",
    "better": "mejor",
    "95% interval": "intervalo del 95 %",
    "[{low}, {high}]": "[{low}; {high}]",
    "bid": "declaración",
    "call": "llamada",
    "écart": "descarte",
    "poignée": "puñado",
    "petit sec": "Pequeño solo",
    "card": "carta",
    "Keep the poignée hidden": "No mostrar el puñado",
    "{contract} with a chelem": "{contract} con Capote",
    "Play {card}": "Jugar {card}",
    "Écart {cards}": "Descarte {cards}",
    "Show a poignée of {n}": "Mostrar un puñado de {n}",
    "Redeal (petit sec)": "Repartir de nuevo (Pequeño solo)",
    "Play on with the petit sec": "Seguir jugando con el Pequeño solo",
    # -- the start screen
    "Atout — French Tarot against the computer": "Atout — Tarot francés contra el ordenador",
    "{n} players": "{n} jugadores",
    "robots: {level}": "robots: {level}",
    "Number of deals": "Número de rondas",
    "number of deals": "número de rondas",
    "Seed (optional)": "Semilla (opcional)",
    "same seed, same deals": "misma semilla, mismas rondas",
    "Start": "Empezar",
    "Resume saved game": "Continuar la partida guardada",
    "Tab moves between the choices, arrows and Space choose, Enter begins (with the option under the cursor).":
        "Tab pasa de una opción a otra, las flechas y Espacio eligen, Intro empieza (con la opción bajo el "
        "cursor).",
    "the game needs at least one deal": "la partida necesita al menos una ronda",
    # -- the command line
    "cannot resume {path}: {error}": "no se puede continuar {path}: {error}",
    "Start a new game with: atout play": "Empieza una partida nueva con: atout play",
    "Game saved in {path}; continue it with: {command}": "Partida guardada en {path}; continúala con: {command}",
    "The game could not be saved in {path}{why}: it is lost.": "La partida no se pudo guardar en {path}{why}: se ha perdido.",
    "Deal records: {path} (view one with: atout replay FILE)":
        "Registros de las rondas: {path} (mira uno con: atout replay ARCHIVO)",
    "unknown robot level {level!r}; levels are {levels}": "nivel de robot desconocido {level!r}; los niveles son {levels}",
    "--deals must be at least 1": "--deals tiene que ser al menos 1",
    "--delay must be 0 seconds or more, not {delay:g}": "--delay tiene que ser de 0 segundos o más, no {delay:g}",
    # -- the help (key ?)
    """\
[b]Atout — French Tarot against the computer[/b]
(Escape closes this help.)

[b]Keys[/b]
• ←/→ ↑/↓ Home End: move in your hand; Enter or Space: choose the card (or click it).
• 1…9: the numbered buttons, or Tab to them, or click. At the auction the keys never change: {auction_keys} (greyed when no higher than the best bid).
• h: hint, what the expert robot would do · p: the previous trick · c: cards shown to all (dog, trumps of the écart, poignées) · s: save · q: leave (asks first, and says where the game is saved) · ?: this help.

[b]Cards[/b]
Four suits, ♠ ♥ ♦ ♣, of 14 cards: K (king, the Roi), Q (queen, the Dame), C (knight, the Cavalier), J (jack, the Valet), then 10 down to 1. The 21 trumps, numbered 1 to 21, are yellow tiles in your hand ("trump 19" in sentences); the Excuse (Ex in your hand) is neither suit nor trump. The three bouts are the 21, the Petit (trump 1) and the Excuse.
Card points: a bout or a king 4½, a queen 3½, a knight 2½, a jack 1½, any other card ½ (91 in all).

[b]Bidding[/b]
Each player speaks once, higher than the last bid or passes: {contracts}. After a Prise or a Garde the dog is shown, taken, and an écart laid aside; after a Garde sans or a Garde contre nobody sees the dog. At 5 players the taker calls a King: its holder is the secret partner.

[b]Écart[/b]
Never a King or a bout; trumps only when too few other cards may be laid aside, and they are shown.

[b]Play[/b]
Follow the suit led; if you cannot, trump; over-trump when you can, even over a partner. The Excuse may always be played and stays with its owner.

[b]Score[/b]
The taker needs 56 points with no bout, 51 with 1, 41 with 2, 36 with 3. U = (25 + margin ± 10 for the petit au bout) × multiplier ± poignée ± chelem; each defender scores −U, the taker the rest. Poignée (shown before your first card): 10/13/15 trumps at 4 players, 13/15/18 at 3, 8/10/13 at 5, worth 20/30/40 to the winning side. Chelem (all the tricks): +400 announced, +200 unannounced, −200 announced but failed.
""": """\
[b]Atout — Tarot francés contra el ordenador[/b]
(Escape cierra esta ayuda.)

[b]Teclas[/b]
• ←/→ ↑/↓ Inicio Fin: moverse por la mano; Intro o Espacio: elegir la carta (o hacer clic en ella).
• 1…9: los botones numerados, o Tab hasta ellos, o un clic. En la subasta las teclas no cambian nunca: {auction_keys} (en gris cuando no superan la mejor declaración).
• h: consejo, lo que haría el robot experto · p: la baza anterior · c: las cartas mostradas a todos (el Perro, los triunfos del descarte, los puñados) · s: guardar · q: salir (pregunta antes y dice dónde se guarda la partida) · ?: esta ayuda.

[b]Cartas[/b]
Cuatro palos, ♠ ♥ ♦ ♣, de 14 cartas: K (Rey), Q (Reina), C (Caballo), J (Sota), y luego del 10 al 1. Los 21 triunfos, numerados del 1 al 21, son fichas amarillas en tu mano («triunfo 19» en las frases); la Excusa (Ex en tu mano) no es ni palo ni triunfo. Los tres Bouts son el 21, el Pequeño (triunfo 1) y la Excusa.
Puntos de las cartas: un Bout o un Rey 4½, una Reina 3½, un Caballo 2½, una Sota 1½, cualquier otra carta ½ (91 en total).

[b]Subasta[/b]
Cada jugador habla una vez, más alto que la última declaración, o pasa: {contracts}. Tras una Toma o una Guardia el Perro se muestra, el declarante se lo queda y aparta un descarte; tras una Guardia sin el Perro o una Guardia contra el Perro nadie ve el Perro. A 5 jugadores el declarante llama a un Rey: quien lo tiene es su compañero secreto.

[b]Descarte[/b]
Nunca un Rey ni un Bout; triunfos solo cuando no hay bastantes cartas de otro tipo que descartar, y se muestran.

[b]Juego[/b]
Sigue el palo de salida; si no puedes, falla con triunfo; sube con un triunfo más alto cuando puedas, incluso sobre un compañero. La Excusa se puede jugar siempre y se la queda su dueño.

[b]Puntuación[/b]
El declarante necesita 56 puntos sin Bout, 51 con 1, 41 con 2, 36 con 3. U = (25 + margen ± 10 por el Pequeño al final) × multiplicador ± puñado ± Capote; cada defensor se anota −U, el declarante el resto. Puñado (mostrado antes de tu primera carta): 10/13/15 triunfos a 4 jugadores, 13/15/18 a 3, 8/10/13 a 5, vale 20/30/40 para el bando ganador. Capote (todas las bazas): +400 anunciado, +200 sin anunciar, −200 anunciado y fallado.
""",
    # -- atout replay and atout play --robots-only
    "Seat {n}": "Asiento {n}",
    "seed {seed}": "semilla {seed}",
    "Atout replay": "Atout: repaso",
    "Next trick": "Baza siguiente",
    "Previous": "Anterior",
    "Beginning": "Inicio",
    "End": "Final",
    "The deal": "La ronda",
    "Bidding done": "Declaraciones terminadas",
    "Bidding done, écart laid aside": "Declaraciones terminadas, descarte apartado",
    "Trick {n}": "Baza {n}",
    "Where the record stops": "Donde termina el registro",
    "Hands as dealt:": "Las manos repartidas:",
    "Dog": "Perro",
    "Trick {n} (unfinished):": "Baza {n} (sin terminar):",
    "The record stops here: {name} is to act.": "El registro termina aquí: le toca a {name}.",
    "Bids:": "Declaraciones:",
    "none yet": "ninguna todavía",
    "Trick {n}: led by {leader}, won by {winner}": "Baza {n}: sale {leader}, la gana {winner}",
    "player": "jugador",
    "played": "jugada",
    "hand": "mano",
    "(taker)": "(declarante)",
    "(partner)": "(compañero)",
    "Écart:": "Descarte:",
    "action {n}:": "acción {n}:",
    "{players} robots at level {level}": "{players} robots de nivel {level}",
    "Deal {n}: {dealer} deals (seed {seed})": "Ronda {n}: reparte {dealer} (semilla {seed})",
    "Deal {n}, counted deal {k} of {total}: {dealer} deals (seed {seed})": "Ronda {n} (cuenta: {k} de {total}): reparte {dealer} (semilla {seed})",
    "{taker}: {contract}": "{taker}: {contract}",
    "Totals:": "Totales:",
}

PLURALS: dict[str, tuple[str, str]] = {
    "{n} card": ("{n} carta", "{n} cartas"),
    "{n} trump": ("{n} triunfo", "{n} triunfos"),
    "{n} trick": ("{n} baza", "{n} bazas"),
    "{n} bout": ("{n} Bout", "{n} Bouts"),
    "poignée": ("puñado", "puñados"),
    "trump": ("triunfo", "triunfos"),
    "{n} inaccuracy": ("{n} imprecisión", "{n} imprecisiones"),
    "{n} mistake": ("{n} error", "{n} errores"),
    "{n} blunder": ("{n} error grave", "{n} errores graves"),
    "{n} decision of yours, {loss} points expected to be lost against the expert's choices":
        ("{n} decisión tuya, {loss} puntos de pérdida esperada frente a las elecciones del experto",
         "{n} decisiones tuyas, {loss} puntos de pérdida esperada frente a las elecciones del experto"),
    "Final ranking after {n} deal:": ("Clasificación final tras {n} ronda:", "Clasificación final tras {n} rondas:"),
    "The game in {path} is finished: its {n} deal was played.":
        ("La partida de {path} ha terminado: se jugó su {n} ronda.",
         "La partida de {path} ha terminado: se jugaron sus {n} rondas."),
    "{n} counted deal": ("{n} ronda que cuenta", "{n} rondas que cuentan"),
}
