"""The terminal game in French: each English message of the code (the key) and its French words, with
tarot's own: la donne, le pli, le preneur, Prise, Garde, le chien, l'écart, les atouts, l'Excuse, le Petit."""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- cards, contracts, levels
    "You": "Vous",
    "Excuse": "Excuse",
    "trump {n}": "atout {n}",
    "Pass": "Passe",
    "Prise": "Prise",
    "Garde": "Garde",
    "Garde sans": "Garde sans",
    "Garde contre": "Garde contre",
    "beginner": "débutant",
    "club": "club",
    "expert": "expert",
    "random": "hasard",
    "search": "recherche",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    "(no cards)": "(aucune carte)",
    "Choose card": "Choisir la carte",
    # -- the log
    "{who} pass": "{who} passez",
    "{who} passes": "{who} passe",
    "{who} bid {contract}": "{who} annoncez {contract}",
    "{who} bids {contract}": "{who} annonce {contract}",
    "{who} call {card}": "{who} appelez {card}",
    "{who} calls {card}": "{who} appelle {card}",
    "{who} lay aside {cards}": "{who} écartez {cards}",
    "{who} lays aside {cards}": "{who} écarte {cards}",
    "{who} lay aside the écart": "{who} faites l'écart",
    "{who} lays aside the écart": "{who} fait l'écart",
    "{who} lay aside the écart, showing {cards}": "{who} faites l'écart en montrant {cards}",
    "{who} lays aside the écart, showing {cards}": "{who} fait l'écart en montrant {cards}",
    "{who} announce a chelem!": "{who} annoncez un chelem !",
    "{who} announces a chelem!": "{who} annonce un chelem !",
    "{who} announce no chelem": "{who} n'annoncez pas de chelem",
    "{who} announces no chelem": "{who} n'annonce pas de chelem",
    "{who} show a poignée: {cards}": "{who} montrez une poignée : {cards}",
    "{who} shows a poignée: {cards}": "{who} montre une poignée : {cards}",
    "{who} play {card}": "{who} jouez {card}",
    "{who} plays {card}": "{who} joue {card}",
    "{who} have the petit sec: redeal": "{who} avez le petit sec : on redonne",
    "{who} has the petit sec: redeal": "{who} a le petit sec : on redonne",
    "{who} have the petit sec: play on": "{who} avez le petit sec et continuez",
    "{who} has the petit sec: play on": "{who} a le petit sec et continue",
    "You deal": "Vous donnez",
    "{name} deals": "{name} donne",
    "Deal {n} of {of}: {dealer}.": "Donne {n} sur {of} : {dealer}.",
    "Trick {n}:": "Pli {n} :",
    # -- the status line, the table and its notes
    "Deal {n}/{of}": "Donne {n}/{of}",
    "bidding": "enchères",
    "best bid so far {name}: {contract}": "meilleure enchère pour l'instant {name} : {contract}",
    "best bid so far: {name}, {contract}": "meilleure enchère pour l'instant : {name}, {contract}",
    "called {card}": "appel {card}",
    "partner {name}": "partenaire {name}",
    "taker alone": "preneur seul",
    "you play alone": "vous jouez seul",
    "in the dog: taker alone": "dans le chien : preneur seul",
    "partner unknown": "partenaire inconnu",
    "trick {n}": "pli {n}",
    "Dog:": "Chien :",
    "Écart trumps:": "Atouts de l'écart :",
    "Poignée {size}, {name}:": "Poignée {size}, {name} :",
    "{cards} (c to see)": "{cards} (c pour voir)",
    "You hold the called card: you are the taker's partner.":
        "Vous avez la carte appelée : vous êtes le partenaire du preneur.",
    "TAKER": "PRENEUR",
    "partner": "partenaire",
    "dealer": "donneur",
    "bid {contract}": "annonce {contract}",
    "passed": "a passé",
    "You win trick {n}": "Vous remportez le pli {n}",
    "{name} wins trick {n}": "{name} remporte le pli {n}",
    # -- the prompt
    "Refused: {reason}": "Refusé : {reason}",
    "Your bid: 1 passes, 2 to 5 bid a contract; the greyed ones are no higher than the best bid so far.":
        "Votre enchère : 1 passe, 2 à 5 annoncent un contrat ; les grisés ne dépassent pas la meilleure "
        "enchère.",
    "{contract} + chelem": "{contract} + chelem",
    "Call a card: its holder will be your secret partner.":
        "Appelez une carte : celui qui la tient sera votre partenaire secret.",
    "Call {card}": "Appeler {card}",
    "Do you announce a chelem (all the tricks)?": "Annoncez-vous un chelem (tous les plis) ?",
    "No chelem": "Pas de chelem",
    "Announce a chelem": "Annoncer un chelem",
    "You hold the petit sec.": "Vous avez le petit sec.",
    "Redeal": "Redonner",
    "Play on": "Continuer",
    "Your turn: play one of the bright cards.": "À vous : jouez une des cartes en clair.",
    "Lay aside {count} cards (dog cards underlined): choose them one by one; {k}/{count} chosen.":
        "Écartez {count} cartes (celles du chien soulignées) : choisissez-les une à une ; {k}/{count} choisies.",
    "Lay aside ({k}/{count})": "Écarter ({k}/{count})",
    "Clear": "Effacer",
    "the écart has {count} cards already: take one back first":
        "l'écart a déjà {count} cartes : reprenez-en une d'abord",
    "{card}: only {trumps} may be laid aside; lay aside your other allowed cards":
        "{card} : on ne peut écarter que {trumps} ; écartez vos autres cartes permises",
    "not in your hand": "pas dans votre main",
    "a king may never be laid aside": "un roi ne va jamais à l'écart",
    "a bout (21, Petit, Excuse) may never be laid aside": "un bout (21, Petit, Excuse) ne va jamais à l'écart",
    "a trump may be laid aside only when too few other cards may be":
        "un atout ne va à l'écart que s'il manque d'autres cartes à écarter",
    "You may show a poignée ({n} trumps + the Excuse) before your first card, or just play a card to decline.":
        "Vous pouvez montrer une poignée ({n} atouts + l'Excuse) avant votre première carte, ou jouer une carte "
        "pour n'en rien faire.",
    "You may show a poignée ({n} trumps) before your first card, or just play a card to decline.":
        "Vous pouvez montrer une poignée ({n} atouts) avant votre première carte, ou jouer une carte pour n'en "
        "rien faire.",
    "Show {size} ({n})": "Montrer {size} ({n})",
    "No poignée": "Pas de poignée",
    "Choose the {n} trumps to show (click to swap): {k}/{n}.":
        "Choisissez les {n} atouts à montrer (cliquez pour échanger) : {k}/{n}.",
    "Show these {k}": "Montrer ces {k}",
    "Cancel": "Annuler",
    "Hint: the {level} robot would {what}.": "Conseil : le robot {level} ferait ceci : {what}.",
    "Hint: the {level} robot would {what} (chosen for you: change them or lay them aside).":
        "Conseil : le robot {level} ferait ceci : {what} (choisies pour vous : changez-les ou écartez-les).",
    "wait for your turn": "attendez votre tour",
    "{card}: a poignée shows only trumps (the Excuse only when you lack one trump)":
        "{card} : une poignée ne montre que des atouts (l'Excuse seulement s'il vous en manque un)",
    "{card}: a poignée shows only trumps": "{card} : une poignée ne montre que des atouts",
    "the poignée has {n} cards: take one back first": "la poignée a {n} cartes : reprenez-en une d'abord",
    "bid first: choose a contract or pass with the buttons": "enchérissez d'abord : un contrat ou passe, avec les boutons",
    "call a card with the buttons": "appelez une carte avec les boutons",
    "choose with the buttons": "choisissez avec les boutons",
    "the écart has {count} cards: {k} chosen so far": "l'écart a {count} cartes : {k} choisies pour l'instant",
    "pass": "passer",
    "play {card}": "jouer {card}",
    "call {card}": "appeler {card}",
    "lay aside {cards}": "écarter {cards}",
    "announce a chelem": "annoncer un chelem",
    "announce no chelem": "ne pas annoncer de chelem",
    "show the poignée {cards}": "montrer la poignée {cards}",
    # -- refusals
    "you must follow the suit led": "vous devez fournir la couleur demandée",
    "you must play a higher trump": "vous devez monter à l'atout",
    "you must trump": "vous devez couper",
    "you do not hold that card": "vous n'avez pas cette carte",
    "it is not your turn": "ce n'est pas votre tour",
    "a king or a bout never goes to the écart": "un roi ou un bout ne va jamais à l'écart",
    "the écart does not have the right number of cards": "l'écart n'a pas le bon nombre de cartes",
    "a poignée shows exactly the number of trumps of its size":
        "une poignée montre exactement le nombre d'atouts de sa taille",
    "a poignée is shown once, just before your first card":
        "une poignée se montre une fois, juste avant votre première carte",
    "a poignée shows only trumps": "une poignée ne montre que des atouts",
    # -- the game screen
    "Hint": "Conseil",
    "Prev trick": "Pli précédent",
    "Shown cards": "Cartes montrées",
    "Help": "Aide",
    "Save": "Sauver",
    "Quit": "Quitter",
    "The deal is over.": "La donne est finie.",
    "{taker} took a {contract}; the dog is shown to all:": "{taker} a pris une {contract} ; le chien est montré à tous :",
    "The dog": "Le chien",
    "{name} is thinking…": "{name} réfléchit…",
    "Could not save: {error}": "Sauvegarde impossible : {error}",
    "{name}'s robot failed ({error}); it plays a random legal move instead":
        "Le robot de {name} a échoué ({error}) ; il joue à la place un coup légal au hasard",
    "{name}'s robot chose an illegal move ({error}); it plays a random legal move instead":
        "Le robot de {name} a choisi un coup illégal ({error}) ; il joue à la place un coup légal au hasard",
    "Could not save the game: {error}": "Impossible de sauver la partie : {error}",
    "could not save the game: {error}": "impossible de sauver la partie : {error}",
    "No trick has been played yet.": "Aucun pli n'a encore été joué.",
    "No save directory: start with --save-dir to save.": "Pas de dossier de sauvegarde : lancez avec --save-dir pour sauver.",
    "Game saved to {path}; resume it with: {command}": "Partie sauvée dans {path} ; reprenez-la avec : {command}",
    "The hint is for your turn.": "Le conseil est pour votre tour.",
    "The {level} robot is thinking…": "Le robot {level} réfléchit…",
    "No unfinished game to resume.": "Aucune partie en cours à reprendre.",
    "This game has no save directory (--save-dir): leaving ends it.":
        "Cette partie n'a pas de dossier de sauvegarde (--save-dir) : partir la termine.",
    "The game could not be saved in {path} ({error}): leaving loses it.":
        "La partie n'a pas pu être sauvée dans {path} ({error}) : partir la perd.",
    "The game is saved in {path}. Continue it later with: {command}":
        "La partie est sauvée dans {path}. Reprenez-la plus tard avec : {command}",
    # -- the boxes
    "Close": "Fermer",
    "OK (Enter)": "OK (Entrée)",
    "Leave": "Partir",
    "Stay": "Rester",
    "Leave the game?": "Quitter la partie ?",
    "Leave (y)": "Partir (y)",
    "Stay (n)": "Rester (n)",
    "wins the trick": "remporte le pli",
    "Previous trick (trick {n})": "Pli précédent (pli {n})",
    "Trumps in the écart:": "Atouts de l'écart :",
    "Your {size} poignée ({bonus}):": "Votre poignée {size} ({bonus}) :",
    "{name}'s {size} poignée ({bonus}):": "Poignée {size} de {name} ({bonus}) :",
    "No card has been shown yet.": "Aucune carte n'a encore été montrée.",
    "Cards shown to all": "Cartes montrées à tous",
    # -- the result
    "Continue": "Continuer",
    "Analyse my play": "Analyser mon jeu",
    "Void deal": "Donne nulle",
    "Deal {n} of {of}": "Donne {n} sur {of}",
    "Score sheet": "Feuille de marque",
    "Final ranking": "Classement final",
    "Next deal (Enter)": "Donne suivante (Entrée)",
    "Analyse my play (a)": "Analyser mon jeu (a)",
    "all passed": "tout le monde a passé",
    "a player held the petit sec": "un joueur avait le petit sec",
    "The deal is void: {why}. ": "La donne est nulle : {why}. ",
    "It does not count; the next dealer deals.": "Elle ne compte pas ; le donneur suivant donne.",
    "{taker} took a {contract} (×{k})": "{taker} a pris une {contract} (×{k})",
    "with {partner} as partner": "avec {partner} comme partenaire",
    "You took a {contract}; the dog is shown to all:": "Vous avez pris une {contract} ; le chien est montré à tous :",
    "You took a {contract} (×{k})": "Vous avez pris une {contract} (×{k})",
    "with you as partner": "avec vous comme partenaire",
    "alone": "seul",
    "Taker's side: {points} points with {bouts}; needed {target}. ":
        "Camp du preneur : {points} points avec {bouts} ; il en fallait {target}. ",
    "MADE by {margin}.": "FAITE de {margin}.",
    "FAILED by {margin}.": "CHUTÉE de {margin}.",
    "petit au bout": "petit au bout",
    "Unit U = {core} × {k}": "Unité U = {core} × {k}",
    "chelem": "chelem",
    "{unit}: each defender scores −U": "{unit} : chaque défenseur marque −U",
    "none": "aucun",
    "won by the taker's side": "gagné par le camp du preneur",
    "won by the defence": "gagné par la défense",
    "Petit au bout: {what}.": "Petit au bout : {what}.",
    "Poignées: {list}.": "Poignées : {list}.",
    "Chelem: {what}.": "Chelem : {what}.",
    "announced and made (+400)": "annoncé et réussi (+400)",
    "made without announcing (+200)": "réussi sans annonce (+200)",
    "announced and failed (−200)": "annoncé et chuté (−200)",
    "made by the defence (−200 for the taker)": "réussi par la défense (−200 pour le preneur)",
    "This deal:": "Cette donne :",
    "contract": "contrat",
    "void": "nulle",
    "Total": "Total",
    # -- the analysis
    "Your play, analysed by the expert": "Votre jeu, analysé par l'expert",
    "The expert is going over your decisions…": "L'expert passe vos décisions en revue…",
    "no mark": "aucune marque",
    "trick": "pli",
    "decision": "décision",
    "you played": "vous avez joué",
    "better": "mieux",
    "95% interval": "intervalle à 95 %",
    "[{low}, {high}]": "[{low} ; {high}]",
    "bid": "enchère",
    "call": "appel",
    "écart": "écart",
    "poignée": "poignée",
    "petit sec": "petit sec",
    "card": "carte",
    "Keep the poignée hidden": "Garder la poignée cachée",
    "{contract} with a chelem": "{contract} avec un chelem",
    "Play {card}": "Jouer {card}",
    "Écart {cards}": "Écart {cards}",
    "Show a poignée of {n}": "Montrer une poignée de {n}",
    "Redeal (petit sec)": "Redonner (petit sec)",
    "Play on with the petit sec": "Continuer avec le petit sec",
    # -- the start screen
    "Atout — French Tarot against the computer": "Atout — le tarot contre l'ordinateur",
    "{n} players": "{n} joueurs",
    "robots: {level}": "robots : {level}",
    "Number of deals": "Nombre de donnes",
    "number of deals": "nombre de donnes",
    "Seed (optional)": "Graine (facultative)",
    "same seed, same deals": "même graine, mêmes donnes",
    "Start": "Commencer",
    "Resume saved game": "Reprendre la partie sauvée",
    "Tab moves between the choices, arrows and Space choose, Enter begins (with the option under the cursor).":
        "Tab passe d'un choix à l'autre, les flèches et Espace choisissent, Entrée commence (avec l'option sous "
        "le curseur).",
    "the game needs at least one deal": "la partie demande au moins une donne",
    # -- the command line
    "cannot resume {path}: {error}": "impossible de reprendre {path} : {error}",
    "Start a new game with: atout play": "Commencez une nouvelle partie avec : atout play",
    "Game saved in {path}; continue it with: {command}": "Partie sauvée dans {path} ; reprenez-la avec : {command}",
    "The game could not be saved in {path}{why}: it is lost.": "La partie n'a pas pu être sauvée dans {path}{why} : elle est perdue.",
    "Deal records: {path} (view one with: atout replay FILE)":
        "Enregistrements des donnes : {path} (revoir l'une avec : atout replay FICHIER)",
    "unknown robot level {level!r}; levels are {levels}": "niveau de robot inconnu {level!r} ; les niveaux sont {levels}",
    "--deals must be at least 1": "--deals doit valoir au moins 1",
    "--delay must be 0 seconds or more, not {delay:g}": "--delay doit valoir 0 seconde ou plus, pas {delay:g}",
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
[b]Atout — le tarot contre l'ordinateur[/b]
(Échap ferme cette aide.)

