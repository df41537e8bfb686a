"""The names a logbook gives whoever runs its machines and the tools that run its job,
read off the whole logbook.

No pattern can list every provider: "Northgate delivered the last 16 machines late" says
what "the provider delivered ... late" says. Where the logbook itself shows a name in that
role ("Northgate Cloud", "a Corvid ticket", "Nimbrus support replied"), each mention of
the name is handed to the patterns as the word `read_as` (taxonomy.yaml's `operator_names`),
with offsets still on the name, so a label's evidence is the logbook's own words. So with
the team's own recovery tools: "a small daemon we call **tender**" makes "tender restarted
the job" read as "supervisor restarted the job" (`tool_names`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

_NAME = r"(?P<name>[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*)"  # "Northgate", "RentMyRig"; not "In"
_NOT_BEFORE = re.compile(r"[\w@#/.-]")  # a name or a word does not start inside another
# what may stand between a sentence's start and its first word: markup, a time, a number
_LINE_LEAD = frozenset(" \t*_`[]()0123456789:")
_MOST_NAMES = 20  # a logbook names a few operators; a pasted list of thousands names none


def _as_word(alternatives: str) -> re.Pattern:
    """`alternatives` matched as a whole word, not inside a handle, a path or another word."""
    return re.compile(rf"(?<![\w@#/.-])(?:{alternatives})(?![\w-])")


def _opens_sentence(text: str, at: int) -> bool:
    """True if the word at `at` is its line's or its sentence's first ("Asked support ...",
    "[09:10] Pinged support", "03:12 Rebooted ops-01", "1) Opened a ticket")."""
    before = at - 1
    while before >= 0 and text[before] in _LINE_LEAD:
        before -= 1
    return before < 0 or text[before] in "\n.!?:#>|-"


@dataclass(frozen=True)
class OperatorNames:
    """taxonomy.yaml's `operator_names`: what shows a name is an operator's, and the word
    it is read as."""

    read_as: str
    not_names: frozenset[str]
    libraries: re.Pattern  # the taxonomy's `library` names: "the DeepSpeed ops" names no one
    defined: re.Pattern  # groups "name" and, where it only counts mid-sentence, "mid"
    always: re.Pattern  # names that are an operator's wherever written ("IT re-imaged ...")

    @classmethod
    def from_taxonomy(cls, taxonomy: dict) -> OperatorNames:
        """From taxonomy.yaml's data: its `operator_names` and its shared `library` spec."""
        def alternatives(patterns: list[str]) -> str:
            return "|".join(f"(?:{p})" for p in patterns)

        section = taxonomy["operator_names"]
        return cls(
            read_as=section["read_as"],
            not_names=frozenset(n.lower() for n in section["not_names"]),
            libraries=re.compile(taxonomy["shared"]["library"]["LOWER"]["REGEX"]),
            defined=re.compile(rf"{_NAME}(?:{alternatives(section['name_then'])}|"
                               rf"(?P<mid>{alternatives(section['name_then_mid_sentence'])}))"),
            always=_as_word(alternatives(section["always"])))

    def of(self, texts: list[str]) -> list[str]:
        """The names `texts` (a whole logbook's, read text by text) give an operator."""
        found = Counter(m["name"] for text in texts for m in self.defined.finditer(text)
                        if not (m.start() and _NOT_BEFORE.match(text, m.start() - 1))
                        and not (m["mid"] and _opens_sentence(text, m.start())))
        lowered = {name.lower(): name for name, _ in found.most_common(_MOST_NAMES)
                   if name.lower() not in self.not_names
                   and not self.libraries.match(name.lower())}
        always = {m[0] for text in texts for m in self.always.finditer(text)}
        if not lowered:
            return sorted(always)
        # a word the logbook also writes in lower case is a word ("Weekly ops" ... "weekly")
        written = re.compile(rf"\b(?:{'|'.join(lowered)})\b")
        words = {word for text in texts for word in written.findall(text)}
        return sorted(always | {name for low, name in lowered.items() if low not in words})


