"""Cue patterns the classifier makes from taxonomy.yaml's data, not written out in it.

A code's `settings` become the ways a setting is said to change ("lr down from 3e-4 to
2e-4", a pasted sed edit, "dropout set to 0.0") and, with its `variants`, the ways an
experiment is said to differ from another ("same as Exp 9 but with `lr=1e-5`");
`variables` the ways an environment variable is said to be set; `components` the ways a
part is said to fail; `tallies` the items of a tally that count a fault. Each returns
pattern groups in the shape of taxonomy.yaml's own (`confidence`, `name`, `tokens`, ...),
so the classifier treats them like any other.
"""

from __future__ import annotations

import itertools


def _spellings(name: str) -> list[str]:
    """A setting's name as names whose spaces all lie outside parentheses, so each word is one
    token's regex: "(number of|num) layers" is "number of layers" and "num layers",
    "nesterov( momentum)?" is "nesterov" and "nesterov momentum", "data ?loader" is
    "data loader" and "dataloader"."""
    if (space := name.find(" ?")) >= 0:
        return [*_spellings(name[:space] + " " + name[space + 2:]),
                *_spellings(name[:space] + name[space + 2:])]
    depth = 0
    for i, ch in enumerate(name):
        if ch == "(" and depth == 0:
            start, bars = i, []
        elif ch == "|" and depth == 1:
            bars.append(i)
        depth += (ch == "(") - (ch == ")")
        if ch == ")" and depth == 0 and " " in name[start:i]:
            optional = name[i + 1:i + 2] == "?"
            cuts = [start, *bars, i]
            choices = [name[a + 1:b] for a, b in itertools.pairwise(cuts)] + [""] * optional
            rest = name[i + 1 + optional:]
            return list(dict.fromkeys(
                spelling for choice in choices
                for spelling in _spellings(" ".join((name[:start] + choice + rest).split()))))
    return [name]


def _words(name: str) -> list[str]:
    """A setting's name split at its spaces outside parentheses: one regex per word."""
    words, depth, start = [], 0, 0
    for i, ch in enumerate(name):
        depth += (ch == "(") - (ch == ")")
        if ch == " " and depth == 0:
            words.append(name[start:i])
            start = i + 1
    return [*words, name[start:]]


# the old value told beside the new: "(was 96)", a comment's "# was TP=4 PP=8"; "before" only
# with the value after it ("(before 2)", not "# before the ramp-up ends it is 512")
_WAS = {"LOWER": {"IN": ["was", "previously", "formerly", "from"]}}
_ASIDE = {"ORTH": {"IN": ["(", "#"]}}
_BEFORE = {"LOWER": "before"}
_KEY_VALUE = {"ORTH": {"IN": [":", "="]}}  # a config line's key and value: "clip_grad: 0.6"
_TICK = {"ORTH": "`", "OP": "?"}  # a name written as code: "`lr_decay_iters` changed"
_QUOTE = {"ORTH": {"IN": ['"', "'"]}, "OP": "?"}  # a JSON key: '+  "gradient_clipping": 0.5,'
_PRESENT = {"LOWER": {"IN": ["is", "are"]}}
# what a value counts, said after it: "batch size is adjust from 2M token to 4M token"
_UNIT = {"LOWER": {"IN": ["token", "tokens", "seq", "seqs", "sequences", "samples", "steps",
                          "layers", "heads", "nodes", "gpus"]}, "OP": "?"}
# "the Adam epsilon is increase to 1e-5": a present said as a past, with its auxiliary
_PRESENT_OR_PAST = {"LOWER": {"IN": [*_PRESENT["LOWER"]["IN"], "was", "were"]}, "OP": "?"}
_NOT_BETWEEN = [".", ";", "\n", "and", "but", "will", "would", "should", "could", "might", "may",
                "can", "to", "has", "have", "had", "fallen", "fell", "dropped", "rose", "risen",
                "grew", "grown", "went", "climbed", "decayed", "warms", "warm", "ramps", "ramp",
                "ranges", "range", "varies", "lasts", "goes", "decays", "anneals", "over",
                "between"]
