"""The provider's and the team's tools' own names, learned from the logbook that uses them
(label/names.py)."""

from __future__ import annotations

import pytest

from logbook_miner.label.classifier import Classifier
from logbook_miner.label.names import LogbookNames
from logbook_miner.label.taxonomy import TAXONOMY_PATH
from logbook_miner.label.wrapping import normalise
from logbook_miner.models import Entry
from logbook_miner.resources import read_yaml


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(layer_path=None)


@pytest.fixture(scope="module")
def names() -> LogbookNames:
    return LogbookNames.from_taxonomy(read_yaml(TAXONOMY_PATH))


def labels(classifier: Classifier, *texts: str) -> list[list[tuple[str, str]]]:
    entries = [Entry(seq=i + 1, heading=f"2024-05-0{i + 1}", text=t) for i, t in enumerate(texts)]
    return [[(lb.code, lb.evidence) for lb in labelled.labels]
            for labelled in classifier.classify(entries)]


def test_a_name_the_logbook_gives_its_provider_is_read_as_the_provider(classifier):
    launch = "Launched on 64 nodes of the Northgate colo cluster, rented from Northgate Cloud."
    outage = "Tuesday's storage outage at Northgate cost us five hours."
    assert ("infra.provider", "outage at Northgate") in labels(classifier, launch, outage)[1]
    # the same sentence in a logbook that never says who Northgate is
    assert not any(code == "infra.provider" for code, _ in labels(classifier, outage)[0])


def test_a_named_providers_team_changing_its_firmware_is_not_our_change(classifier):
    """Rule 10: "Halcyon's network team" is the provider's, once the logbook says who
    Halcyon is; their rollout is no dependency_change of the team's."""
    launch = "Launched on 128 nodes rented from Halcyon Cloud."
    rollout = "Halcyon's network team was rolling new firmware onto the leaf switches."
    assert not any(code == "dependency_change"
                   for code, _ in labels(classifier, launch, rollout)[1])


def test_its_evidence_is_the_logbooks_own_words_at_their_offsets(classifier):
    text = "Ticket open.  No word  from   Corvid on the missing 32.\nWe rent from Corvid Cloud."
    [found] = classifier.classify([Entry(seq=1, heading="2024-05-07", text=text)])
    [label] = [lb for lb in found.labels if lb.code == "infra.provider"]
    assert text[label.start:label.end] == label.evidence == "No word  from   Corvid"


@pytest.mark.parametrize("text, found", [
    ("Rented from Nimbrus Cloud. Nimbrus support replied at 11:30.", ["Nimbrus"]),
    ("Compute is Forge (the cloud's managed training service).", ["Forge"]),
    ("We opened a Corvid ticket for c019.", ["Corvid"]),
    # a sentence that opens with a verb does not name anyone: "Asked support ..."
    ("Asked support about the quota. Sent ops the logs.", []),
    ("In case a node goes down, pick a spare.", []),  # a line's first word opens a sentence
    # nor after a time or a list number; a library's name, a tracker's, a word before "case"
    ("[09:10] Pinged support about it.\n03:12 Rebooted ops-01.\n1) Opened ticket 7.", []),
    ("Rebuilt the DeepSpeed ops. Filed a Jira ticket. In the Megatron case it differs.", []),
    ("Maintenance (announced by the provider) took nodes 3-5 down.", []),
    # a word the logbook also writes in lower case is a word, not a name
    ("Weekly ops review. The weekly numbers are in.", []),
    ("Monday support rota: Ana.", []),
    ("a GPU100 ticket, H100s support FP8", []),  # no digits, no acronyms
])
def test_what_shows_a_name_is_an_operators(names, text, found):
    assert names.operators.of([text]) == found


def test_a_mention_inside_another_word_or_a_name_with_more_is_left(names):
    defined = "We pinged them; Nimbus support replied."
    assert names.of([defined, "Nimbus-FM runs on nimbus.io"]) is None  # a lower-case word
    renaming = names.of([defined, "Nimbus-FM, NimbusGPU, @Nimbus, Nimbus."])
    text, where = normalise("Nimbus-FM, NimbusGPU, @Nimbus, Nimbus.")
    renamed, at = renaming(text, where)
    assert renamed == "Nimbus-FM, NimbusGPU, @Nimbus, provider."
    assert len(at) == len(renamed) + 1 and at == sorted(at)
    assert at[renamed.index("provider") + len("provider") - 1] + 1 == text.index("Nimbus.") + 6


