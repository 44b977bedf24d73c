"""The store's tables (SQLAlchemy Core); Alembic's migrations create and change them."""

from __future__ import annotations

import re

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

metadata = sa.MetaData()

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")

STORED_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""What a table's, game's or tournament's id is made of: an id from a path or a message that is not such is
nobody's, and is refused without asking the store (PostgreSQL refuses a NUL in a query: a failure, not a no)."""

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("snapshot", JSONType, nullable=False),
    sa.Column("snapshot_seq", sa.Integer, nullable=False),
)

table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # (table_id, seq) unique: no event is stored twice
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("data", JSONType, nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=False),
    sa.Column("data", JSONType, nullable=False),
)

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(20), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),  # accounts.name_key: names are unique
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("avatar", sa.String(32), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("deleted_at", sa.Float, nullable=True),  # the account was deleted: a tombstone (erasure.py)
    # A robot account (features/robot_accounts.py): its owner's id, and the SHA-256 of its API token (None: revoked).
    sa.Column("robot_of", sa.String(32), sa.ForeignKey("players.id"), nullable=True, index=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Index("ix_players_token_hash", "token_hash", unique=True),
    # the person shows their insights (accuracy, habits: features/insights.py) on their public profile
    sa.Column("insights_public", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),  # sha256 of the cookie: a stolen table opens nothing
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("last_seen_at", sa.Float, nullable=True),  # when it was last used (hourly): inactivity ends it
    sa.Column("address", sa.String(64), nullable=True),  # where it logged in from, for its owner to see
    sa.Column("agent", sa.String(200), nullable=True),  # the browser's User-Agent at login, likewise
)

friendships = sa.Table(
    "friendships",
    metadata,
    sa.Column("requester", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("addressee", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # "requested" | "friends"
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_friendships_addressee", "addressee"),
)

game_players = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("name", sa.String(20), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("abandoned", sa.Boolean, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("taker_deals", sa.Integer, nullable=False),
    sa.Column("taker_made", sa.Integer, nullable=False),
    sa.Column("competitive", sa.Boolean, nullable=False),
    sa.Index("ix_game_players_player", "player_id", "ended_at"),  # a profile: one player's games, newest first
    sa.Index("ix_game_players_board", "players", "ended_at"),  # a leaderboard: a player count over a period
)

standings = sa.Table(
    "standings",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("period", sa.String(8), primary_key=True),  # "week" | "month" | "all"
    sa.Column("period_start", sa.Float, primary_key=True),  # UTC start of the week or month; 0 for all time
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Index("ix_standings_board", "players", "period", "period_start", "points"),  # a page is an index range
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),  # the game that moved it: once per game
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Index("ix_rating_history_player", "player_id", "at"),  # a profile: one person's ratings over time
)

ledger = sa.Table(
    "ledger",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("holder", sa.String(40), nullable=False),  # a player's id, "bank", or "pot:GAME" while a game runs
    sa.Column("kind", sa.String(8), nullable=False),  # "chips" | "xp"
    sa.Column("amount", sa.BigInteger, nullable=False),  # signed: a transfer is rows summing to zero
    sa.Column("reason", sa.String(16), nullable=False),  # grant, claim, bet, pot, prize, refund, forfeit, cut, ...
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("ref", sa.String(100), nullable=False, unique=True),  # what the row is for: never written twice
    sa.Index("ix_ledger_holder", "holder", "kind"),  # a balance is a sum over one holder's rows
    sa.Index("ix_ledger_game", "game_id"),
)

settlements = sa.Table(
    "settlements",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),  # a game is settled once
    sa.Column("outcome", sa.String(16), nullable=False),  # "finished" | "cancelled" | "deserted"
    sa.Column("ranked", sa.Boolean, nullable=False),
    sa.Column("pot", sa.BigInteger, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("data", JSONType, nullable=False),  # who got what and why, as shown with the game
)

badges = sa.Table(
    "badges",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("badge", sa.String(32), primary_key=True),  # once per player per badge
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)

table_leases = sa.Table(
    "table_leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),  # the server process running the table
    sa.Column("token", sa.BigInteger, nullable=False),  # fencing: one more at every change of owner
    sa.Column("expires_at", sa.Float, nullable=False),  # wall-clock seconds; renewed while the owner lives
    sa.Index("table_leases_expiry", "expires_at"),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True),  # the deal's place in the game's records, from 0
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),  # bots.analysis.VERSION: another version is made again
    sa.Column("seed", sa.String(40), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("data", JSONType, nullable=False),  # the analysis as `atout analyse --json` prints it
)

accuracy = sa.Table(
    "accuracy",
    metadata,
    # a seat's accuracy in a finished deal (bots/accuracy.py), made with its analysis: what its choices cost
    # against the expert's, in points of the deal (≥ 0), in all and by phase
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),  # the analysis's version it was made from
    sa.Column("player_id", sa.String(32), nullable=False),  # who played the seat (an account or a guest)
    sa.Column("players", sa.Integer, nullable=False),  # the table's size
    sa.Column("role", sa.String(8), nullable=True),  # taker, partner, defence; None when nobody took
    sa.Column("loss", sa.Float, nullable=False),
    sa.Column("bid", sa.Float, nullable=False),
    sa.Column("ecart", sa.Float, nullable=False),
    sa.Column("taker", sa.Float, nullable=False),
    sa.Column("partner", sa.Float, nullable=False),
    sa.Column("defence", sa.Float, nullable=False),
    sa.Column("decisions", sa.Integer, nullable=False),  # decisions scored (forced ones are not)
    sa.Column("costly", sa.Integer, nullable=False),  # those that cost something beyond the search's noise
    sa.Column("created_at", sa.Float, nullable=False),
    # per habit (bots/accuracy.py HABITS) that cost something: [points, decisions]; None: kept before 0021
    sa.Column("habits", JSONType, nullable=True),
    sa.Index("accuracy_player", "player_id", "created_at"),  # a person's deals, latest first (the profile)
)

daily_days = sa.Table(
    "daily_days",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),  # the UTC date, 2026-11-25
    sa.Column("seed", sa.String(64), nullable=False),  # secret until the day is over (docs/daily.md)
    sa.Column("commitment", sa.String(64), nullable=False),  # sha256 of the seed: published at once
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),
    sa.Column("level", sa.String(32), nullable=False),  # the robots' level
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("salt", sa.String(64), nullable=True),  # of the plays' address and browser marks: never published
)