[b]Touches[/b]
• ←/→ ↑/↓ Début Fin : se déplacer dans la main ; Entrée ou Espace : choisir la carte (ou cliquer dessus).
• 1…9 : les boutons numérotés, ou Tab jusqu'à eux, ou un clic. Aux enchères les touches ne changent jamais : {auction_keys} (grisées quand elles ne dépassent pas la meilleure enchère).
• h : conseil, ce que ferait le robot expert · p : le pli précédent · c : les cartes montrées à tous (chien, atouts de l'écart, poignées) · s : sauver · q : partir (demande d'abord, et dit où la partie est sauvée) · ? : cette aide.

[b]Cartes[/b]
Quatre couleurs, ♠ ♥ ♦ ♣, de 14 cartes : R (Roi), D (Dame), C (Cavalier), V (Valet), puis du 10 au 1. Les 21 atouts, numérotés de 1 à 21, sont des tuiles jaunes dans votre main (« atout 19 » dans les phrases) ; l'Excuse (Ex dans votre main) n'est ni couleur ni atout. Les trois bouts sont le 21, le Petit (atout 1) et l'Excuse.
Points des cartes : un bout ou un roi 4½, une dame 3½, un cavalier 2½, un valet 1½, toute autre carte ½ (91 en tout).

[b]Enchères[/b]
Chacun parle une fois, plus haut que la dernière enchère, ou passe : {contracts}. Après une Prise ou une Garde le chien est montré, pris, et un écart mis de côté ; après une Garde sans ou une Garde contre personne ne voit le chien. À 5 joueurs le preneur appelle un Roi : celui qui le tient est son partenaire secret.

