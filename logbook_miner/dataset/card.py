"""Describe an export: `datapackage.json` (a Frictionless Data Package) and `README.md` (the card).

Everything said comes from data — `data/dataset_schema.yaml` (tables, field
meanings, limitations), `data/taxonomy.yaml` (codes), `data/licences.yaml`
(the sources' licences) — and from the exported rows. Nothing time-dependent
is written, so the same database gives byte-identical files.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import duckdb

from .. import __version__
from ..label.taxonomy import TAXONOMY_PATH
from ..resources import DATA, read_yaml

SCHEMA_PATH = DATA / "dataset_schema.yaml"
LICENCES_PATH = DATA / "licences.yaml"
_TYPES = {"VARCHAR": "string", "INTEGER": "integer", "BIGINT": "integer", "DOUBLE": "number",
          "BOOLEAN": "boolean", "DATE": "date", "TIMESTAMP": "datetime"}
_CSV_LIST = " (in CSV: a list written as [a, b])"
PACKAGE, CARD = "datapackage.json", "README.md"  # what `write` puts beside the tables
FILES = (PACKAGE, CARD)


@cache
def _yaml(path: Path) -> dict:
    """A data file, parsed once per process: an export reads the schema once per table."""
    return read_yaml(path)


def licence_for(logbook: str) -> tuple[str, str]:
    """(licence, source) of a logbook, by the first matching pattern in data/licences.yaml."""
    notes = _yaml(LICENCES_PATH)
    for source in notes["sources"]:
        if fnmatch(logbook, source["pattern"]):
            return source["licence"], source["source"]
    return notes["unknown"], ""


def package_name() -> str:
    """The name every export's datapackage.json carries (data/dataset_schema.yaml)."""
    return _yaml(SCHEMA_PATH)["name"]


def write_placeholder(out: Path, targets: dict[str, Path]) -> None:
    """A datapackage.json naming the tables about to be written, so that an export stopped
    before `write` (Ctrl-C, a full disk) is still known as ours and can be run again."""
    resources = [{"name": table, "path": path.relative_to(out).as_posix()}
                 for table, path in targets.items()]
    (out / PACKAGE).write_text(json.dumps({"name": package_name(), "resources": resources},
                                           indent=2) + "\n", encoding="utf-8")


def write(out: Path, fmt: str, tables: dict[str, tuple[Path, duckdb.DuckDBPyRelation]],
          partition_by: str | None = None) -> None:
    """Write OUT/datapackage.json and OUT/README.md for the tables just exported.

    `tables` maps each table to (where it was written, the rows written there).
    """
    spec = _yaml(SCHEMA_PATH)
    resources, rows = [], {}
    for name, (path, rel) in tables.items():
        fields = list(spec["tables"][name]["fields"])
        if rel.columns != fields:
            raise ValueError(f"{name}: exported columns {rel.columns} differ from "
                             f"{SCHEMA_PATH.name}'s {fields}")
        rows[name] = rel.shape[0]
        resources.append(_resource(name, path, out, fmt, [str(t) for t in rel.types],
                                   partition_by))
    logbooks = _records(tables["logbooks"][1])
    labels = _records(tables["labels"][1])
    package = {
        "name": spec["name"],
        "title": spec["title"],
        "description": spec["description"],
        "version": __version__,
        "licenses": _licences(logbooks),
        "resources": resources,
    }
    text = json.dumps(package, indent=2, ensure_ascii=False) + "\n"
    (out / PACKAGE).write_text(text, encoding="utf-8")
    (out / CARD).write_text(card(spec, resources, rows, logbooks, labels), encoding="utf-8")


def _records(rel: duckdb.DuckDBPyRelation) -> list[dict]:
    return [dict(zip(rel.columns, row, strict=True)) for row in rel.fetchall()]


def _resource(name: str, path: Path, out: Path, fmt: str, types: list[str],
              partition_by: str | None) -> dict:
    """One Data Package resource; a partitioned table lists its files and drops the key column
    (it lives in the folder names, hive style), and with it the keys that use it."""
    table = _yaml(SCHEMA_PATH)["tables"][name]
    fields = [_field(column, kind, text, fmt)
              for (column, text), kind in zip(table["fields"].items(), types, strict=True)
              if column != partition_by]
    schema: dict = {"fields": fields}
    if partition_by:
        files = sorted(p.relative_to(out).as_posix() for p in path.rglob("*") if p.is_file())
        where: str | list[str] = files
    else:
        where = path.relative_to(out).as_posix()
        if table.get("primary_key"):
            schema["primaryKey"] = table["primary_key"]
        schema["foreignKeys"] = [
            {"fields": fk["fields"],
             "reference": {"resource": fk["table"], "fields": fk["reference"]}}
            for fk in table.get("foreign_keys", [])
        ]
    resource = {"name": name, "title": table["title"], "description": _flat(table["description"]),
                "path": where, "format": fmt, "encoding": "utf-8", "schema": schema}
    if partition_by:
        resource["partitioning"] = {"style": "hive", "fields": [partition_by]}
    return resource


def _field(name: str, duck_type: str, description: str, fmt: str) -> dict:
    if duck_type.endswith("[]"):
        kind = "string" if fmt == "csv" else "array"
        description += _CSV_LIST if fmt == "csv" else ""
    else:
        kind = _TYPES.get(duck_type, "any")
    return {"name": name, "type": kind, "description": description}


