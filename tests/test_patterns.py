"""Pattern helpers: regex expansion, text clues, the token matcher against spaCy's Matcher,
the anchored ruler against span_ruler."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import spacy
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

from logbook_miner.label import context
from logbook_miner.label.classifier import Classifier, normalise
from logbook_miner.label.context import CONTEXT_PATH
from logbook_miner.label.ruler import clue, expand, optimise
from logbook_miner.label.taxonomy import TAXONOMY_PATH
from logbook_miner.label.token_matcher import (
    TokenMatcher,
    Unsupported,
    _affixes,
    _Doc,
    _Screen,
)

SAMPLES = [
    "Excluded gpu-st-p4d-35 from the hostfile and requeued; NCCL timeout on rank 12 before that.",
    "scontrol update nodename=node17 state=drain reason=xid\nRuntimeError: CUDA error: unknown",
    "We rolled back to 31.2k, lowered the LR to 6e-5 and skipped the bad batches.",
    "# comment line in a script\nsbatch --exclude=node[12-14] train.slurm",
    "No ECC errors since the swap; maybe the 104B run had a loss spike? not ours.",
    "cudaErrorECCUncorrectable on a100-0001, the same bad machine again.",
]


@pytest.mark.parametrize(
    ("regex", "words"),
    [("^restart(ed|ing)?$", {"restart", "restarted", "restarting"}),
     ("^gpus?$", {"gpu", "gpus"}), ("^re-?queue$", {"requeue", "re-queue"}),
     ("^gpu\\w+$", None), ("restart", None)],
)
def test_expand_lists_only_small_anchored_sets(regex: str, words: set[str] | None) -> None:
    assert expand(regex) == words


@pytest.mark.parametrize(
    ("regex", "strings"),
    [(r"\blm\s+loss:\s*(?P<v>\d+)", {"loss:"}), (r"^cudaError\w+", {"cudaerror"}),
     (r"(?:A100|V100)s?", {"a100", "v100"}), (r"\d+\s*\w+", None)],
)
def test_clue_is_text_every_match_contains(regex: str, strings: set[str] | None) -> None:
    found = clue(regex)
    assert (set(found) if found else None) == strings


def test_clue_never_rejects_a_match() -> None:
    regex = r"\b(?:restart(?:ed)?|roll(?:ed)?\s*back)\s+(?:from|to)\s+\d+"
    for text in ("Restarted from 300", "ROLLED BACK to 12", "rollback to 5"):
        if re.search(regex, text, re.IGNORECASE):
            assert any(c in text.casefold() for c in clue(regex))


# Token patterns over a small vocabulary, with every operator and predicate kind we compile.
WORDS = ["gpu", "GPU", "node", "3", "12", "the", "died", ",", "-", "Killed", "was", "x1"]
SPECS = st.sampled_from([
    {}, {"LOWER": "gpu"}, {"ORTH": "GPU"}, {"TEXT": ","}, {"LOWER": {"IN": ["node", "gpu"]}},
    {"LOWER": {"NOT_IN": ["the", ","]}}, {"LOWER": {"REGEX": "^[a-z]+\\d$"}},
    {"TEXT": {"REGEX": "^[A-Z]"}}, {"LIKE_NUM": True}, {"IS_PUNCT": False},
    {"ORTH": "Killed", "IS_SENT_START": True}, {"IS_SENT_START": False, "LOWER": "was"},
    {"LOWER": {"IN": ["died", "was"]}, "LIKE_NUM": False},
    {"ORTH": {"REGEX": "(?i)^gpu$"}}, {"LOWER": {"REGEX": "^[a-z]+\\d$"}, "IS_SENT_START": False},
    {"LOWER": {"REGEX": "^[a-z]+$", "NOT_IN": ["the", "was"]}},
    {"NORM": {"NOT_IN": ["node"]}},  # an attribute no word list indexes, read on its own
    {"SHAPE": {"IN": ["xxx", "dd"]}}, {"SHAPE": {"REGEX": "^X"}},  # learned per ORTH word
    {"ORTH": "-", "SPACY": False}, {"SPACY": True, "LOWER": "gpu"},  # whitespace after it
])
OPS = st.sampled_from([None, None, None, "?", "*", "+", "!", "{2}", "{0,2}", "{1,3}", "{2,}",
                       "{,2}"])


@st.composite
def token_patterns(draw) -> list[dict]:
    pattern = []
    for _ in range(draw(st.integers(1, 4))):
        spec, op = dict(draw(SPECS)), draw(OPS)
        pattern.append({**spec, "OP": op} if op else spec)
    return pattern


@settings(max_examples=400, deadline=None)
@given(st.lists(token_patterns(), min_size=1, max_size=3),
       st.lists(st.tuples(st.sampled_from(WORDS), st.booleans(), st.booleans()), max_size=14))
def test_token_matcher_finds_what_spacys_matcher_finds(patterns, tokens) -> None:
    """Every (key, start, end) spaCy returns, no more: all operators, predicates and anchors."""
    vocab = spacy.blank("en").vocab
    words = [w for w, _, _ in tokens]
    doc = Doc(vocab, words=words, spaces=[space for _, _, space in tokens],
              sent_starts=[i == 0 or s for i, (_, s, _) in enumerate(tokens)])
    spacy_matcher, ours = Matcher(vocab), TokenMatcher(vocab.strings)
    for i, pattern in enumerate(patterns):
        spacy_matcher.add(str(i), [pattern])
        ours.add(vocab.strings[str(i)], pattern)
    assert ours(doc) == {m for m in spacy_matcher(doc) if m[1] < m[2]}


def test_a_lexeme_check_added_later_finds_the_words_seen_before() -> None:
    """A LOWER or SHAPE check is of the ORTH words whose lexeme passes, noted as each word is
    first seen: a pattern added after a doc was read finds that doc's words all the same."""
    vocab = spacy.blank("en").vocab
    doc = Doc(vocab, words=["The", "GPU", "died"])
    matcher = TokenMatcher(vocab.strings)
    matcher.add(1, [{"LOWER": "died"}])
    assert matcher(doc) == {(1, 2, 3)}
    matcher.add(2, [{"LOWER": {"NOT_IN": ["the"]}}, {"LOWER": "died"}])
    matcher.add(3, [{"SHAPE": "XXX"}])
    assert matcher(doc) == {(1, 2, 3), (2, 1, 3), (3, 1, 2)}


