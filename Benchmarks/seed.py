#!/usr/bin/env python3
"""Fills a MIGA history with N realistic sessions, for benchmarks and for
looking at `miga stats` with something in it.

    python3 Benchmarks/seed.py STORE N [DAYS]

STORE must exist (any miga command creates it: `miga stats` on an empty
home will do). Sessions spread over the last DAYS days (default 400),
across a few programs; about a quarter end in a conscious exit.
"""
import random
import sqlite3
import sys
import time
import uuid

PROGRAMS = [("firefox", 0.35), ("discord", 0.2), ("steam", 0.15), ("slack", 0.15), ("spotify", 0.1), ("thunderbird", 0.05)]
OUTCOMES = [("exit", 0.25), ("proceed", 0.66), ("abandoned", 0.03), ("passthrough", 0.06)]


def pick(weighted, rng):
    roll, total = rng.random(), 0.0
    for value, weight in weighted:
        total += weight
        if roll < total:
            return value
    return weighted[-1][0]


def seed(store, count, days=400):
    rng = random.Random(2026)
    now_ms = int(time.time() * 1000)
    rows = []
    for _ in range(count):
        ended = now_ms - int(rng.random() * days * 86_400_000)
        outcome = pick(OUTCOMES, rng)
        paused = 0.0 if outcome == "passthrough" else round(rng.uniform(8, 180), 3)
        started = ended - int(paused * 1000)
        rows.append((str(uuid.UUID(int=rng.getrandbits(128))), pick(PROGRAMS, rng), started, ended, outcome, paused,
                     rng.choice([0, 0, 0, 1, 2]) if outcome != "passthrough" else 0, "mindfulness-001", ""))
    db = sqlite3.connect(store)
    with db:
        db.executemany("INSERT INTO sessions (id, program, started_at, ended_at, outcome, paused_seconds, deepen_count, "
                       "quotes, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.close()


def main():
    store, count = sys.argv[1], int(sys.argv[2])
    days = int(sys.argv[3]) if len(sys.argv) > 3 else 400
    seed(store, count, days)
    print(f"seeded {count} sessions over {days} days into {store}")


if __name__ == "__main__":
    main()