def _licences(logbooks: list[dict]) -> list[dict]:
    found: dict[str, list[str]] = {}
    for lb in logbooks:
        licence, source = licence_for(lb["logbook"])
        if source:
            found.setdefault(f"{licence}|{source}", []).append(lb["logbook"])
    return [{"name": key.split("|")[0], "title": f"{key.split('|')[1]} ({', '.join(ids)})"}
            for key, ids in sorted(found.items())]


def _flat(text: str) -> str:
    return " ".join(text.split())


def card(spec: dict, resources: list[dict], rows: dict[str, int], logbooks: list[dict],
         labels: list[dict]) -> str:
    """The dataset card: what the data is, how it was made, where each row came from."""
    taxonomy = _yaml(TAXONOMY_PATH)
    parts = [
        f"# {spec['title']}\n\n{_flat(spec['description'])}\n",
        _tables_section(resources, rows),
        _method_section(taxonomy, labels),
        _codes_section(taxonomy, labels),
        _logbooks_section(logbooks),
        "## Provenance\n\nEvery row that comes from a document names its logbook, entry "
        "(`seq`), the entry's PDF pages and the character offsets of its evidence: "
        "`entries.<field>[start:end] == evidence`. `logbooks.sha256` identifies the exact file.\n",
        "## Known limitations\n\n" + "".join(f"- {_flat(t)}\n" for t in spec["limitations"]),
        _licence_section(logbooks),
    ]
    return "\n".join(parts)


def _code(text: str) -> str:
    """Any text as a Markdown code span: a fence longer than its longest backtick run.

    Inside a code span HTML is literal, so a logbook named `<img onerror=...>`
    stays text wherever the card is rendered.
    """
    text = _flat(str(text))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]|])")  # what could start markup mid-line


def _text(text: str) -> str:
    """Plain text for a Markdown table cell: Markdown marks escaped, HTML as entities."""
    text = html.escape(_flat(str(text)), quote=False)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _table(header: list[str], body: list[list]) -> str:
    def line(cells: list) -> str:
        return "| " + " | ".join("" if c is None else str(c).replace("|", "\\|") for c in cells)
    return "\n".join([line(header) + " |", line(["---"] * len(header)) + " |",
                      *(line(r) + " |" for r in body)]) + "\n"


def _tables_section(resources: list[dict], rows: dict[str, int]) -> str:
    body = [[f"`{r['name']}`", _where(r["path"]), rows[r["name"]], r["description"]]
            for r in resources]
    return ("## Tables\n\nSchemas, keys and field meanings: `datapackage.json`.\n\n"
            + _table(["table", "file", "rows", "what"], body))


def _where(path: str | list[str]) -> str:
    if isinstance(path, str):
        return f"`{path}`"
    return f"`{path[0].split('/')[0]}/` ({len(path)} files)" if path else "(no files)"


def _method_section(taxonomy: dict, labels: list[dict]) -> str:
    sources = Counter(lb["source"].split(":")[0] for lb in labels)
    meaning = {"taxonomy": "the rule-based classifier (cues in data/taxonomy.yaml)",
               "context": "a recurrence (\"same error again\"): the earlier entry's fault "
                          "(data/context.yaml)",
               "trends": "a fault told only by numbers: a measure that moved the bad way "
                         "(data/trends.yaml)",
               "review": "added by a person in review"}
    body = [[f"`{s}`", meaning.get(s, ""), n] for s, n in sorted(sources.items())]
    body.append(["verified", "decided by a person's review (accept or replacement)",
                 sum(lb["verified"] for lb in labels)])
    return (f"## How it was made\n\nlogbook-miner {__version__}: read (PDFium or pdfplumber, "
            "markdown-it-py, python-docx, lxml) → segment into entries → classify (spaCy "
            "rules, taxonomy "
            f"{taxonomy.get('version', 'unversioned')}) → DuckDB store → `logbook export`. "
            "A person's review decisions (`logbook review --apply`) override the classifier "
            "and are marked `verified`.\n\nLabel sources:\n\n"
            + _table(["source", "meaning", "labels"], body))


def _codes_section(taxonomy: dict, labels: list[dict]) -> str:
    counts = Counter(lb["code"] for lb in labels)  # one label per code and entry
    verified = Counter(lb["code"] for lb in labels if lb["verified"])
    codes = taxonomy["codes"]
    extra = sorted(set(counts) - set(codes))
    body = [[f"`{code}`", spec["kind"], spec["description"], counts[code], verified[code]]
            for code, spec in codes.items()]
    body += [[f"`{code}`", "", "(not in the taxonomy)", counts[code], verified[code]]
             for code in extra]
    return (f"## Codes (taxonomy {taxonomy.get('version', '')})\n\n"
            + _table(["code", "kind", "meaning", "labels (= entries)", "verified"], body))


def _logbooks_section(logbooks: list[dict]) -> str:
    body = [[_code(lb["logbook"]), _text(Path(lb["path"]).name), _code(lb["sha256"]),
             lb["format"], lb["pages"], lb["entries"], _dates(lb)] for lb in logbooks]
    return ("## Logbooks\n\n"
            + _table(["logbook", "file", "SHA-256", "format", "pages", "entries", "dates"], body))


def _dates(lb: dict) -> str:
    if lb["first_date"] is None:
        return "undated"
    return f"{lb['first_date']} – {lb['last_date']}"


def _licence_section(logbooks: list[dict]) -> str:
    body = [[_code(lb["logbook"]), *map(_text, licence_for(lb["logbook"]))] for lb in logbooks]
    return ("## Licences\n\nThe text columns quote the source documents, which belong to their "
            "authors; their licences (data/licences.yaml) govern reuse. The pipeline's code is "
            "MIT.\n\n" + _table(["logbook", "licence", "source"], body))
