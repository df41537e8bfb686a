"""Would a learned layer earn its place? `python benchmarks/learned_layer.py`.

Issue 11 invites a learned layer over rule features and words, reported
leave-one-logbook-out (LOLO). This benchmark trains one logistic regression per
code (word unigrams and bigrams, and every rule cue with its ConText decision:
`cue:restart:kept`, `cue:lr_change:HYPOTHETICAL`) and scores logbooks it did not
see five ways: the rules alone; the rules plus codes the model is sure of
(`add`); the rules minus codes the model is sure are wrong (`veto`); the model
alone. Markdown renderings, micro F1 as ../shared/eval/score.py counts it.

1. LOLO on the ten real gold logbooks: each is scored by a model trained on
   the other nine.
2. With far more text: a model trained on the written tune logbooks
   (benchmarks/written_logbooks/) scores the written check logbooks and the ten
   real ones, none of which it saw. Written logbooks are many, but written alike:
   the second row says whether what the model learns carries to real teams' prose.

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

from labels import CHECK, SHARED, WRITTEN  # noqa: E402

from logbook_miner.label.classifier import Classifier  # noqa: E402
from logbook_miner.read import read  # noqa: E402
from logbook_miner.segment.entries import segment  # noqa: E402

WAYS = {"rules": None, "add 0.5": ("add", 0.5), "add 0.7": ("add", 0.7),
        "veto 0.9": ("veto", 0.9), "model 0.5": ("model", 0.5)}
MIN_EXAMPLES = 3  # a code with fewer gold entries in the training logbooks gets no model


def entries(classifier: Classifier, logbooks: dict[str, tuple[Path, Path]]) -> list[dict]:
    """Every gold entry of each logbook (name: (Markdown, gold)): its text, its rule cues with
    their context, the rules' codes and the gold codes."""
    rows = []
    for name, (markdown, gold_path) in logbooks.items():
        gold = {g["heading"].strip(): g for g in map(json.loads, gold_path.open(encoding="utf-8"))}
        for labelled in classifier.classify(segment(read(markdown))):
            found = gold.get(labelled.entry.heading.strip())
            if found is None:
                continue
            text = f"{labelled.entry.heading}\n{labelled.entry.text}"
            doc = classifier.nlp(text)
            cues = [f"cue:{s.label_}:{s._.context.rule.category if s._.context else 'kept'}"
                    for s in doc.spans["taxonomy"]]
            rows.append({"logbook": name, "text": text.lower(),
                         "cues": " ".join(cues) or "none",
                         "rules": {label.code for label in labelled.labels},
                         "gold": set(found["faults"]) | set(found["interventions"])})
    return rows


def probabilities(train: list[dict], test: list[dict]) -> dict[str, np.ndarray]:
    """Per code with enough training examples, the model's p(code) for each test entry."""
    words = CountVectorizer(ngram_range=(1, 2), min_df=2, binary=True,
                            token_pattern=r"[a-z][a-z0-9_\-]+")
    cues = CountVectorizer(binary=True, token_pattern=r"\S+", lowercase=False)
    x_train = hstack([words.fit_transform([r["text"] for r in train]),
                      cues.fit_transform([r["cues"] for r in train])]).tocsr()
    x_test = hstack([words.transform([r["text"] for r in test]),
                     cues.transform([r["cues"] for r in test])]).tocsr()
    found = {}
    for code in sorted({c for r in train for c in r["gold"]}):
        y = np.array([code in r["gold"] for r in train])
        if y.sum() >= MIN_EXAMPLES:
            model = LogisticRegression(C=0.5, class_weight="balanced", max_iter=2000)
            found[code] = model.fit(x_train, y).predict_proba(x_test)[:, 1]
    return found


def predicted(test: list[dict], p: dict[str, np.ndarray], way: tuple[str, float] | None
              ) -> list[set[str]]:
    """The codes of each test entry, the rules' combined with the model's one way."""
    mode, sure = way or ("rules", 1.0)
    out = [set() if mode == "model" else set(r["rules"]) for r in test]
    for code, chances in ({} if way is None else p).items():
        for codes, chance in zip(out, chances, strict=True):
            if mode in ("add", "model") and chance > sure:
                codes.add(code)
            elif mode == "veto" and chance < 1 - sure:
                codes.discard(code)
    return out


def counts(test: list[dict], codes: list[set[str]]) -> Counter:
    found: Counter = Counter()
    for row, got in zip(test, codes, strict=True):
        for kind, faults in (("faults", True), ("interv", False)):
            gold = {c for c in row["gold"] if ("." in c) == faults}  # faults: family.name
            mine = {c for c in got if ("." in c) == faults}
            found[kind, "tp"] += len(gold & mine)
            found[kind, "fp"] += len(mine - gold)
            found[kind, "fn"] += len(gold - mine)
    return found


def f1(found: Counter, kind: str) -> float:
    tp, fp, fn = found[kind, "tp"], found[kind, "fp"], found[kind, "fn"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def line(name: str, found: list[Counter]) -> str:
    return f"{name:34}" + "".join(f"{f1(c, 'faults'):>10.3f}{f1(c, 'interv'):>10.3f}"
                                  for c in found)


def header(title: str) -> str:
    return f"{title:34}" + "".join(f"{way:>20}" for way in WAYS)


def leave_one_out(rows: list[dict]) -> None:
    print(header("leave-one-logbook-out (faults, interventions)"))
    pooled = {way: Counter() for way in WAYS}
    for name in sorted({r["logbook"] for r in rows}):
        test = [r for r in rows if r["logbook"] == name]
        p = probabilities([r for r in rows if r["logbook"] != name], test)
        found = [counts(test, predicted(test, p, way)) for way in WAYS.values()]
        for way, c in zip(WAYS, found, strict=True):
            pooled[way] += c
        print(line(name, found))
    print(line("(pooled, micro)", list(pooled.values())))


def trained_on_written(real: list[dict], written: list[dict]) -> None:
    train = [r for r in written if r["logbook"] not in CHECK]
    check = [r for r in written if r["logbook"] in CHECK]
    p = probabilities(train, check + real)
    print()
    print(header(f"trained on {len({r['logbook'] for r in train})} written tune logbooks"))
    tested, first_real = check + real, len(check)
    real_check = {r["logbook"] for r in real if r["logbook"] in CHECK}
    on_real = range(first_real, len(tested))
    parts = {f"written check ({len({r['logbook'] for r in check})} logbooks)": range(first_real),
             "the ten real logbooks": on_real,
             f"  real check ({len(real_check)}, whole)":
                 [i for i in on_real if tested[i]["logbook"] in real_check],
             f"  real tune ({10 - len(real_check)})":
                 [i for i in on_real if tested[i]["logbook"] not in real_check]}
    for name, part in parts.items():
        test = [tested[i] for i in part]
        chances = {code: values[list(part)] for code, values in p.items()}
        print(line(name, [counts(test, predicted(test, chances, way)) for way in WAYS.values()]))


def main() -> None:
    classifier = Classifier()
    real = entries(classifier, {path.stem: (SHARED / "logbooks" / "md" / f"{path.stem}.md", path)
                                for path in sorted((SHARED / "gold").glob("*.jsonl"))})
    leave_one_out(real)
    written = entries(classifier, {path.stem: (path.with_suffix(".md"), path)
                                   for path in sorted(WRITTEN.glob("*.jsonl"))})
    trained_on_written(real, written)


if __name__ == "__main__":
    main()
