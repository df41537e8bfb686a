"""A synthetic store of N entries, made by INSERT ... SELECT from range() in about a second.

For load tests of what reads the store (the dashboard): every 20 minutes an entry per
logbook, ~3% of them failures of assorted families, ~4% restarts, a loss figure on 20%.
`python tests/bigstore.py FILE [N]` makes one by hand.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from logbook_miner.store import connect


def make(db: Path, entries: int = 100_000, logbooks: int = 4) -> Path:
    """Write the store at `db` (which must not exist yet)."""
    with connect(db) as con:
        con.execute(f"""
        INSERT INTO logbooks SELECT 'big-' || i, 'synthetic', 'x', 'markdown', NULL, 'Big ' || i,
               128, 8, now()::TIMESTAMP, NULL FROM range({logbooks}) t(i);
        INSERT INTO entries
        SELECT 'big-' || (i % {logbooks}), i // {logbooks} + 1, strftime(ts, '%Y-%m-%d %H:%M UTC'),
               ts::DATE, strftime(ts, '%H:%M'), 'UTC', ts, 'oncall-' || (i % 7),
               NULL, NULL, NULL, false, false,
               'Status note ' || i || '. ' || repeat('The job is training normally. ', 1 + i % 20)
        FROM (SELECT i, TIMESTAMP '2023-01-01' + to_minutes((i // {logbooks}) * 20) AS ts
              FROM range({entries}) t(i));
        INSERT INTO labels
        SELECT logbook, seq, 'fault',
               ['hardware.gpu', 'network.interconnect', 'software.crash', 'storage.io',
                'numerics.loss_spike', 'hardware.memory', 'software.hang', 'infra.provider',
                'data.quality'][1 + seq % 9],
               'evidence', 'text', 0, 8, 'synthetic', 0.9
        FROM entries WHERE hash(logbook || seq) % 100 < 3;
        INSERT INTO labels
        SELECT logbook, seq, 'intervention',
               CASE WHEN seq % 5 = 0 THEN 'node_replacement' ELSE 'restart' END,
               'restarted', 'text', 0, 9, 'synthetic', 0.9
        FROM entries WHERE hash(logbook || seq) % 100 < 3 OR hash(seq || logbook) % 100 < 1;
        INSERT INTO metrics
        SELECT logbook, seq, 'lm_loss', 3.5 - ln(1 + seq / 1000.0) / 3 + (hash(seq) % 100) / 500,
               NULL, 'lm loss', 'text', 0, 7
        FROM entries WHERE seq % 5 = 0;
        """)
    return db

if __name__ == "__main__":
    t = time.time()
    make(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100_000)
    print(f"made in {time.time() - t:.1f}s")