def test_a_new_word_skips_only_regexes_it_cannot_pass() -> None:
    """A new word is searched only for the regexes anchored at its ends whose first (last)
    characters its own allow, and never skips one that finds it: every data regex on the
    words of ten written logbooks, words that match an ASCII letter only by Unicode's case
    rules, and a word that ends in a line end (which "$" matches before)."""
    matcher = Classifier().nlp.get_pipe("rulers").tokens
    regexes = [(index, 0) for indexes in matcher._regexes.values() for index in indexes]
    screen = _Screen(regexes)
    written = sorted((Path(__file__).parents[1] / "benchmarks" / "written_logbooks").glob("*.md"))
    words = {w for path in written[:10] for w in path.read_text(encoding="utf-8").split()}
    words |= {w.lower() for w in words} | {"\u212aill", "\u017fkip", "ma\u212a", "--lr", "β2",
                                            "", "gpu\n"}
    for word in words:
        searched = {index for index, _ in screen.candidates(word)}
        for index, _ in regexes:
            if index not in searched:
                assert not index.pattern.search(word), (index.pattern.pattern, word)
    assert sum(index.heads is not None for index, _ in regexes) > len(regexes) / 2
    assert sum(index.tails is not None for index, _ in regexes) > len(regexes) / 2
    assert _affixes(re.compile(r"(?i)^(oom|nccl)")) == ({"oom", "ncc"}, None)
    assert _affixes(re.compile(r"^(gpu|card)s?$")) == ({"gpu", "car"}, {"upg", "dra", "sup", "sdr"})
    assert _affixes(re.compile(r"^(?!\d{3}$)")) == (None, None)  # matches an empty start
    assert _affixes(re.compile("ECC")) == (None, None)  # not anchored
    assert _affixes(re.compile("(?m:^a$)")) == (None, None)  # anchored at line ends
    assert _affixes(re.compile("^k", re.IGNORECASE)) == ({"k"}, None)
    assert re.search("^k", "\u212aill", re.IGNORECASE)


def test_few_word_docs_find_the_patterns_numpy_finds() -> None:
    """The viable patterns of a doc of few words, found in Python, are those numpy's row
    test finds (the matcher takes either path by the doc's size), on the lines of two
    written logbooks."""
    nlp = Classifier().nlp
    matcher = nlp.get_pipe("rulers").tokens
    written = sorted((Path(__file__).parents[1] / "benchmarks" / "written_logbooks").glob("*.md"))
    lines = [line for path in written[:2] for line in path.read_text(encoding="utf-8").split("\n")]
    viable = 0
    for line in filter(None, lines):
        state = _Doc(nlp.make_doc(line))
        present = matcher._present(state)
        found = matcher._viable(present)
        assert matcher._viable_few(state, present) == found, line
        viable += len(found)
    assert viable > len(lines)


def test_token_matcher_refuses_what_it_does_not_implement() -> None:
    """The ruler hands these to spaCy's Matcher."""
    matcher = TokenMatcher(spacy.blank("en").vocab.strings)
    for pattern in ([{"LENGTH": {">=": 3}}], [{"LOWER": {"FUZZY": "gpu"}}], [{"_": {"x": 1}}],
                    [{"LEMMA": "die"}], [{"OP": "{3,1}"}]):
        with pytest.raises(Unsupported):
            matcher.add(1, pattern)