daily_plays = sa.Table(
    "daily_plays",
    metadata,
    sa.Column("day", sa.String(10), sa.ForeignKey("daily_days.day"), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),  # once a day each
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),  # the game played (its games row once finished)
    sa.Column("status", sa.String(16), nullable=False),  # "playing" | "finished" | "abandoned"
    sa.Column("total", sa.Integer, nullable=True),  # the seat's total when the game ended
    sa.Column("deals_done", sa.Integer, nullable=False, server_default="0"),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=True),
    sa.Column("data", JSONType, nullable=True),  # the seat, names, records (by hands: no seed) and commitments
    sa.Column("address", sa.String(64), nullable=True),  # the address's mark (salted hash): one ranked play each
    sa.Column("browser", sa.String(64), nullable=True),  # the browser's mark (salted hash), likewise
    sa.Index("daily_plays_rank", "day", "status", "total"),
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # unguessable: a private tournament's link is its id
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("deals", sa.Integer, nullable=False),  # deals a round
    sa.Column("players", sa.Integer, nullable=False),  # at a table: 4 or 5
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=True),  # a start time, or None: when ``size`` people have registered
    sa.Column("size", sa.Integer, nullable=True),
    sa.Column("private", sa.Boolean, nullable=False),  # by its link only: not listed
    sa.Column("level", sa.String(32), nullable=False),  # the robots' level
    sa.Column("seed", sa.String(64), nullable=False),  # secret until the tournament is over (docs/tournaments.md)
    sa.Column("commitment", sa.String(64), nullable=False),  # sha256 of the seed: published at creation
    sa.Column("status", sa.String(16), nullable=False),  # "open" | "running" | "finished" | "cancelled"
    sa.Column("round", sa.Integer, nullable=False, server_default="0"),  # the round being played (from 0)
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("ended_at", sa.Float, nullable=True),
    sa.Index("tournaments_status", "status", "starts_at"),
)

tournament_entries = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("number", sa.Integer, nullable=False),  # the order of registration (seating uses it)
    sa.Column("registered_at", sa.Float, nullable=False),
    sa.Index("tournament_entries_player", "player_id"),
    sa.Index("tournament_entries_number", "tournament_id", "number", unique=True),  # one person an entry number
)

tournament_tables = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("table_id", sa.String(32), nullable=False, unique=True),
    sa.Column("seats", JSONType, nullable=False),  # each seat's player id, or None for a robot
)

store_probe = sa.Table(
    "store_probe",
    metadata,
    sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # a write's worth of text, taken back at once (store/health.py)
)

lesson_progress = sa.Table(
    "lesson_progress",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("lesson", sa.String(32), primary_key=True),  # atout.learn's lesson id
    sa.Column("answers", JSONType, nullable=False),  # the furthest run's right answers, as the wire writes them
    sa.Column("done", sa.Boolean, nullable=False),  # once finished, finished for good
    sa.Column("updated_at", sa.Float, nullable=False),
)

__all__ = [
    "accuracy",
    "analyses",
    "badges",
    "daily_days",
    "daily_plays",
    "friendships",
    "game_players",
    "games",
    "ledger",
    "lesson_progress",
    "metadata",
    "players",
    "rating_history",
    "ratings",
    "sessions",
    "settlements",
    "standings",
    "store_probe",
    "table_events",
    "table_leases",
    "tables",
    "tournament_entries",
    "tournament_tables",
    "tournaments",
]
