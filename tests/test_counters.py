"""Counters that read zero (label/counters.py): the names they mark, and the labels they drop."""

from __future__ import annotations

import pytest

from logbook_miner.label.classifier import Classifier
from logbook_miner.label.counters import zero_spans
from logbook_miner.label.wrapping import normalise
from logbook_miner.models import Entry

FIELDS = """\
- Steps: 1,590 → 4,250
- NaN/Inf steps: 0
- Loss spikes > 4σ: 0
- Job restarts: 2
- Checkpoint saves ok/failed: 5/0
- ECC corr/uncorr: 0/0
- **OOM kills:** 0
- Data-loader stalls: 0 (last: 2024-09-01)
"""

TABLE = """\
| steps | NaN/Inf | restarts | ckpt ok/fail | Xid | ECC c/u |
|---|---|---|---|---|---|
| 12,070 → 14,740 | 0 | 1 | 5/0 | 0 | n/a |
"""

ROWS = """\
| metric | this week | last week |
|---|---|---|
| restarts | 0 | 0 |
| failed checkpoint saves | 0 | 2 |
| Incidents: scheduler / preemption | 0 | – |
"""

ALIGNED = """\
```
restarts  requeues  preempt  ckpt_ok/fail  xid  oom
1         0         0        5/0           2    0
```
"""


def named(text: str) -> list[str]:
    return [text[a:b] for a, b in zero_spans(text)]


def test_a_field_at_zero_names_what_did_not_happen() -> None:
    assert named(FIELDS) == ["NaN/Inf steps", "Loss spikes > 4σ", "failed", "corr", "uncorr",
                             "OOM kills", "Data-loader stalls"]


def test_a_table_column_of_zeros_and_a_row_of_zeros() -> None:
    assert named(TABLE) == ["NaN/Inf", "fail", "Xid", "ECC c/u"]
    assert named(ROWS) == ["restarts", "Incidents: scheduler / preemption"]


def test_an_aligned_table_in_a_code_block() -> None:
    assert named(ALIGNED) == ["requeues", "preempt", "fail", "oom"]


def test_a_zero_said_before_what_it_counts() -> None:
    assert named("job RUNNING, 0 requeues, 0 NaNs") == ["requeues", "NaNs"]
    assert named("- 0 resubmits since Wed\nwe saw zero spikes") == ["resubmits", "spikes"]
    assert named("quiet night\n- 0 requeues\n  0 NaNs") == ["requeues", "NaNs"]
    # what it counts in a few words, up to the first counted noun; a sentence opens a count
    assert named("MFU 37.6%. 0 node failures, 0 GPU errors since Tue") == [
        "node failures", "GPU errors"]
    assert named("we saw 0 loss spikes but the node failed") == ["loss spikes"]
    # ... and no further: what comes after the counted noun is the line's own news
    assert named("Night shift: 0 OOMs ECC errors on node 7") == ["OOMs"]
    assert named("we saw zero NaNs and zero spikes") == ["NaNs", "spikes"]


def test_a_field_that_says_none_names_what_was_not_done() -> None:
    """A report's field whatever it names ("Workaround:"), when its value is none."""
    assert named("**Workaround:** None yet. CHG0048120 submitted.") == ["Workaround"]
    assert named("**Workaround / fix:** nothing to fix in our code.") == ["Workaround / fix"]
    assert named("- Mitigation: n/a\n- Fix: pinned torch==2.3.1") == ["Mitigation"]


@pytest.mark.parametrize("text", [
    "NCCL error on rank: 0",  # a rank, not a count
    "rank 0 crashes with OOM",  # an id before its event
    "GPU 0 fell off the bus",
    "After 100 iterations on lr=0 after reset, resume started",  # prose, not a field
    "Restarts: 0 -> 3 after the driver update",  # a value still going
    "Restarts: 0-2 a day",
    "Restarts: 3",
    "-  tie_word_embeddings: true\n+  tie_word_embeddings: false",  # a diff's added line
])
def test_not_a_zero_counter(text: str) -> None:
    assert named(text) == []


def test_a_list_written_with_plus_bullets_still_counts() -> None:
    """Markdown's "+" bullet is no diff's added line: only one after a removed line is."""
    assert named("+ NaN/Inf steps: 0\n+ preemptions: 0") == ["NaN/Inf steps", "preemptions"]


def test_the_labels_a_zero_counter_drops() -> None:
    classifier = Classifier()
    entries = [Entry(seq=1, heading="2024-09-04 daily digest", text=text)
               for text in (FIELDS, TABLE, ALIGNED)]
    found = [{label.code for label in le.labels} for le in classifier.classify(entries)]
    assert found[0] == {"restart"}  # "Job restarts: 2"; no NaN, spike, save failure, ECC, OOM
    assert found[1] == {"restart"}  # restarts 1; no NaN, failed save, Xid
    assert "hardware.gpu" in found[2] and "software.crash" not in found[2]  # xid 2, oom 0


def test_a_setting_a_diff_turns_off_is_changed() -> None:
    """"+ key: false" in a config's diff is the new value, not a counter at zero."""
    diff = "model.yaml:\n-  tie_word_embeddings: true\n+  tie_word_embeddings: false"
    [labelled] = Classifier().classify([Entry(seq=1, heading="2024-09-04", text=diff)])
    assert [label.code for label in labelled.labels] == ["architecture_change"]


def test_a_row_of_aligned_columns_is_not_joined_to_the_next() -> None:
    """A line wrapped at a PDF's margin is joined to the next; a row of aligned columns is
    not, or its last name would read the next row's first value ("gnorm_max 6,920 → 9,410")."""
    flat, _ = normalise("steps          loss  spikes  gnorm_max\n"
                        "6,920 → 9,410  2.58  0       1.97\n")
    assert flat == "steps loss spikes gnorm_max\n6,920 → 9,410 2.58 0 1.97\n"


MACHINE = """\
```
NaN/Inf steps .................. 0
ECC uncorrectable .............. 0
checkpoint saves ............... 19/19 ok
```
nan_steps 0
xid 2
`nan=0 ovf=0 ckpt_fail=0 xid=1 restarts=1`
{"oom_kills": 0, "ecc_uncorrectable": 0, "xid": [], "nccl_errors": 3}
Alert rules: `NodeXidErrors` OK · `NCCLWatchdogTimeout` FIRING · `GPUMemoryECC` OK
✅ GPUs — Xid: none
"""


def test_machine_output_at_zero() -> None:
    """Dotted leaders, a key and its value, a run of keys, JSON, checks that passed."""
    assert named(MACHINE) == [
        "NaN/Inf steps", "ECC uncorrectable", "nan_steps", "nan", "ovf", "ckpt_fail",
        "oom_kills", "ecc_uncorrectable", "xid", "`NodeXidErrors`", "`GPUMemoryECC`",
        "GPUs — Xid: none"]


def test_a_check_mark_after_a_sentence_marks_nothing_after_it() -> None:
    assert named("re-copied that file, loss 1.89 on load ✅. also every save now writes a "
                 "sha256 manifest") == []