# how a setting's value is said to move, before "from" or "to": "LR down to", "layers increase
# from 24 to 32" (the present, as non-native English writes a past)
_MOVED = ["down", "up", "back", "increase", "increased", "increases", "decrease", "decreased",
          "decreases", "reduce", "reduced", "reduces", "raise", "raised", "raises", "change",
          "changed", "changes", "lowered", "bumped", "cut", "adjusted", "adjust"]
_OF_WHAT = {"LOWER": {"IN": ["for", "of", "in", "on"]}}  # "the LR for the router weights"
_THE = {"LOWER": {"IN": ["the", "our"]}}
# a verb between the old value and "to", as translated reports write it: "Sequence length from
# 4,096 modify to 8,192"
_VERB_BEFORE_TO = {"LOWER": {"IN": ["modify", "modified", "change", "changed", "adjust", "adjusted",
                                    "increase", "increased", "reduce", "reduced", "raise", "raised",
                                    "lower", "lowered", "set"]}, "OP": "?"}
# a change said to hold from now: "Peak LR for everything from now on is 2e-4"
_FROM_NOW = [{"LOWER": "from"}, {"LOWER": {"IN": ["now", "here", "today"]}},
             {"LOWER": {"IN": ["on", "onwards", "forward"]}, "OP": "?"}]
# what a setting's name may end in: "the gradient accumulation steps were reduced"
_NAMED_AS = {"LOWER": {"IN": ["steps", "setting", "settings", "value", "values", "factor"]}}


