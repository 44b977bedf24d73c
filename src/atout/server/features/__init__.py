"""The site's features over the store: accounts, friends, profiles, the ledger (coins, XP, badges),
standings, the daily deal, tournaments, analysis jobs and their worker, erasure, and the bookkeeping a
game's end adds to the store's transaction. No HTTP here: the routes that serve them are in ``server/http``."""