def test_a_pasted_list_of_thousands_of_names_yields_a_few_in_one_pass(names):
    """Each sign is read once and only the most often named few are kept: a 2.7 MB line of
    20,000 names does not cost a search per name nor one per sign from its line's start."""
    many = [f"Zq{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676 % 26)}x"
            for i in range(20_000)]
    line = " ".join(f"we asked {name} support." for name in many) * 5
    renaming = names.of([line])
    assert renaming is not None and len(renaming.words) == 20


def test_a_tool_the_team_names_is_read_as_its_tool_at_work(classifier):
    """"the nanny requeued it" says what "the supervisor requeued it" says, once the logbook has
    said what the nanny is; in a logbook that never says so, it says nothing."""
    built = "This week I wrote the team a babysitter. I call it the nanny. It runs on the login."
    night = "Node h100-007 fell out at 01:14; the nanny excluded it and requeued from step 8,500."
    assert ("automation", "nanny excluded") in labels(classifier, built, night)[1]
    assert not any(code == "automation" for code, _ in labels(classifier, night)[0])
    # an identifier, in any case: a sentence may open with it
    later = "Node h100-009 fell out at 03:02. Nanny excluded it and requeued from step 9,000."
    assert ("automation", "Nanny excluded") in labels(classifier, built, later)[1]


def test_a_tools_own_line_tells_what_it_did(classifier):
    """A log of what the team's tool did, its name first: "orca-swap: drained gn022, requeued"."""
    built = ("wrote `orca-swap` (python, runs on the slurm head):\n"
             "- on Xid 48/79: `scontrol update state=drain`, pick a spare, `scontrol requeue`")
    night = "Xid 48 on gn022 at 03:05.\n\norca-swap: drained gn022, gn033 in, requeued."
    assert ("automation", "orca-swap: drained gn022") in labels(classifier, built, night)[1]
    # a status line a person writes is no tool's act
    assert not any(code == "automation" for code, _ in labels(
        classifier, "Watchdog: restarted it by hand after it hung.")[0])


@pytest.mark.parametrize("text, found", [
    ("Tomasz wrote a small daemon we call **tender**. It watches heartbeats.", ["tender"]),
    ("- `phoenix` = the resume wrapper Tomás and I wrote around torchrun.", ["phoenix"]),
    ("phoenix = our resume wrapper", ["phoenix"]),
    ("Wrote `kestrel-watch`, a small loop on the login node.", ["kestrel-watch"]),
    ("Our watchdog `r3-guard` is live since Tuesday.", ["r3-guard"]),
    # not a name: a script's file (a tool by its form), a command, a chat's speaker, the word
    # before a parenthesis, a phone a cron job pages "on-call"
    ("Wrote `relaunch.sh`, the restart script.", []),
    ("The batch script `scancel`s its own job id.", []),
    ("**devon**: the auto-requeue wrapper fired twice overnight", []),
    ("Requeued by Slurm (the wrapper then resumed from step 400).", []),
    ("A cron job pages the on-call phone when the loss goes NaN.", []),
    # nor what a tool is called by, calls or names, nor a word a marked thing's definition
    # holds in passing
    ("The cleanup script is called by cron at 02:00; the launcher script calls srun.", []),
    ("The wrapper calls torch.distributed.run. The wrapper named the checkpoint after it.", []),
    ("The packing script globbed `sw_*.bin` and the val file was named `sw_shard_07.bin`.", []),
    ("- `timeout` = the watchdog's limit. The 'loss', a metric our script logs.", []),
    ("**Monday** - the cron job failed twice.", []),
    ("The watchdog (called warden) restarts jobs.", ["warden"]),
    # a tool the team wrote, known by the recovery its next lines give it; not a tool for
    # something else, though the sentence after it restarts the job
    ("wrote `orca-swap` (python, on the slurm head):\n- tails Xids\n- on Xid 79: drain, requeue",
     ["orca-swap"]),
    ("wrote `dedup` to drop near-duplicate shards. Then restarted the job.", []),
])
def test_what_shows_a_name_is_a_tools(names, text, found):
    assert names.tools.of([text]) == found