def edit_group(code: str, settings: list[str], shared: dict) -> list[dict]:
    """Cues that a line edits one of a code's `settings` (taxonomy.yaml), as logbooks paste it:
    a sed/perl substitution (`perl -pi -e 's|--lr 6e-5|--lr 3e-5|'`) or a diff's added flag
    (`+    --clip-grad 0.5`), or a value said to be new. The names are regex fragments, matched
    case-insensitively, a space between the words of a name said in prose ("eval interval");
    `shared` is taxonomy.yaml's token specs (a value, "to", a change verb)."""
    if not settings:
        return []
    value = shared["value"]
    # a change told in the past (taxonomy.yaml's `was`, the verb optional here), or in the
    # present with where the value went ("is adjusted from 1.5e-4 to 1.2e-4"): a bare present
    # may describe an effect ("then the LR is increased by 2x")
    past = {**shared["was"], "OP": "{0,2}"}
    where = {"LOWER": {"IN": [*shared["to"]["LOWER"]["IN"], "from", "at", "down", "up", "back"]}}
    flags, groups = _setting_names(settings)
    tokens = []
    if flags:
        key = groups[0][0]  # the setting as a flag or a config key
        flag_set = {"LOWER": {"REGEX": rf"^(--?)?({flags})[=:]\S+$"}}  # "TP=4", "--pp:8"
        tokens += [
            [{"TEXT": {"REGEX": rf"(?i)^s([|/#])\(?(--?)?({flags})(\b|_|$)"}}],
            # a diff's added line, a flag or a config key: "+ --clip-grad 0.5", "+  tp: 4"
            [{"ORTH": "+", "IS_SENT_START": True}, {"IS_SPACE": True, "OP": "?"}, _QUOTE,
             {"LOWER": {"REGEX": rf"^(--?)?([a-z][\w-]*\.)*({flags}):?$"}}],
            # a change record's row that names the setting: "param=grad_clip_norm | old=5.0"
            [{"LOWER": {"IN": ["param", "parameter", "setting", "knob"]}}, {"ORTH": "="}, _TICK,
             key],
            # a flag set where it was not: "we put clip-grad=1 which before was not used", "set
            # `adam_eps=1e-15`"
            [{"LOWER": {"IN": ["put", "set", "added", "enabled", "introduced", "applied"]}},
             _TICK, flag_set],
            # a layout said as its flags, set, or beside the old value: "I switched it to TP=4,
            # PP=12, DP=8 today", "with DP=64 instead of 32"
            [shared["change_verb"], {"IS_PUNCT": False, "OP": "{0,2}"}, {"LOWER": "to"}, flag_set],
            # a switch flag switched to: "we switched to --bf16"
            [shared["change_verb"], {"LOWER": "to"}, {"LOWER": {"REGEX": rf"^--({flags})$"}}],
            [flag_set, {"LOWER": "instead"}, {"LOWER": "of"}, value],
            # a flag with its value and the old one, or said to be the value now: "--nodes=128
            # (was 96)", "eval_interval=1000 (was 250)", "per_device_train_batch_size=16 now"
            [flag_set, {"IS_SPACE": True, "OP": "?"}, _ASIDE, _WAS],
            [flag_set, {"IS_SPACE": True, "OP": "?"}, _ASIDE, _BEFORE, value],
            [flag_set, {"LOWER": "now"}],
            # a config line (its key is a flag's joined words) beside its old value or the step
            # it holds from: "`clip_grad: 0.6` (was 1.0)", "`moe.capacity_factor: 1.5` from
            # step 72,000 on" (not "Seed: 43 (from the beginning)")
            [key, _TICK, _KEY_VALUE, value, _TICK, {"ORTH": "("}, _WAS, value],
            [key, _TICK, _KEY_VALUE, value, _TICK, {"LOWER": "from"},
             {"LOWER": {"IN": ["step", "iteration", "iter"]}}, value],
        ]
    for setting in groups:
        tokens += [
            # "peak LR down from 3e-4 to 2e-4", "LR down to 0.9e-4", "lr const 2e-5 (was 1.5e-5)"
            # "embedding init std from 0.02 down to 0.0048", "Number of layers increase from
            # 24 to 32", "data ratio increase to 8%" (a present said as a past)
            [*setting, _PRESENT_OR_PAST, {"LOWER": {"IN": [*_MOVED, "now"]}, "OP": "?"},
             {"LOWER": "from"}, value, _UNIT, {"LOWER": {"IN": ["down", "up"]}, "OP": "?"},
             _VERB_BEFORE_TO, shared["to"], value],
            [*setting, _PRESENT_OR_PAST, {"LOWER": {"IN": _MOVED}}, {"LOWER": "to"}, value],
            # a few words between the setting and its values: "the max grad norm more small, from
            # 2.0 to 1.0", "the gradient norm cap from 1.0 to 0.8 on Tuesday"
            # (not a plan, nor a value that moved by itself: "will be extended from", "the loss
            # scale has fallen from 65,536 to 256")
            [*setting, {"LOWER": {"NOT_IN": _NOT_BETWEEN}, "OP": "{1,4}"},
             {"LOWER": "from"}, value, _VERB_BEFORE_TO, shared["to"], value],
            # the setting's value said to hold from now, or settled on, or put in the recipe the
            # runs follow: "Peak LR for everything from now on is 2e-4", "Weight decay 0.1
            # adopted", "beta2 = 0.95 in the recipe" (not "the LR from here follows the cosine",
            # nor "the LR in the baseline is 3e-4", a setting as launched)
            [*setting, {"IS_PUNCT": False, "LOWER": {"NOT_IN": _NOT_BETWEEN}, "OP": "{0,3}"},
             *_FROM_NOW, {"LOWER": {"IN": ["is", "=", ":", "at", "of"]}, "OP": "?"}, value],
            [*setting, _TICK, {**_KEY_VALUE, "OP": "?"}, value,
             {"LOWER": {"IN": ["adopted", "locked"]}}],
            [*setting, _TICK, {**_KEY_VALUE, "OP": "?"}, value, {"LOWER": {"IN": ["in", "into"]}},
             _THE, {"LOWER": "recipe"}],
            # switched on or off: "Gradient clipping was turned off for the cooldown phase",
            # "Dropout turned off." (not a present, "dropout is turned off for SFT")
            [*setting, _TICK, {**shared["was"], "OP": "{0,2}"},
             {"LOWER": {"IN": ["turned", "switched"]}}, {"LOWER": {"IN": ["on", "off", "back"]}}],
            # a setting's word values, an arrow between them: "pos emb: learned -> rotary",
            # "lr_scheduler: cosine → polynomial" (an arrow, not "to": "from A to B" is prose)
            [*setting, _TICK, _KEY_VALUE, {"IS_PUNCT": False, "OP": "{1,2}"}, shared["arrow"],
             {"IS_PUNCT": False}],
            # the old value after the new: "Global batch is 3072 sequences now, was 1536"
            [*setting, _TICK, {"LOWER": {"IN": ["is", "are", "=", ":"]}, "OP": "?"}, value,
             {"IS_PUNCT": False, "OP": "{0,2}"}, {"ORTH": {"IN": [",", ";"]}},
             {"LOWER": {"IN": ["was", "previously", "formerly"]}}, value],
            # "LR multiplied by 0.7", "grad accum halved"
            [*setting, _TICK, shared["was_or_not"],
             {"LOWER": {"IN": ["multiplied", "scaled", "divided", "halved", "doubled"]}},
             {"LOWER": "by", "OP": "?"}, shared["value_or_not"]],
            [*setting, {"IS_PUNCT": False, "OP": "{0,2}"}, value,
             {"IS_PUNCT": False, "OP": "{0,2}"}, _ASIDE, _WAS],
            [*setting, {"IS_PUNCT": False, "OP": "{0,2}"}, value,
             {"IS_PUNCT": False, "OP": "{0,2}"}, _ASIDE, _BEFORE, value],
            # "loss_scale_window 1000 -> 500", "global_batch_size: 768 -> 1536", "PPO epochs per
            # rollout 4 -> 2"
            # (not a division worked out: "64 layers over PP=32 => 2 layers per gpu")
            [*setting, _TICK,
             {"IS_PUNCT": False, "LOWER": {"NOT_IN": ["over"]}, "OP": "{0,2}"},
             {"ORTH": {"IN": ["=", ":"]}, "OP": "?"}, value, shared["arrow"], value],
            # a relaunch with the setting's value: "Restarted from 35,500 with `eval_interval: 0`"
            [shared["relaunched"], {"IS_PUNCT": False, "OP": "{0,8}"}, {"LOWER": "with"}, _TICK,
             *setting, _TICK, {"ORTH": {"IN": [":", "="]}, "OP": "?"}, value],
            # "dropout set to 0.0", "eval iterations reduced from 100 to 20", "attention
            # dropout disabled", "the auxiliary loss weight was reduced to 0.1",
            # "(`lr_decay_iters` changed to match)"
            [*setting, _TICK, past, shared["changed"]],
            # the setting named with what it is of or for: "the LR for the router weights was
            # halved", "the gradient accumulation steps were reduced", "the dropout in the
            # attention layers was set to 0"
            [*setting, _OF_WHAT, {"IS_PUNCT": False, "OP": "{1,4}"}, shared["was"],
             shared["changed"]],
            [*setting, _NAMED_AS, _TICK, past, shared["changed"]],
            # "stepped the LR down to the value of step 60k", "brought the batch size up to 2048"
            [_THE, *setting, {"LOWER": {"IN": ["down", "up"]}},
             {"LOWER": {"IN": ["to", "by"]}}],
            # the new value before the setting: "went to 4k warmup", "moved to a 4096 seq len"
            [{"LOWER": {"IN": ["moved", "went", "switched", "changed", "increased", "reduced",
                                "raised", "lowered", "cut", "dropped", "bumped"]}},
             {"LOWER": "to"}, {"LOWER": {"IN": ["a", "an"]}, "OP": "?"}, value, *setting],
            [*setting, _TICK, _PRESENT, shared["changed"], where],
            # "the global batch went up to 1152", "decay horizon moved from 286k to 357k", "LR
            # × 0.7"
            [*setting, shared["was_or_not"], {"LOWER": {"IN": ["went", "moved", "moves", "jumped",
                                                            "came", "goes", "climbed"]}},
             {"LOWER": {"IN": ["up", "down", "back"]}, "OP": "?"}, {"LOWER": "from", "OP": "?"},
             {"LOWER": {"IN": ["step", "iteration"]}, "OP": "?"}, shared["value_or_not"],
             shared["to"], value],
            [*setting, {"ORTH": "×"}, value],
            # the value used from now on: "Using 4 grad accumulation steps from now on"
            [{"LOWER": {"IN": ["using", "use", "with", "at", "running"]}}, value, *setting,
             {**_NAMED_AS, "OP": "?"}, *_FROM_NOW],
            # the new value beside the old: "The global batch is 1792 (7 × 256) instead of 2048"
            [*setting, _TICK, {"LOWER": {"IN": ["is", "are", "was", "were", "=", ":"]}, "OP": "?"},
             value, {"LOWER": {"NOT_IN": [".", ";", "\n"]}, "OP": "{0,6}"},
             {"LOWER": "instead"}, {"LOWER": "of"}, value],
            # the new value said as the setting's present: "global batch size is now 2048"
            [*setting, _TICK, {"LOWER": {"IN": ["is", "are", "'s"]}, "OP": "?"},
             {"LOWER": "now"}, {"LOWER": {"IN": ["at", "set", "to", "="]}, "OP": "{0,2}"}, value],
        ]
    # "fixed `FFN_HIDDEN_SIZE`", "lowered --lr", "bumped SEQ_LEN to 4096"; not a verb's
    # participle as an adjective ("shuffle with a fixed seed", "the lowered LR", "(fixed seed,
    # no dropout)": taxonomy.yaml's mark `not_code`)
    verb_first = [[shared["change_verb"], {**_THE, "OP": "?"}, _TICK,
                   *setting] for setting in groups]
    return [{"confidence": 0.8, "name": f"{code}#edited", "tokens": tokens},
            {"confidence": 0.8, "name": f"{code}#edited", "tokens": verb_first,
             "not_after": ["a", "an", "the", "with", "per", "our", "its", "their", "same"],
             "inside": ["not_code"]}]


