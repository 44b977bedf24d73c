"""The site: the hub that dispatches a connection's messages (``hub.py``) to its jobs (identity, handover,
sessions, lobby, opening, table_requests, tournament_clock), connections, and the sites: one process alone
(``local.py``), or several through Redis (``cluster.py`` with its leases, followers, remote lobby and
``bus.py``); the proxy between processes and the metrics."""
