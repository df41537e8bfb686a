"""Score stored entries and labels against hand-made gold, as ../shared/eval/score.py does.

Same alignment and metrics, so a team can measure against its own gold from
the database without exporting: entries are aligned per logbook in document
order by heading similarity (a monotone alignment maximising the total
similarity above 0.8); codes are scored micro-averaged on aligned entries,
unmatched gold codes count as misses and unmatched predicted codes as false
alarms; `by_date` pools codes per calendar day.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import sqlfiles
from .dataset.export import EXPORT_QUERIES
from .errors import ArgumentError
from .store import choose_logbooks, connect, default_db

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger(__name__)

MATCH_THRESHOLD = 0.8
KINDS = ("faults", "interventions")


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: Iterable[str], pred: Iterable[str]) -> None:
        g, p = set(gold), set(pred)
        self.tp += len(g & p)
        self.fp += len(p - g)
        self.fn += len(g - p)

    def merge(self, other: Counts) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn

    def report(self) -> dict:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3),
                "tp": self.tp, "fp": self.fp, "fn": self.fn}


def _norm(text: str | None) -> str:
    text = re.sub(r"[#*`_\[\]()]", " ", (text or "").lower())
    return re.sub(r"\s+", " ", text).strip()


def similarity(a: str | None, b: str | None) -> float:
    """Heading similarity; a clean prefix (a PDF heading that lost a wrapped tail) scores 0.9."""
    a, b = _norm(a), _norm(b)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 8 and long_.startswith(short):
        return 0.9
    return difflib.SequenceMatcher(None, a, b).ratio()


def align(gold: Sequence[dict], pred: Sequence[dict]) -> list[tuple[int, int]]:
    """Monotone alignment maximising total similarity above the threshold (dynamic programming)."""
    n, m = len(gold), len(pred)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    move: list[list[str | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best, how = score[i - 1][j], "up"
            if score[i][j - 1] > best:
                best, how = score[i][j - 1], "left"
            s = similarity(gold[i - 1].get("heading"), pred[j - 1].get("heading"))
            if s >= MATCH_THRESHOLD and score[i - 1][j - 1] + s > best:
                best, how = score[i - 1][j - 1] + s, "diag"
            score[i][j], move[i][j] = best, how
    pairs, i, j = [], n, m
    while i > 0 and j > 0:
        if move[i][j] == "diag":
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif move[i][j] == "up":
            i -= 1
        else:
            j -= 1
    return pairs[::-1]


def score_logbook(gold: Sequence[dict], pred: Sequence[dict]) -> tuple[dict, dict, dict]:
    """Entry, date and code figures for one logbook; also its per-code counts."""
    pairs = align(gold, pred)
    out = {"gold_entries": len(gold), "pred_entries": len(pred), "matched": len(pairs),
           "entry_recall": round(len(pairs) / len(gold), 3) if gold else 0.0,
           "entry_precision": round(len(pairs) / len(pred), 3) if pred else 0.0}
    dated = [(i, j) for i, j in pairs if gold[i].get("date")]
    same = sum(gold[i]["date"] == pred[j].get("date") for i, j in dated)
    out["date_accuracy"] = round(same / len(dated), 3) if dated else None

    per_code: dict[str, Counts] = defaultdict(Counts)
    matched_g, matched_p = {i for i, _ in pairs}, {j for _, j in pairs}
    results = {}
    for kind in KINDS:
        counts = Counts()
        compared = [(gold[i].get(kind, []), pred[j].get(kind) or []) for i, j in pairs]
        compared += [(gold[i].get(kind, []), []) for i in range(len(gold)) if i not in matched_g]
        compared += [([], pred[j].get(kind) or []) for j in range(len(pred)) if j not in matched_p]
        for g, p in compared:
            counts.add(g, p)
            for code in set(g) | set(p):
                per_code[code].add([code] if code in g else [], [code] if code in p else [])
        results[kind] = counts
    if gold and sum(1 for g in gold if g.get("date")) >= 0.5 * len(gold):
        results["by_date"] = _by_date(gold, pred)
    return out, results, per_code


def _by_date(gold: Sequence[dict], pred: Sequence[dict]) -> Counts:
    days: dict[str, tuple[set, set]] = defaultdict(lambda: (set(), set()))
    for side, rows in ((0, gold), (1, pred)):
        for row in rows:
            if row.get("date"):
                days[row["date"]][side].update(*(row.get(k) or [] for k in KINDS))
    counts = Counts()
    for g, p in days.values():
        counts.add(g, p)
    return counts


def score(gold_rows: Iterable[dict], pred_rows: Iterable[dict],
          logbooks: Sequence[str] | None = None) -> dict:
    """The full report: per logbook, overall, and per code (score.py's JSON shape)."""
    gold_by, pred_by = defaultdict(list), defaultdict(list)
    for row in gold_rows:
        gold_by[row["logbook"]].append(row)
    for row in pred_rows:
        pred_by[row.get("logbook")].append(row)
    totals: dict[str, Counts] = defaultdict(Counts)
    codes: dict[str, Counts] = defaultdict(Counts)
    report: dict = {"logbooks": {}}
    found = {"gold": 0, "pred": 0, "matched": 0}
    for lid in logbooks or sorted(gold_by):
        gold = sorted(gold_by.get(lid, []), key=lambda r: r.get("n", 0))
        out, results, per_code = score_logbook(gold, pred_by.get(lid, []))
        for kind, counts in results.items():
            totals[kind].merge(counts)
            out[kind] = counts.report()
        for code, counts in per_code.items():
            codes[code].merge(counts)
        for key in found:
            found[key] += out[f"{key}_entries" if key != "matched" else "matched"]
        report["logbooks"][lid] = out
    report["overall"] = {kind: counts.report() for kind, counts in totals.items()}
    report["overall"]["entry_recall"] = (round(found["matched"] / found["gold"], 3)
                                         if found["gold"] else 0.0)
    report["overall"]["entry_precision"] = (round(found["matched"] / found["pred"], 3)
                                            if found["pred"] else 0.0)
    report["per_code"] = {code: counts.report() for code, counts in sorted(codes.items())}
    return report


def load_gold(path: str | Path) -> list[dict]:
    """Gold rows from a .jsonl file or every .jsonl file in a folder."""
    path = Path(path)
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    if not files or not all(f.is_file() for f in files):
        raise FileNotFoundError(f"{path}: no gold .jsonl files")
    rows = []
    for file in files:
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{file}:{number}: not JSON: {exc.msg}") from None
    return rows


def score_store(gold: str | Path, db: str | Path | None = None,
                logbooks: Sequence[str] | None = None) -> dict:
    """`score` of the stored entries against gold, as eval/score.py scores an export of them:
    a gold logbook that is not stored counts as missed, so a warning names each one."""
    rows = load_gold(gold)
    with connect(db or default_db(), read_only=True) as con:
        stored = choose_logbooks(con)
        predictions = _predictions(con, stored)
    if logbooks is None:
        wanted = sorted({row["logbook"] for row in rows})
        if set(stored).isdisjoint(wanted):
            raise ArgumentError(f"none of the gold's logbooks is stored ({', '.join(wanted)}); "
                                "ingest them first")
        if missing := sorted(set(wanted) - set(stored)):
            log.warning("warning: not stored, so scored as missed: %s (--logbook scores only "
                        "the logbooks named)", ", ".join(missing))
    return score(rows, predictions, logbooks)


def stored_predictions(db: str | Path | None = None) -> list[dict]:
    """Entries from the store as `logbook export` writes them (logbook, heading, date, codes)."""
    with connect(db or default_db(), read_only=True) as con:
        return _predictions(con, choose_logbooks(con))


def _predictions(con: duckdb.DuckDBPyConnection, logbooks: list[str]) -> list[dict]:
    cursor = sqlfiles.run(con, EXPORT_QUERIES / "entries.sql", {"logbooks": logbooks})
    names = [d[0] for d in cursor.description]
    rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return [{"logbook": r["logbook"], "heading": r["heading"],
             "date": r["date"] and r["date"].isoformat(), "faults": r["faults"],
             "interventions": r["interventions"]} for r in rows]


def format_report(report: dict) -> str:
    """The text report score.py prints."""
    lines = []
    for lid, out in report["logbooks"].items():
        dates = out["date_accuracy"]
        if dates is None:  # no entry to date: none matched, or none stored (warned above)
            dates = "n/a (no entries stored)" if out["pred_entries"] == 0 else "n/a (undated)"
        line = (f"{lid}: entries {out['matched']}/{out['gold_entries']} found, "
                f"{out['pred_entries']} predicted; date acc {dates}; "
                f"faults F1 {out['faults']['f1']}; interventions F1 {out['interventions']['f1']}")
        if "by_date" in out:
            line += f"; by-date F1 {out['by_date']['f1']}"
        lines.append(line)
    lines.append("per code (f1 tp/fp/fn):")
    for code, c in report["per_code"].items():
        lines.append(f"  {code:24s} {c['f1']:.3f}  {c['tp']}/{c['fp']}/{c['fn']}")
    o = report["overall"]
    lines.append(f"OVERALL entry recall {o['entry_recall']} precision {o['entry_precision']}; "
                 f"faults F1 {o['faults']['f1']}; interventions F1 {o['interventions']['f1']}"
                 + (f"; by-date F1 {o['by_date']['f1']}" if "by_date" in o else ""))
    return "\n".join(lines)