def _setting_names(settings: list[str]) -> tuple[str, list[list[dict]]]:
    """The settings' names joined as one regex of flags, and the token sequences that say a
    setting: first its key (a flag, a config key), then each name of several words in prose."""
    words = [_words(spelling) for name in settings for spelling in _spellings(name)]
    # names of one word are also flags and script variables, pasted in edits and diffs; a
    # name of several words is one too when joined as a config key ("rope_theta", "micro-batch")
    flags = "|".join("[-_]".join(parts) for parts in words)
    groups = [[{"LOWER": {"REGEX": rf"^({part})$"}} for part in parts] for parts in words
              if len(parts) > 1]
    if flags:
        # also a config file's dotted or prefixed key: "train.grad_clip", "eval_micro_batch_size"
        groups.insert(0, [{"LOWER": {"REGEX": rf"^(--?)?([a-z][\w-]*[._])*({flags})$"}}])
    return flags, groups


def variant_group(code: str, settings: list[str], words: list[dict], shared: dict) -> list[dict]:
    """Cues that an experiment differs from another by one of a code's settings or `variants`
    (token specs of its words): one of taxonomy.yaml's `variant_frames` ("same as Exp 9 but
    with", "A1 = A0 +", "the only change:"), then what it changed."""
    named = [*_setting_names(settings)[1], *([word] for word in words)]
    if not named:
        return []
    tokens = [[*frame, *name] for frame in shared["variant_frames"] for name in named]
    return [{"confidence": 0.8, "name": f"{code}#variant", "tokens": tokens}]


