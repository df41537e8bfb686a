"""Faults told only by numbers (label/trends.py, data/trends.yaml)."""

import random
import re

import pytest

from logbook_miner.label.classifier import Classifier
from logbook_miner.label.trends import _SENTENCE, mine_trends, value
from logbook_miner.models import Entry


def _codes(text: str) -> set[str]:
    return {label.code for label in mine_trends(Entry(seq=1, heading="Note", text=text))}


@pytest.mark.parametrize(("text", "code"), [
    ("tok/s went from ~270k to ~120k for half a day", "performance.throughput"),
    ("the 2-node run went from ~440k tok/s to ~250k overnight", "performance.throughput"),
    ("Throughput 1.02M tokens/s instead of 1.12M.", "performance.throughput"),
    ("Since the maintenance step time is 1.12 s/it (was 0.98).", "performance.throughput"),
    ("It is running at 131 TFLOPs/GPU vs 149 for A0.", "performance.throughput"),
    ("Node group B is at 2,150 tok/s/GPU against 3,300 on group A.", "performance.throughput"),
    ("| 14:02 | loss 2.03 -> 3.91 -> 2.11 | grad norm 0.4 |", "numerics.loss_spike"),
    ("the loss went from 6.3 to 9 to 6.7 within a hundred steps", "numerics.loss_spike"),
    ("tokens/s/GPU: 3,950 yesterday, 3,120 today, same config.", "performance.throughput"),
    ("Progress bar showed 3.4 it/s, now 2.1 it/s.", "performance.throughput"),
    ("Wall-clock per 1000 steps went from 42 min to 58 min.", "performance.throughput"),
    # the units of image, video and speech runs
    ("images/sec/GPU went from 410 down to 300 with the new sampler", "performance.throughput"),
    ("ASR: utterances/s went from 5,400 to 4,100 since the upgrade", "performance.throughput"),
    ("5,400 utt/s -> 4,100", "performance.throughput"),
    # a rise, and its return told after it, on the next line of an on-call log
    ("05:14 loss 1.82 → 2.70 at step 51230\n05:20 recovered, 1.83 at 51300", "numerics.loss_spike"),
    ("grad norm 0.4 → 11.8 at step 77120\n02:05 back to baseline by 77180", "numerics.loss_spike"),
    ("14:00 loss scale 65536 → 1 over 300 steps", "numerics.overflow"),  # fp16's collapse
])
def test_a_measure_that_moved_the_bad_way_is_a_fault(text: str, code: str) -> None:
    assert code in _codes(text)


@pytest.mark.parametrize("text", [
    "tok/s from 250k to 430k after the fix",  # better, not worse
    "step time 0.98 s/it (was 1.12)",
    "loss 2.9 -> 2.86 at 43.6k, boring",  # two values of a loss: no spike
    "If tok/s drops from 400k to 300k the watchdog restarts the job.",  # what would happen
    "LR 3e-4 -> 1e-4 from step 2,000 on",  # a setting, not a measure
    "ran on 16 nodes instead of 32",
    "weak scaling: 1,150 tok/s/GPU against 2,048 GPUs",  # a count of GPUs, not an old rate
    "1.1M tok/s this morning, 1.2M now",  # faster
    "from epoch 2 to epoch 5 the loss fell",  # a counter, not a time
    "loss 1.9 -> 2.4 after the data switch; it never came back",  # a rise that stayed
    "grad norm 0.4 → 2.5 and rising\n- rolled back to 6,000",  # a rollback, no return
    "grad norm 0.4 -> 2.5 and rising\n- returned to the 6k checkpoint",
    "loss 1.9 -> 2.5 at step 4000 and it never fully recovered",  # a return denied
    "loss 1.9 -> 2.5 at step 4000\nwe'll see tomorrow if it comes back down",  # doubted
    "loss 1.9 -> 2.4 after the data switch\nthroughput recovered after we pinned NCCL",
    "lowered the initial loss scale from 65536 to 1024 to be safe",  # a setting
    "loss scale 65536 -> 4096 during warmup, normal for fp16",  # dynamic scaling's usual moves
])
def test_numbers_that_do_not_say_a_fault(text: str) -> None:
    assert not _codes(text)


def test_values_are_read_as_logbooks_write_them() -> None:
    assert [value(v) for v in ["~270k", "1.02M", "2,048", "3e-4", "0.98"]] == \
        [270_000, 1_020_000, 2048, 3e-4, 0.98]


def test_the_classifier_adds_a_trend_with_its_numbers_as_evidence() -> None:
    entry = Entry(seq=1, heading="2024-06-20", text="tok/s went from ~270k to ~120k.")
    labels = Classifier().classify([entry])[0].labels
    found = {lb.code: lb for lb in labels}
    assert found["performance.throughput"].evidence == "from ~270k to ~120k"
    assert found["performance.throughput"].source == "trends:performance.throughput"


def test_sentences_are_runs_of_characters_that_end_none() -> None:
    """A sentence is a run of characters each of which is no end: not a line end, ';', nor
    a full stop (or '!', '?') before a space, the end or another stop."""
    one_at_a_time = re.compile(r"(?:[^\n.!?;]|[.!?](?=[^\s]))+")
    pieces = [".", "!", "?", ";", "\n", " ", "\t", "\xa0", "a", "1", "1.12", "e.g.", "..", "->"]
    rng = random.Random(0)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 20)))
        assert ([m.span() for m in _SENTENCE.finditer(text)]
                == [m.span() for m in one_at_a_time.finditer(text)]), repr(text)