@dataclass(frozen=True)
class ToolNames:
    """taxonomy.yaml's `tool_names`: how a logbook names a tool of its own, and the word its
    names are read as."""

    read_as: str
    not_names: frozenset[str]
    libraries: re.Pattern  # the taxonomy's `library` names: "calls torch.distributed.run"
    defined: tuple[re.Pattern, ...]  # each with a group "name" (apart, they run 3x faster)

    @classmethod
    def from_taxonomy(cls, taxonomy: dict) -> ToolNames:
        """From taxonomy.yaml's `tool_names`, with `operator_names`' words that are no names."""
        section = taxonomy["tool_names"]
        pieces = {"NOUN": f"(?:{section['noun']})", "NAME": section["name"],
                  "MARKED": section["marked_name"]}
        patterns = []
        for pattern in section["defined"]:
            for piece, regex in pieces.items():
                pattern = pattern.replace(piece, regex)
            patterns.append(re.compile(pattern))
        words = section["not_names"] + taxonomy["operator_names"]["not_names"]
        return cls(read_as=section["read_as"],
                   not_names=frozenset(n.lower() for n in words),
                   libraries=re.compile(taxonomy["shared"]["library"]["LOWER"]["REGEX"]),
                   defined=tuple(patterns))

    def of(self, texts: list[str]) -> list[str]:
        """The names `texts` (a whole logbook's) give a tool of the team's, in lower case (a
        tool's name is an identifier: "Tender restarted it" opens a sentence with it)."""
        found = Counter(m["name"].lower() for text in texts for pattern in self.defined
                        for m in pattern.finditer(text))
        return sorted(name for name, _ in found.most_common(_MOST_NAMES)
                      if name not in self.not_names and not self.libraries.match(name))


@dataclass(frozen=True)
class LogbookNames:
    """The names of both roles, read as their words."""

    operators: OperatorNames
    tools: ToolNames

    @classmethod
    def from_taxonomy(cls, taxonomy: dict) -> LogbookNames:
        return cls(OperatorNames.from_taxonomy(taxonomy), ToolNames.from_taxonomy(taxonomy))

    def of(self, texts: Iterable[str]) -> Renaming | None:
        """The renaming of the names `texts` (a whole logbook's) give, or None."""
        texts = [text for text in texts if text]  # read text by text: a 100 MB log not copied
        operators = self.operators.of(texts)
        taken = {operator.lower() for operator in operators}
        tools = [name for name in self.tools.of(texts) if name not in taken]
        if not operators and not tools:
            return None
        words = {name: self.operators.read_as for name in operators}
        words.update((name, self.tools.read_as) for name in tools)
        names = "|".join([*map(re.escape, operators),  # as written; a tool's in any case
                          *(f"(?i:{re.escape(name)})" for name in tools)])
        return Renaming(_as_word(names), words)


@dataclass(frozen=True)
class Renaming:
    """Each mention of a logbook's names, read as its role's word."""

    mention: re.Pattern
    words: dict[str, str]  # name (a tool's in lower case) -> the word it is read as

    def __call__(self, text: str, where: list[int]) -> tuple[str, list[int]]:
        """`text` (normalised, with `where`: each character's offset in the original, and the
        end's) with each mention replaced; the word's characters map onto the name's, its
        last onto the name's last, so a span ending on it ends where the name does."""
        parts: list[str] = []
        at: list[int] = []
        last = 0
        for m in self.mention.finditer(text):
            word = self.words.get(m[0]) or self.words[m[0].lower()]
            parts.append(text[last:m.start()])
            at.extend(where[last:m.start()])
            parts.append(word)
            at.extend(where[min(m.start() + i, m.end() - 1)] for i in range(len(word) - 1))
            at.append(where[m.end() - 1])
            last = m.end()
        if not parts:
            return text, where
        parts.append(text[last:])
        at.extend(where[last:])
        return "".join(parts), at