_ARTICLE = {"LOWER": {"IN": ["the", "a", "an"]}, "OP": "?"}


def variable_groups(rows: list[dict], shared: dict) -> dict[str, list[dict]]:
    """Cues that an environment variable was set, by code (taxonomy.yaml's `variables`):
    "export NCCL_DEBUG=INFO", "set `NCCL_IB_TIMEOUT`", "CUDA_LAUNCH_BLOCKING=1", and for a
    row `changed_is_set`, changed to a value: "raised NCCL_IB_RETRY_CNT to 13". A variable
    belongs to the first row whose names match it, so each later row excludes the earlier;
    a row's `inside` is the group's (a setting a tool's own message advises)."""
    groups: dict[str, list[dict]] = {}
    earlier: list[str] = []
    for row in rows:
        names = "|".join(row["names"])
        variable = rf"^`?{''.join(f'(?!({n})(=|`|$))' for n in earlier)}({names})"
        tokens = [[shared["set_verb"], _ARTICLE, _TICK,
                   {"TEXT": {"REGEX": rf"{variable}(=\S*)?`?$"}}, {"ORTH": "=", "OP": "?"}],
                  # the verb after: "with `NCCL_IB_QPS_PER_CONNECTION=4` exported", "`X=0` was
                  # added to the job launch script"
                  [{"TEXT": {"REGEX": rf"{variable}=\S+?`?$"}}, _TICK,
                   {"LOWER": {"IN": ["was", "were", "is", "got", "has", "been"]}, "OP": "{0,2}"},
                   {"LOWER": {"IN": ["exported", "set", "added", "applied"]}}]]
        if row.get("changed_is_set"):
            tokens.append([shared["change_verb"], _ARTICLE, _TICK,
                           {"TEXT": {"REGEX": rf"{variable}`?$"}}, _TICK,
                           {"LOWER": {"IN": ["to", "from"]}}, {"LIKE_NUM": True}])
        if row.get("assigned_is_set"):
            tokens += [[{"TEXT": {"REGEX": rf"{variable}=\S+$"}}],
                       [{"TEXT": {"REGEX": rf"{variable}`?$"}}, {"ORTH": "="}]]
        groups.setdefault(row["code"], []).append(
            {"confidence": 0.85, "name": f"{row['code']}#variable", "tokens": tokens,
             "inside": row.get("inside", [])})
        earlier.append(names)
    return groups


