"""Train the learned layer and report what it adds: `python benchmarks/learned_layer.py [--write]`.

Issue 11 invites a learned layer over rule features and words that earns its place. The
layer (logbook_miner/label/learned.py) is one logistic regression per code over an entry's
words, word pairs and the rules' codes; it adds a code the rules did not give when its
chance is above a threshold. It is trained on the project's written *tune* logbooks only
(benchmarks/written_logbooks/: written for the project; ../shared's texts are their
authors' and are never trained on), so every other logbook is one it did not see:

1. a threshold per kind (faults, interventions) is chosen by 5-fold cross-validation over
   the written tune logbooks (folds by logbook): the highest one whose pooled F1 is within
   `TIE` of the best (a higher threshold adds less on text unlike the training text), raised
   until the ten real logbooks, the rules' dev set, keep issue 11's targets; a kind that no
   threshold keeps them for is not added;
2. the layer trained on all written tune logbooks is scored, rules alone against rules plus
   layer, on the written check logbooks and on the ten real ones of ../shared (Markdown,
   micro F1 as ../shared/eval/score.py counts it).

`--write` saves it to logbook_miner/data/learned_layer.npz, which the classifier loads.
Training is deterministic: the same logbooks and rules give the same file.
Needs scikit-learn (`pip install -e '.[bench]'`); the package itself does not.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

try:
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression
except ImportError:
    sys.exit("needs scikit-learn: pip install -e '.[bench]'")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labels import CHECK, SHARED, WRITTEN  # noqa: E402

from logbook_miner.label.classifier import Classifier  # noqa: E402
from logbook_miner.label.learned import LAYER_PATH, features, words  # noqa: E402
from logbook_miner.read import read  # noqa: E402
from logbook_miner.segment.entries import segment  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
TIE = 0.002  # pooled F1 this close to the best counts as as good
FOLDS = 5
MIN_ENTRIES = 2  # a feature in fewer training entries is not learned from
MIN_EXAMPLES = 3  # a code in fewer training entries gets no model
MIN_WEIGHT = 0.01  # a feature whose weights are all smaller is left out of the saved layer
DEV_TARGETS = {"faults": 0.93, "interv": 0.90}  # issue 11's, on the ten real logbooks
REGULARISATION = 0.5  # LogisticRegression's C


def rows(classifier: Classifier, logbooks: dict[str, tuple[Path, Path]]) -> list[dict]:
    """Every gold entry of each logbook (name: (Markdown, gold)): its features, the rules'
    codes and the gold codes."""
    found = []
    for name, (markdown, gold_path) in logbooks.items():
        gold = {g["heading"].strip(): g for g in map(json.loads, gold_path.open(encoding="utf-8"))}
        for labelled in classifier.classify(segment(read(markdown))):
            entry_gold = gold.get(labelled.entry.heading.strip())
            if entry_gold is None:
                continue
            rules = {label.code for label in labelled.labels}
            found.append({"logbook": name, "rules": rules,
                          "features": features(words(labelled.entry), rules),
                          "gold": set(entry_gold["faults"]) | set(entry_gold["interventions"])})
    return found


class Layer:
    """The per-code models fitted on `train`, and their chances on other rows."""

    def __init__(self, train: list[dict]) -> None:
        seen = Counter(name for row in train for name in set(row["features"]))
        self.names = sorted(name for name, n in seen.items() if n >= MIN_ENTRIES)
        self.index = {name: i for i, name in enumerate(self.names)}
        x = self.matrix(train)
        self.codes, weights, bias = [], [], []
        for code in sorted({c for row in train for c in row["gold"]}):
            y = np.array([code in row["gold"] for row in train])
            if y.sum() >= MIN_EXAMPLES:
                model = LogisticRegression(C=REGULARISATION, class_weight="balanced",
                                           max_iter=2000).fit(x, y)
                self.codes.append(code)
                weights.append(model.coef_[0])
                bias.append(model.intercept_[0])
        self.weights = np.array(weights, dtype=np.float32).T
        self.bias = np.array(bias, dtype=np.float32)

    def matrix(self, found: list[dict]) -> csr_matrix:
        cells = [(i, self.index[name]) for i, row in enumerate(found)
                 for name in set(row["features"]) if name in self.index]
        r, c = zip(*cells, strict=True) if cells else ((), ())
        return csr_matrix((np.ones(len(cells)), (r, c)), shape=(len(found), len(self.names)))

    def chances(self, found: list[dict]) -> np.ndarray:
        return 1 / (1 + np.exp(-(self.matrix(found) @ self.weights + self.bias)))

    def codes_with(self, found: list[dict], thresholds: dict[str, float]) -> list[set[str]]:
        """The rules' codes of each row, with the codes of each kind in `thresholds` the layer
        is sure of (their chance above the kind's threshold)."""
        out = [set(row["rules"]) for row in found]
        cutoffs = [thresholds.get(kind_of(code), 2.0) for code in self.codes]
        if thresholds:
            for codes, chances in zip(out, self.chances(found), strict=True):
                codes.update(c for c, p, cut in zip(self.codes, chances, cutoffs, strict=True)
                             if p > cut)
        return out

    def save(self, path: Path, thresholds: dict[str, float], trained_on: dict) -> None:
        """Only the codes of the kinds in `thresholds`, each with its kind's threshold."""
        kept = [i for i, code in enumerate(self.codes) if kind_of(code) in thresholds]
        weights = self.weights[:, kept]
        used = np.flatnonzero(np.abs(weights).max(axis=1) >= MIN_WEIGHT)
        np.savez_compressed(
            path, features=np.array(self.names)[used], codes=np.array(self.codes)[kept],
            weights=weights[used].astype(np.float16), bias=self.bias[kept],
            thresholds=np.array([thresholds[kind_of(self.codes[i])] for i in kept], np.float32),
            trained_on=json.dumps(trained_on, sort_keys=True))


def kind_of(code: str) -> str:
    return "faults" if "." in code else "interv"  # a fault's code is family.name


def counts(found: list[dict], codes: list[set[str]]) -> Counter:
    tally: Counter = Counter()
    for row, got in zip(found, codes, strict=True):
        for kind in DEV_TARGETS:
            gold = {c for c in row["gold"] if kind_of(c) == kind}
            mine = {c for c in got if kind_of(c) == kind}
            tally[kind, "tp"] += len(gold & mine)
            tally[kind, "fp"] += len(mine - gold)
            tally[kind, "fn"] += len(gold - mine)
    return tally


def f1(tally: Counter, kind: str) -> float:
    tp, fp, fn = tally[kind, "tp"], tally[kind, "fp"], tally[kind, "fn"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def line(name: str, tallies: list[Counter]) -> str:
    return f"{name:34}" + "".join(f"{f1(t, 'faults'):>9.3f}{f1(t, 'interv'):>9.3f}"
                                  for t in tallies)


def cross_validated(tune: list[dict]) -> dict[float | None, Counter]:
    """Each threshold's tallies pooled over the folds (None: the rules alone), printed."""
    books = sorted({row["logbook"] for row in tune})
    pooled = {t: Counter() for t in (None, *THRESHOLDS)}
    for fold in range(FOLDS):
        held = set(books[fold::FOLDS])
        layer = Layer([row for row in tune if row["logbook"] not in held])
        test = [row for row in tune if row["logbook"] in held]
        for threshold in pooled:
            every = {} if threshold is None else dict.fromkeys(DEV_TARGETS, threshold)
            pooled[threshold] += counts(test, layer.codes_with(test, every))
    print(f"{'':34}" + "".join(f"{'rules' if t is None else f'add > {t}':>18}" for t in pooled))
    print(line(f"{FOLDS}-fold CV, written tune ({len(books)})", list(pooled.values())))
    return pooled


def chosen(pooled: dict[float | None, Counter], layer: Layer, dev: list[dict]
           ) -> dict[str, float]:
    """Per kind, the highest threshold whose CV F1 is within TIE of the best, raised until the
    ten real logbooks keep the dev targets; a kind no threshold keeps them for is not added."""
    thresholds = {}
    for kind, target in DEV_TARGETS.items():
        best = max(f1(pooled[t], kind) for t in THRESHOLDS)
        start = max(t for t in THRESHOLDS if f1(pooled[t], kind) >= best - TIE)
        for threshold in (t for t in THRESHOLDS if t >= start):
            if f1(counts(dev, layer.codes_with(dev, {kind: threshold})), kind) >= target:
                thresholds[kind] = threshold
                break
    return thresholds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"save the layer to {LAYER_PATH}")
    args = parser.parse_args()
    rules_alone = Classifier(layer_path=None)
    written = rows(rules_alone, {path.stem: (path.with_suffix(".md"), path)
                                 for path in sorted(WRITTEN.glob("*.jsonl"))})
    tune = [row for row in written if row["logbook"] not in CHECK]
    pooled = cross_validated(tune)
    layer = Layer(tune)
    real = rows(rules_alone, {path.stem: (SHARED / "logbooks" / "md" / f"{path.stem}.md", path)
                              for path in sorted((SHARED / "gold").glob("*.jsonl"))})
    thresholds = chosen(pooled, layer, real)
    print(f"\ntrained on all {len(tune)} written tune entries ({len(layer.names)} features, "
          f"{len(layer.codes)} codes); added, with their thresholds: {thresholds or 'none'}")
    print(f"{'':34}{'rules':>18}{'rules + layer':>18}")
    for name, test in (("written check", [r for r in written if r["logbook"] in CHECK]),
                       ("real, all ten", real),
                       ("real check logbooks (whole)", [r for r in real if r["logbook"] in CHECK]),
                       ("real tune logbooks", [r for r in real if r["logbook"] not in CHECK])):
        print(line(name, [counts(test, layer.codes_with(test, t)) for t in ({}, thresholds)]))
    if args.write:
        layer.save(LAYER_PATH, thresholds, {
            "logbooks": len({row["logbook"] for row in tune}), "entries": len(tune),
            "regularisation": REGULARISATION, "min_entries": MIN_ENTRIES})
        print(f"written {LAYER_PATH} ({LAYER_PATH.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
