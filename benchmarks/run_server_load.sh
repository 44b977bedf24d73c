#!/usr/bin/env bash
# The server load runs whose results are committed in benchmarks/results/ (server_load.md).
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and redis-server for the several-process runs.
# Run it on an otherwise idle machine: the clients share its cores with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
out=benchmarks/results
# One process, the embedded default (SQLite): issue 8's target.
python benchmarks/server_load.py --tables 5,10,20,30,50 --seconds 15 --warmup 3 --out "$out/server_load.json"
# One, two and three processes on PostgreSQL and Redis, behind one address (atout serve --workers N).
for n in 1 2 3; do
    db="atout_load_$n"
    psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    python benchmarks/server_load.py --processes "$n" --db "postgresql://postgres@127.0.0.1/$db" \
        --tables 10,20,40 --seconds 15 --warmup 3 --out "$out/server_load_processes_$n.json"
    psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db"
done