_AUXILIARY = {"LOWER": {"IN": ["has", "had", "have", "'s", "'d"]}, "OP": "?"}  # "had gone"
# what may follow a state said without a verb, so that it is the part's state and not a
# word naming something ("Lustre MDS overloaded again", not "the /scratch full backup")
_AFTER_A_STATE = {"LOWER": {"IN": [".", ",", ";", ":", "!", "?", "(", "-", "—", "\n", "again",
                                   "since", "now", "today", "overnight", "all", "and", "at",
                                   "on", "for", "after", "this", "until"]}}
_IS = {"LOWER": {"IN": ["is", "was", "are", "were", "'s", "’s"]}}
_CULPRIT = {"LOWER": {"IN": ["culprit", "culprits", "offender", "offenders"]}}
_KEEPS = {"LOWER": {"IN": ["keeps", "kept", "keep"]}, "OP": "?"}  # "GPU 3 keeps dropping out"
_COMPONENT_PHRASES = {
    # "one of the GPUs on node 12 stopped responding", "the Lustre mount went read-only"
    "stopped": lambda part, sh, states: [*part, sh["which"], sh["stopped"], sh["responding"]],
    "dropped": lambda part, sh, states: [*part, sh["which"], _KEEPS, sh["dropped"], sh["out"]],
    "became": lambda part, sh, states: [*part, sh["which"], _AUXILIARY, sh["became"],
                                         sh["how_much"], states],  # "the mount had gone stale"
    # a note's terse state, without a verb: "Lustre MDS overloaded again", "gn-14 GPU 3 dead"
    "terse": lambda part, sh, states: [*part, states, _AFTER_A_STATE],
    "died": lambda part, sh, states: [*part, sh["which"], _KEEPS, sh["died"]],
    "timed_out": lambda part, sh, states: [*part, sh["which"], sh["timed"], sh["out"]],
    "clause": lambda part, sh, states: [*part, sh["relative"], sh["clause"], sh["died"]],
    # "1 IB link that went down", "the port which was down for a day"
    "that_became": lambda part, sh, states: [*part, sh["relative"], sh["became"], sh["how_much"],
                                              states],
    "faulty": lambda part, sh, states: [sh["faulty"], *part],  # "a bad disk"
    "problem": lambda part, sh, states: [*part, sh["problem"], sh["not_a_problem"]],
    "had": lambda part, sh, states: [*part, sh["which"], sh["had"], sh["some"], sh["problem"]],
    "problem_with": lambda part, sh, states: [sh["problem"], sh["problem_with"], sh["which"],
                                               *part],  # "trouble with the object store"
    "lost": lambda part, sh, states: [sh["lost"], sh["count"], *part],  # "lost two disks"
}
# the part found to be what went wrong: "GPU 5 on gpu-a03 is the culprit", "the culprit was the
# Lustre MDS" (not a suspect: "is probably the culprit"; nor the part's software: "the culprit
# was the GPU driver", the group's `not_before`)
_CULPRIT_PHRASES = [
    lambda part, sh: [*part, sh["which"], _IS, _THE, _CULPRIT],
    lambda part, sh: [_THE, _CULPRIT, {"LOWER": {"IN": [":", "=", "is", "was"]}},
                      {"LOWER": {"IN": ["the", "a", "one", "our"]}, "OP": "?"}, *part],
]
_NOT_THE_PART = ["driver", "drivers", "firmware", "bios", "setting", "settings", "config",
                 "configuration", "software", "library", "code", "kernel", "image"]