def _patterns() -> list[dict]:
    out = []
    for code, spec in yaml.safe_load(TAXONOMY_PATH.read_text(encoding="utf-8"))["codes"].items():
        for i, group in enumerate(spec.get("patterns", [])):
            for pattern in group.get("phrases", []) + group.get("tokens", []):
                out.append({"label": code, "pattern": optimise(pattern), "id": f"{code}#{i}"})
    return out + context.load_rules(CONTEXT_PATH)[1]


def _stops() -> list[dict]:
    return context.load_rules(CONTEXT_PATH)[2]


def _nlp(factory: str, config: dict) -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentences")
    nlp.add_pipe(factory, config=config).add_patterns(_patterns())
    return nlp


def test_anchored_ruler_finds_what_span_ruler_finds() -> None:
    """Same spans, same order, for every pattern of the data files; the terminators, kept
    bare, are the (start, end, label) of span_ruler's spans, sorted."""
    texts = [normalise(t)[0] for t in SAMPLES]
    shared = Path(__file__).resolve().parents[2] / "shared" / "logbooks" / "md"
    texts += [normalise(p.read_text(encoding="utf-8"))[0] for p in sorted(shared.glob("*.md"))]
    plain = _nlp("span_ruler", {"spans_key": "x", "phrase_matcher_attr": "LOWER", "validate": True})
    plain.get_pipe("span_ruler").add_patterns(_stops())
    fast = _nlp("anchored_span_ruler", {"spans_key": "x"})
    fast.get_pipe("anchored_span_ruler").add_patterns(_stops(), spans_key="y", bare=True)
    stops = {stop["label"] for stop in _stops()}
    for a, b in zip(plain.pipe(texts), fast.pipe(texts), strict=True):
        assert [(s.start, s.end, s.label_, s.id_) for s in a.spans["x"]
                if s.label_ not in stops] == [
            (s.start, s.end, s.label_, s.id_) for s in b.spans["x"]]
        assert sorted((s.start, s.end, s.label_) for s in a.spans["x"] if s.label_ in stops) == \
            b._.bare_matches["y"]


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice in one mapping (PyYAML keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        keys = [key.value for key, _ in node.value if key.tag != "tag:yaml.org,2002:merge"]
        twice = {key for key in keys if keys.count(key) > 1}
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"key given twice: {sorted(twice)}", node.start_mark)
        return super().construct_mapping(node, deep=deep)


def _words(spec: object) -> list[str]:
    """The words the token specs in `spec` name by ORTH, TEXT, LOWER or NORM (IN, NOT_IN or
    equal to), wherever they are in a data file."""
    if isinstance(spec, list):
        return [w for item in spec for w in _words(item)]
    if not isinstance(spec, dict):
        return []
    out = []
    for attr, value in spec.items():
        if attr in ("ORTH", "TEXT", "LOWER", "NORM"):
            values = [value] if isinstance(value, str) else [
                w for kind in ("IN", "NOT_IN") for w in value.get(kind, [])]
            out += [w for w in values if isinstance(w, str)]
        else:
            out += _words(value)
    return out


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    """The classifier's own tokenizer (hyphenated words and arrows kept whole)."""
    return Classifier().nlp.tokenizer


@pytest.mark.parametrize("path", [TAXONOMY_PATH, CONTEXT_PATH])
def test_no_pattern_names_a_word_the_tokenizer_splits(path: Path, tokenizer: Tokenizer) -> None:
    """A pattern token is one token of the text: "can't" is read as "ca" + "n't", "cannot"
    as "can" + "not", "%N" as "%" + "N", so a list naming them never matches them."""
    split = set()
    for word in _words(yaml.safe_load(path.read_text(encoding="utf-8"))):
        # a clitic ("n't", "'s") is a token after the word it leans on
        texts = [f"{host}{word}" for host in ("is", "we", "it")] if word.startswith(
            ("'", "’", "n't")) else [f"a {word} b"]
        if not any(word in [t.text for t in tokenizer(text)] for text in texts):
            split.add(word)
    assert not sorted(split)


def test_every_data_pattern_is_matched_without_spacys_matcher() -> None:
    """spaCy's Matcher walks every token of every doc in Python for each pattern left to
    it (one such pattern cost 1-3% of the classifier's time)."""
    ruler = _nlp("anchored_span_ruler", {"spans_key": "x"}).get_pipe("anchored_span_ruler")
    assert len(ruler.others) == 0


@pytest.mark.parametrize("path", [TAXONOMY_PATH, CONTEXT_PATH])
def test_no_rule_group_says_a_key_twice(path: Path) -> None:
    yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)


def test_a_terminator_carried_by_an_unknown_category_is_refused(tmp_path: Path) -> None:
    """A misspelt category would silently make the terminator end every scope."""
    data = yaml.safe_load(CONTEXT_PATH.read_text(encoding="utf-8"))
    data["terminators"].append({"pattern": [{"LOWER": "whilst"}], "carried_by": ["OTHER_PROJCT"]})
    path = tmp_path / "context.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"context\.yaml: .*\['OTHER_PROJCT'\]"):
        context.load_rules(path)
