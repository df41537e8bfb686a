"""Numbers mined from entries: names, values, units and offsets."""

from __future__ import annotations

import random
import re

import pytest

from logbook_miner.label import leads
from logbook_miner.label.leads import lead
from logbook_miner.label.numbers import mine
from logbook_miner.label.ruler import starts
from logbook_miner.models import Entry

LOG_LINE = (
    "[default7]: iteration    31214/  115311 | consumed samples:     47768496 | "
    "elapsed time per iteration (s): 106.46 | learning rate: 5.279E-05 | "
    "global batch size:  2048 | "
    "lm loss: 2.198845E+00 | grad norm: 0.242 | samples per second: 19.238 | TFLOPs: 147.29 |"
)
DROPPED = "dropped the learning rate to `5.842E-05` from `5.999E-05`"


def values(text: str, heading: str = "x") -> dict[str, float]:
    entry = Entry(seq=1, heading=heading, text=text)
    found = mine(entry)
    for m in found:
        assert getattr(entry, m.field)[m.start : m.end] == m.evidence
    return {m.name: m.value for m in found}


def test_a_megatron_log_line() -> None:
    got = values(LOG_LINE)
    assert got["iteration"] == 31214
    assert got["lm_loss"] == pytest.approx(2.198845)
    assert got["grad_norm"] == pytest.approx(0.242)
    assert got["learning_rate"] == pytest.approx(5.279e-5)
    assert got["samples_per_second"] == pytest.approx(19.238)
    assert got["tflops"] == pytest.approx(147.29)


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("last checkpoint before restart: global_step17235", "iteration", 17235),
        ("we will restart from 37k once the fix is in", "iteration", 37000),
        ("rolled back to 31200 and skipped data", "iteration", 31200),
        ("training on 1024 80GB A100s", "gpus", 1024),
        ("we switched the training to 48 nodes", "nodes", 48),
        ("A checkpoint is saved in 40 secs", "checkpoint_save_seconds", 40),
        ("saved in 2 minutes", "checkpoint_save_seconds", 120),
        ("we lost 7.3h of work", "lost_hours", 7.3),
        ("we lost about 2 days", "lost_hours", 48),
        ("we lowered our learning rate by 10%", "lr_change", -10),
        ("lowering clipping first to 1.5", "grad_clip_after", 1.5),
        ("clipping 2.5 to 1.0", "grad_clip_before", 2.5),
        ("clipping 2.5 to 1.0", "grad_clip_after", 1.0),
        (DROPPED, "learning_rate_before", 5.999e-5),
        (DROPPED, "learning_rate_after", 5.842e-5),
        ("perl -pi -e 's|--lr 6e-5|--lr 1e-4|' *slurm", "learning_rate_after", 1e-4),
        ("throughput (wps) increased by 2% to 150k wps", "words_per_second", 150000),
        ("the throughput dropped by 5% in the middle of the run", "throughput_change", 5),
    ],
)
def test_one_number(text: str, name: str, value: float) -> None:
    assert values(text)[name] == pytest.approx(value)


def test_headings_are_mined_too() -> None:
    found = mine(Entry(seq=1, heading="2022-07-04 switched from 48 to 24 nodes", text=""))
    got = {m.name: m for m in found}
    assert got["nodes_after"].value == 24 and got["nodes_after"].field == "heading"


def test_metric_names_are_stable_snake_case() -> None:
    for m in mine(Entry(seq=1, heading="x", text=LOG_LINE + " we lost 3 hours on 64 nodes")):
        assert m.name == m.name.lower() and " " not in m.name


def test_the_substring_prefilter_skips_only_regexes_that_cannot_match() -> None:
    from logbook_miner.label.numbers import _patterns

    texts = [LOG_LINE, DROPPED, "Restarted FROM 37K", "we LOST 3 Hours on 64 NODES", "ok"]
    for text in texts:
        for p in _patterns():
            if p.regex.search(text):
                assert p.clue is None or any(c in text.casefold() for c in p.clue), p.regex


def test_a_regex_is_tried_only_where_a_match_can_start(shared) -> None:
    """In ASCII text, numbers._finditer finds what finditer finds: on texts of the lines of
    ../shared in which some metric regex matches, mixed, run together and in any case."""
    from logbook_miner.label.numbers import _finditer, _patterns

    lines = [line for path in sorted((shared / "logbooks" / "md").glob("*.md"))
             for line in path.read_text(encoding="utf-8").splitlines()
             if line.isascii() and any(p.regex.search(line) for p in _patterns())]
    rng = random.Random(0)
    found = 0
    for _ in range(400):
        text = rng.choice(["", " ", "\n"]).join(rng.sample(lines, 3))
        text = "".join(c.swapcase() if rng.random() < 0.2 else c for c in text)
        for p in _patterns():
            expected = [m.span() for m in p.regex.finditer(text)]
            for lower in (text.lower(), None):  # None: as non-ASCII text, read from its leads
                assert [m.span() for m in _finditer(p, text, lower)] == expected, p.regex
            found += len(expected)
    assert len(lines) > 100 and found > 1000