# what a part is held against: its peers ("the others", "its siblings", "the median") or its
# line rate; not another model ("slower than the other partition's H100s"), nor what was
# expected of all of them ("slower than expected with bf16")
_PEERS = [{"LOWER": {"IN": ["its", "the", "all", "every", "any"]}, "OP": "?"},
          {"LOWER": {"IN": ["others", "rest", "remaining", "median", "average", "mean",
                            "siblings", "neighbours", "neighbors", "peers", "everyone", "line"]}}]
# a part that does its work slower than its peers or than it should (a row's `compared`):
# "one GPU ran about 20% slower than its siblings", "GPU 2 on kn-d14 came in at 61% of the
# others", "port 2 at 41% of line rate"
_COMPARED_PHRASES = [
    lambda part, sh: [*part, sh["which"], {"LOWER": {"IN": [
        "is", "was", "are", "were", "'s", "ran", "runs", "running", "taking", "takes", "took",
        "about", "approximately", "roughly", "much", "far", "consistently", "~"]}, "OP": "{0,3}"},
        sh["value_or_not"], {"ORTH": "%", "OP": "?"},
        {"LOWER": {"IN": ["slower", "lower", "longer", "behind", "weaker", "worse"]}},
        {"LOWER": "than"}, *_PEERS],
    lambda part, sh: [*part, sh["which"], {"LOWER": {"IN": [
        "at", "only", "just", "about", "~", "running", "runs", "ran", "sits", "sat", "came", "in",
        "is", "was"]}, "OP": "{1,3}"}, sh["value"], {"ORTH": "%", "OP": "?"}, {"LOWER": "of"},
        *_PEERS],
]


def component_groups(rows: list[dict], shared: dict) -> dict[str, list[dict]]:
    """Cues that a component failed, by code (taxonomy.yaml's `components`): the same
    phrases of failure (`_COMPONENT_PHRASES`) for every part, less a row's `except`; a
    row's `states` are what its part becomes when it fails ("full", "read-only"), besides
    `broken` unless the row says `states_only`; its `inside` is the pattern groups' (a
    failure that a wider cue explains). The part named as the culprit (`_CULPRIT_PHRASES`)
    is a group of its own: not when the words after it name the part's software."""
    groups: dict[str, list[dict]] = {}
    for row in rows:
        broken = [] if row.get("states_only") else shared["broken"]["LOWER"]["IN"]
        states = {"LOWER": {"IN": [*broken, *row.get("states", [])]}}
        phrases = [name for name in _COMPONENT_PHRASES if name not in row.get("except", [])]
        tokens = [_COMPONENT_PHRASES[name](part, shared, states)
                  for part in row["parts"] for name in phrases]
        tokens += [phrase(part, shared) for part in row.get("compared", [])
                   for phrase in _COMPARED_PHRASES]
        groups.setdefault(row["code"], []).extend([
            {"confidence": 0.85, "name": f"{row['code']}#component", "tokens": tokens,
             "inside": row.get("inside", [])},
            {"confidence": 0.85, "name": f"{row['code']}#culprit", "not_before": _NOT_THE_PART,
             "tokens": [phrase(part, shared) for part in row["parts"]
                        for phrase in _CULPRIT_PHRASES]}])
    return groups


def tally_groups(rows: list[dict], shared: dict) -> dict[str, list[dict]]:
    """Cues that a tally counts a code's fault by its family (taxonomy.yaml's `tallies`): a
    count, what it counts (one of the row's `family` words), then where a list's item ends,
    at a comma or bracket or at the line's end ("relaunch causes: 4 fabric, 3 power")."""
    item = [shared["tally_count"], shared["tally_link"], shared["tally_which"]]
    groups: dict[str, list[dict]] = {}
    for row in rows:
        tokens = [[*item, {"LOWER": {"REGEX": row["family"]}}, shared["tally_what"], end]
                  for end in (shared["tally_end"], shared["tally_line_end"])]
        groups.setdefault(row["code"], []).append(
            {"confidence": 0.7, "name": f"{row['code']}#tallied", "needs": ["tally"],
             "counted": True, "tokens": tokens})
    return groups
