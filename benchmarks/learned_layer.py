"""Would a learned layer earn its place? `python benchmarks/learned_layer.py` (leave-one-out).

Issue 11 invites a learned layer over rule features and words, reported
leave-one-logbook-out (LOLO). This benchmark trains, for each of the ten gold
logbooks in turn, one logistic regression per code on the other nine (word
unigrams and bigrams, and every rule cue with its ConText decision:
`cue:restart:kept`, `cue:lr_change:HYPOTHETICAL`) and scores the held-out
logbook four ways: the rules alone; the rules plus codes the model is sure of
(`add`); the rules minus codes the model is sure are wrong (`veto`); the model
alone. Markdown renderings, micro F1 as ../shared/eval/score.py counts it.

Needs scikit-learn (`pip install -e '.[bench]'`); the package itself does not.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

try:
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression
except ImportError:
    sys.exit("needs scikit-learn: pip install -e '.[bench]'")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logbook_miner.label.classifier import Classifier  # noqa: E402
from logbook_miner.read import read  # noqa: E402
from logbook_miner.segment.entries import segment  # noqa: E402

SHARED = ROOT.parent / "shared"
WAYS = {"rules": None, "add 0.5": ("add", 0.5), "add 0.7": ("add", 0.7),
        "veto 0.9": ("veto", 0.9), "model 0.5": ("model", 0.5)}
MIN_EXAMPLES = 3  # a code with fewer gold entries in the training logbooks gets no model


def entries(classifier: Classifier) -> list[dict]:
    """Every gold entry: its text, its rule cues with their context, rule codes, gold codes."""
    rows = []
    for path in sorted((SHARED / "gold").glob("*.jsonl")):
        gold = {g["heading"].strip(): g for g in map(json.loads, path.open(encoding="utf-8"))}
        document = read(SHARED / "logbooks" / "md" / f"{path.stem}.md")
        for labelled in classifier.classify(segment(document)):
            found = gold.get(labelled.entry.heading.strip())
            if found is None:
                continue
            text = f"{labelled.entry.heading}\n{labelled.entry.text}"
            doc = classifier.nlp(text)
            cues = [f"cue:{s.label_}:{s._.context.rule.category if s._.context else 'kept'}"
                    for s in doc.spans["taxonomy"]]
            rows.append({"logbook": path.stem, "text": text.lower(),
                         "cues": " ".join(cues) or "none",
                         "rules": {label.code for label in labelled.labels},
                         "gold": set(found["faults"]) | set(found["interventions"])})
    return rows


def held_out(rows: list[dict], logbook: str, way: tuple[str, float] | None) -> list[set[str]]:
    """Codes for the held-out logbook's entries, trained on the others."""
    train = [r for r in rows if r["logbook"] != logbook]
    test = [r for r in rows if r["logbook"] == logbook]
    mode, sure = way or ("rules", 1.0)
    predicted = [set() if mode == "model" else set(r["rules"]) for r in test]
    if way is None:
        return predicted
    words = CountVectorizer(ngram_range=(1, 2), min_df=2, binary=True,
                            token_pattern=r"[a-z][a-z0-9_\-]+")
    cues = CountVectorizer(binary=True, token_pattern=r"\S+", lowercase=False)
    x_train = hstack([words.fit_transform([r["text"] for r in train]),
                      cues.fit_transform([r["cues"] for r in train])]).tocsr()
    x_test = hstack([words.transform([r["text"] for r in test]),
                     cues.transform([r["cues"] for r in test])]).tocsr()
    for code in sorted({c for r in train for c in r["gold"]}):
        y = np.array([code in r["gold"] for r in train])
        if y.sum() < MIN_EXAMPLES:
            continue
        model = LogisticRegression(C=0.5, class_weight="balanced", max_iter=2000).fit(x_train, y)
        for codes, p in zip(predicted, model.predict_proba(x_test)[:, 1], strict=True):
            if mode in ("add", "model") and p > sure:
                codes.add(code)
            elif mode == "veto" and p < 1 - sure:
                codes.discard(code)
    return predicted


def f1(counts: Counter, kind: str) -> float:
    tp, fp, fn = counts[kind, "tp"], counts[kind, "fp"], counts[kind, "fn"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def main() -> None:
    rows = entries(Classifier())
    logbooks = sorted({r["logbook"] for r in rows})
    print(f"{'logbook':30}" + "".join(f"{way:>20}" for way in WAYS))
    pooled = {way: Counter() for way in WAYS}
    lines = {name: "" for name in logbooks}
    for way, spec in WAYS.items():
        for name in logbooks:
            counts: Counter = Counter()
            test = [r for r in rows if r["logbook"] == name]
            for row, codes in zip(test, held_out(rows, name, spec), strict=True):
                for kind, faults in (("faults", True), ("interv", False)):
                    gold = {c for c in row["gold"] if ("." in c) == faults}  # faults: family.name
                    got = {c for c in codes if ("." in c) == faults}
                    counts[kind, "tp"] += len(gold & got)
                    counts[kind, "fp"] += len(got - gold)
                    counts[kind, "fn"] += len(gold - got)
            pooled[way] += counts
            lines[name] += f"{f1(counts, 'faults'):>10.3f}{f1(counts, 'interv'):>10.3f}"
    for name in logbooks:
        print(f"{name:30}{lines[name]}")
    print(f"{'(pooled, micro)':30}" + "".join(
        f"{f1(c, 'faults'):>10.3f}{f1(c, 'interv'):>10.3f}" for c in pooled.values()))


if __name__ == "__main__":
    main()