[b]Écart[/b]
Jamais un Roi ni un bout ; des atouts seulement quand il manque d'autres cartes à écarter, et ils sont montrés.

[b]Jeu[/b]
Fournir la couleur demandée ; sinon couper ; monter à l'atout quand on le peut, même sur un partenaire. L'Excuse se joue toujours et reste à son propriétaire.

[b]Marque[/b]
Le preneur doit faire 56 points sans bout, 51 avec 1, 41 avec 2, 36 avec 3. U = (25 + écart ± 10 pour le petit au bout) × multiplicateur ± poignée ± chelem ; chaque défenseur marque −U, le preneur le reste. Poignée (montrée avant votre première carte) : 10/13/15 atouts à 4 joueurs, 13/15/18 à 3, 8/10/13 à 5, valant 20/30/40 au camp gagnant. Chelem (tous les plis) : +400 annoncé, +200 non annoncé, −200 annoncé mais chuté.
""",
    # -- atout replay and atout play --robots-only
    "Seat {n}": "Place {n}",
    "seed {seed}": "graine {seed}",
    "Atout replay": "Atout : relecture",
    "Next trick": "Pli suivant",
    "Previous": "Précédent",
    "Beginning": "Début",
    "End": "Fin",
    "The deal": "La donne",
    "Bidding done": "Enchères finies",
    "Bidding done, écart laid aside": "Enchères finies, écart posé",
    "Trick {n}": "Pli {n}",
    "Where the record stops": "Où la donne enregistrée s'arrête",
    "Hands as dealt:": "Les mains données :",
    "Dog": "Chien",
    "Trick {n} (unfinished):": "Pli {n} (inachevé) :",
    "The record stops here: {name} is to act.": "La donne enregistrée s'arrête ici : à {name} de jouer.",
    "Bids:": "Enchères :",
    "none yet": "aucune pour l'instant",
    "Trick {n}: led by {leader}, won by {winner}": "Pli {n} : entame de {leader}, remporté par {winner}",
    "player": "joueur",
    "played": "joué",
    "hand": "main",
    "(taker)": "(preneur)",
    "(partner)": "(partenaire)",
    "Écart:": "Écart :",
    "action {n}:": "action {n} :",
    "{players} robots at level {level}": "{players} robots de niveau {level}",
    "Deal {n}: {dealer} deals (seed {seed})": "Donne {n} : {dealer} donne (graine {seed})",
    "Deal {n}, counted deal {k} of {total}: {dealer} deals (seed {seed})": "Donne {n} (comptée : {k} sur {total}) : {dealer} donne (graine {seed})",
    "{taker}: {contract}": "{taker} : {contract}",
    "Totals:": "Totaux :",
}

PLURALS: dict[str, tuple[str, str]] = {
    "{n} card": ("{n} carte", "{n} cartes"),
    "{n} trump": ("{n} atout", "{n} atouts"),
    "{n} trick": ("{n} pli", "{n} plis"),
    "{n} bout": ("{n} bout", "{n} bouts"),
    "poignée": ("poignée", "poignées"),
    "trump": ("atout", "atouts"),
    "{n} inaccuracy": ("{n} imprécision", "{n} imprécisions"),
    "{n} mistake": ("{n} erreur", "{n} erreurs"),
    "{n} blunder": ("{n} gaffe", "{n} gaffes"),
    "{n} decision of yours, {loss} points expected to be lost against the expert's choices":
        ("{n} décision de votre part, {loss} points de perte attendue face aux choix de l'expert",
         "{n} décisions de votre part, {loss} points de perte attendue face aux choix de l'expert"),
    "Final ranking after {n} deal:": ("Classement final après {n} donne :", "Classement final après {n} donnes :"),
    "The game in {path} is finished: its {n} deal was played.":
        ("La partie de {path} est finie : sa {n} donne a été jouée.",
         "La partie de {path} est finie : ses {n} donnes ont été jouées."),
    "{n} counted deal": ("{n} donne comptée", "{n} donnes comptées"),
}