def test_a_lead_finds_where_a_regex_matches() -> None:
    """A regex's lead opens with the characters its matches open with (not a letter, which
    re does not scan for in case-folded text), and finds each of its matches."""
    assert all(lead(re.compile(r)) is None
               for r in [r"\b(?:was)?\s*down", r"\d*x", r"[0-9]+", r"\b(?P<n>\d+)?\s"])
    number = re.compile(r"(?<![\w-])(?:~\s*)?(?P<n>\d+)(?:-\d+)?\s*(?:gpus|nodes)\b", re.I)
    zero = re.compile(r"(?:[:=|][ *]*| (?<=\S )[ ]+)(?P<n>0|none)\b|\[ok\]|[✅✓]", re.I)
    text = ("~ 64 GPUs, 8-16 nodes; node-3 nodes, ~~12gpus 7 nodesx 1,2 Nodes ٣ gpus\n"
            "oom: 0 | xid:none  ok  0 [OK] ✅ c=*0 d:01 e 0\n|0|")
    for regex, count in ((number, 5), (zero, 7)):
        expected = [(m.span(), m["n"]) for m in regex.finditer(text)]
        assert [m.start() for m in lead(regex).finditer(text)] == [
            at for at in range(len(text)) if regex.match(text, at)]
        assert [(m.span(), m["n"]) for m in leads.finditer(regex, lead(regex), text)] == expected
        assert len(expected) == count, expected


def test_a_regex_of_an_opening_is_tried_only_near_its_core() -> None:
    """leads.finditer_opened finds what finditer finds, for a regex that opens with optional
    words and whitespace: matches that open with the words, the whitespace or the core."""
    regex = r"\b(?:was|stayed)?\s*(?:down|dead)\s+for\s+(?P<n>\d+)\s*h\b"
    core, reach = leads.opening(regex)
    assert reach == len("stayed") and leads.opening(r"\b(?:was)?\s*\d+") is None
    assert leads.opening(r"\s*(?:was)?down") is None  # whitespace not right before the core
    pattern = re.compile(regex, re.IGNORECASE)
    rng = random.Random(0)
    parts = ["was", "Stayed", "down", "DEAD", " for 2h", "\tfor 7 h", " ", "  ", "\t\n", ".",
             "x", "wasdown", "down for 3h", "dead for 1 h"]
    found = 0
    for _ in range(3000):
        text = "".join(rng.choice(parts) for _ in range(rng.randrange(1, 12)))
        expected = [(m.span(), m["n"]) for m in pattern.finditer(text)]
        assert [(m.span(), m["n"]) for m in leads.finditer_opened(
            pattern, core, reach, text, text.lower())] == expected, text
        found += len(expected)
    assert found > 100


def test_literal_starts_of_a_regex() -> None:
    assert starts(r"\b(?:restart(?:ed)?|resum(?:e|ed))\s+") == {"restart", "resume", "resumed"}
    assert starts(r"(?<![\w-])--LR\s+\d") == {"--lr"}  # after zero-width assertions, lower case
    assert starts(r"\bab+c") == {"ab"}  # a repeat ends the start
    assert starts(r"\b(?:was|is)?\s*down") is None  # may start with a space
    assert starts(r"x\d") is None and starts(r"(?-i:ab)c") is None and starts("éa") is None


# Numbers that mean something else, in the real sentences of ../shared (issue 12).
NOT_COUNTS = {
    "opt-175b-56_percent_update": ("extra 18 hosts", "nodes"),  # a spare pool
    "bloom-tr11-176b": ("by a 5 TFLOPs", "tflops"),  # a change, not a level
    "opt-175b-final_update": ("10,000 V100s", "gpus"),  # another model's cluster
}


@pytest.mark.parametrize("logbook", sorted(NOT_COUNTS))
def test_real_sentences_do_not_give_this_runs_numbers(shared, logbook):
    phrase, name = NOT_COUNTS[logbook]
    text = (shared / "logbooks" / "md" / f"{logbook}.md").read_text(encoding="utf-8")
    assert phrase in text, f"{logbook} no longer says {phrase!r}"
    at = text.index(phrase)
    sentence = text[text.rfind("\n", 0, at) + 1:text.find("\n", at)]
    found = [m for m in mine(Entry(seq=1, heading="x", text=sentence)) if m.name == name]
    assert not [m for m in found if m.start <= sentence.index(phrase) < m.end], found


@pytest.mark.parametrize(("text", "name", "value"), [
    ("pid=61220, GPU has fallen off the bus", "gpus", None),  # an id is no count
    ("node17: 8 GPUs per node, rank 3", "gpus", None),
    ("port 6000 on 12 hosts", "nodes", 12),
    ("We train on 384 A100s 80GB.", "gpus", 384),
    ("we had 1,024 GPUs", "gpus", 1024),
])
def test_counts_are_counts(text, name, value):
    assert values(text).get(name) == value
