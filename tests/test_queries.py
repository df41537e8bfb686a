"""Every named query and view runs; parameters bind; the CLI prints table, CSV and JSON."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from analytics_fixtures import DATE_ONLY, OPT_STYLE, ingest_texts
from click.testing import CliRunner

from logbook_miner.analytics.analyse import (
    QueryError,
    list_queries,
    load_query,
    query_rows,
    run_query,
)
from logbook_miner.cli import main
from logbook_miner.resources import QUERIES
from logbook_miner.sqlfiles import ordered, reads
from logbook_miner.store import VIEWS

REQUIRED = {"restart_timeline", "failures_by_family_week", "mtbf_inputs", "intervention_outcomes",
            "top_evidence", "needs_review", "entries"}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("queries")
    return ingest_texts(folder, {"opt-style": OPT_STYLE, "date-only.md": DATE_ONLY})


def cli(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_every_query_says_what_it_answers():
    names = dict(list_queries())
    assert set(names) >= REQUIRED
    assert all(description and not description.startswith("$") for description in names.values())


@pytest.mark.parametrize("name", [n for n, _ in list_queries()])
def test_every_query_runs_for_all_logbooks_and_for_one(db, name):
    run_query(name, {}, db)
    one = run_query(name, {"logbook": "opt-style"}, db)
    # its notes state no rate (tests/test_rates.py runs reported_rates on the real OPT and
    # BLOOM notes); needs_review has its two unlabelled entries at least
    assert not one.empty or name == "reported_rates"
    if "logbook" in one.columns:
        assert set(one["logbook"]) <= {"opt-style"}


def test_view_files_only_create_temp_objects():
    files = sorted(VIEWS.glob("*.sql"))
    for path in files:
        text = path.read_text()
        assert text.startswith("-- ")
        creates = [line for line in text.splitlines() if line.startswith("CREATE")]
        assert creates and all(line.startswith("CREATE OR REPLACE TEMP ") for line in creates)
        assert path.stem in [line.split()[5].split("(")[0] for line in creates]  # NAME.sql: NAME


def test_each_view_file_runs_after_the_views_it_declares_it_reads():
    order = [path.stem for path in ordered(VIEWS)]
    assert sorted(order) == sorted(path.stem for path in VIEWS.glob("*.sql"))
    for path in ordered(VIEWS):
        text = path.read_text()
        declared = reads(path)
        for name in order:  # a view file read without being declared would be out of order
            if name != path.stem and re.search(rf"\b(FROM|JOIN)\s+{name}\b", text):
                assert name in declared, f"{path.name} reads {name} without saying so"
        for name in declared:
            if name in order:
                assert order.index(name) < order.index(path.stem)


def test_parameters_bind_with_defaults_and_types(db):
    assert load_query("entries").params == {"logbook": None, "text": None, "limit": 50}
    found = run_query("entries", {"text": "nccl", "limit": "5"}, db)  # CLI values are strings
    assert found["seq"].tolist() == [5, 6]
    assert len(run_query("entries", {"limit": "2"}, db)) == 2
    with pytest.raises(QueryError, match="unknown parameter"):
        run_query("entries", {"txt": "nccl"}, db)
    with pytest.raises(QueryError, match="must be a number"):
        run_query("entries", {"limit": "many"}, db)
    with pytest.raises(QueryError, match="no query named"):
        run_query("../views/entry_times", {}, db)


def test_choices_are_declared_in_the_header_with_the_first_the_default(db):
    assert load_query("mtbf_inputs").choices == {"by": ("all", "family")}
    assert load_query("mtbf_inputs").params["by"] == "all"
    families = set(run_query("mtbf_inputs", {"by": "family"}, db)["family"])
    assert families and "all" not in families
    assert len(run_query("needs_review", {"below": "0.9"}, db)) > 0  # a declared number
    assert run_query("needs_review", {"below": None}, db).equals(run_query("needs_review", {}, db))


@pytest.mark.parametrize("run", [run_query, query_rows])
@pytest.mark.parametrize(("name", "params", "error"), [
    # these answered as if unset or empty: `by=famliy` counted all, `logbook=x` nothing
    ("mtbf_inputs", {"by": "famliy"}, "mtbf_inputs: by must be all or family, not 'famliy'"),
    ("needs_review", {"decided": "2"}, "needs_review: decided must be 0 or 1, not '2'"),
    ("incidents", {"logbook": "nosuch"},
     "no such logbook: nosuch (see `logbooks` for what is stored)"),
    # these gave DuckDB's words, naming no parameter ("Could not convert string 'abc' to DOUBLE")
    ("needs_review", {"below": "abc"}, "needs_review: below must be a number, not 'abc'"),
    ("entries", {"limit": "-1"}, "entries: limit must be 0 or more, not -1"),
    ("entries", {"limit": 2.7}, "entries: limit must be a whole number, not 2.7"),
    ("needs_review", {"decided": "true"}, "needs_review: decided must be 0 or 1, not 'true'"),
    ("incidents", {"logbook": ""}, "no such logbook: '' (see `logbooks` for what is stored)"),
])
def test_a_value_a_parameter_cannot_take_is_refused_naming_it(db, run, name, params, error):
    with pytest.raises(QueryError) as refused:
        run(name, params, db)
    assert str(refused.value) == error


def test_text_is_matched_literally(db):
    """'5%' and '_' were LIKE patterns: '_' matched every entry."""
    assert run_query("entries", {"text": "_"}, db).empty
    found = run_query("entries", {"text": "NCCL"}, db)
    assert not found.empty and run_query("entries", {"text": "nccl"}, db).equals(found)


def test_a_parameter_given_twice_is_refused():
    result = cli("query", "incidents", "-p", "logbook=a", "-p", "logbook=b")
    assert (result.exit_code, result.output) == (
        1, "error: --param logbook is given twice; a parameter takes one value\n")


def test_needs_review_lists_labels_under_the_threshold_and_every_unlabelled_entry(db):
    def reasons(below: float) -> dict[int, str]:
        found = run_query("needs_review", {"logbook": "opt-style", "below": below}, db)
        return dict(zip(found["seq"], found["reasons"], strict=True))

    everything = reasons(1.01)
    low = {seq for seq, why in everything.items() if why.startswith("low confidence: ")}
    assert sorted(low) == [1, 3, 4, 5, 6, 7, 8]  # every labelled entry
    assert everything[5] == "low confidence: node_replacement (0.85), network.interconnect (0.9)"
    unlabelled = {2: "no label", 9: "no label"}  # "Throughput normal", "First notes"
    assert {seq: why for seq, why in everything.items() if seq not in low} == unlabelled
    assert reasons(0) == unlabelled  # no threshold hides an entry nothing was found in


def test_top_evidence_gives_one_label_per_code(db):
    top = run_query("top_evidence", {}, db)
    assert top["code"].is_unique
    assert {"restart", "lr_change", "network.interconnect"} <= set(top["code"])


def test_cli_query_prints_json_records_with_stable_keys(db):
    result = cli("query", "restart_timeline", "--param", "logbook=opt-style", "--db", db,
                 "--format", "json")
    assert result.exit_code == 0, result.output
    runs = json.loads(result.output)
    assert [r["run_id"].removeprefix("Run ") for r in runs] == [f"12.{n}" for n in range(16, 21)]
    assert runs[0]["start_ts"] == "2021-11-24T13:00:00" and runs[0]["start_seq"] is None


def test_cli_query_list_csv_and_errors(db):
    listed = cli("query", "--list")
    assert listed.exit_code == 0 and "restart_timeline" in listed.output
    csv = cli("query", "failures_by_family_week", "--db", db, "--format", "csv")
    assert csv.output.splitlines()[0] == "logbook,week,family,incidents,failure_entries,codes"
    bad = cli("query", "entries", "--param", "limit", "--db", db)
    assert bad.exit_code == 1 and bad.output.startswith("error: --param 'limit'")


def test_cli_mtbf_and_simulate(db):
    result = cli("mtbf", "--db", db, "--logbook", "opt-style", "--format", "json")
    row = json.loads(result.output)[0]
    assert {"mtbf_hours", "mtbf_ci_low_hours", "mtbf_ci_high_hours", "failures",
            "observed_hours"} <= set(row)
    assert (row["failures"], row["observed_hours"], row["mtbf_hours"]) == (3, 147.0, 49.0)
    by_family = cli("mtbf", "--db", db, "--by", "family")
    assert by_family.exit_code == 0 and "numerics" in by_family.output
    sim = cli("simulate", "--db", db, "--from-logbook", "opt-style", "--gpus", 992,
              "--usd-per-gpu-hour", 2, "--checkpoint-minutes", 60, "--runs", 200, "--seed", 1,
              "--format", "json")
    estimate = json.loads(sim.output)[0]
    assert (estimate["mtbf_hours"], estimate["mttr_hours"], estimate["runs"]) == (49.0, 4.5, 200)
    assert 0 < estimate["mc_goodput_p05"] <= estimate["mc_goodput_p95"] < 1
    manual = cli("simulate", "--gpus", 8, "--usd-per-gpu-hour", 2, "--mtbf-hours", 100,
                 "--mttr-hours", 1, "--checkpoint-minutes", 30, "--checkpoint-cost-seconds", 60)
    assert manual.exit_code == 0 and "goodput" in manual.output
    missing = cli("simulate", "--usd-per-gpu-hour", 2, "--checkpoint-minutes", 30)
    assert missing.exit_code == 1 and "--gpus" in missing.output


@pytest.mark.parametrize(("flag", "value", "error"), [
    ("--gpus", "-5", "--gpus must be at least 1, not -5"),
    ("--mtbf-hours", "0", "--mtbf-hours must be more than 0, not 0"),
    ("--checkpoint-cost-seconds", "-1.5", "--checkpoint-cost-seconds must be at least 0, not -1.5"),
    ("--days", "inf", "--days must be a finite number, not inf"),
])
def test_simulate_names_the_flag_out_of_range(flag, value, error):
    """The checks are the API's; the CLI words its arguments as flags (they said `gpus`)."""
    given = {"--gpus": "8", "--usd-per-gpu-hour": "2", "--mtbf-hours": "100", "--mttr-hours": "1",
             "--checkpoint-minutes": "30", "--checkpoint-cost-seconds": "60"} | {flag: value}
    result = cli("simulate", *[part for pair in given.items() for part in pair])
    assert (result.exit_code, result.output) == (1, f"error: {error}\n")


def test_queries_folder_holds_no_stray_sql():
    assert all(p.read_text().startswith("-- ") for p in QUERIES.glob("*.sql"))


def test_tables_fit_the_width_and_round_for_reading(monkeypatch):
    import pandas as pd

    from logbook_miner.present.cli_output import render

    monkeypatch.setenv("COLUMNS", "60")
    frame = pd.DataFrame({"logbook": ["opt", "bloom"], "mtbf_hours": [314.8071216722258, 2.0],
                          "failures": [12345, 3], "note": [None, "x"],
                          **{f"wide_column_{i}": [1.0, 2.0] for i in range(6)}})
    text = render(frame, "table")
    assert all(len(line) <= 60 for line in text.splitlines())
    assert "314.8071216722258" not in text and "315" in text and "12,345" in text
    assert "n/a" in text
    assert "more columns: " in text and "wide_column_5" in text
    assert "314.8071216722258" in render(frame, "csv")  # full precision kept for tools


READ_COMMANDS = (["sql", "SELECT 1"], ["query", "incidents"], ["query", "--list"],
                 ["logbooks"], ["show", "opt-style", "2"], ["search", "NCCL timeout"],
                 ["mtbf"], ["mtbf", "--by", "family", "--format", "json"])


def test_read_commands_do_not_load_heavy_libraries(db):
    """Each read command answers with duckdb, click and the formatter; `mtbf` adds numpy and
    scipy for its chi-square interval. pandas, spaCy, Altair and the PDF readers stay
    unloaded (issue 15: fast read commands). One fresh interpreter, checked after each."""
    script = (
        "import json, sys\n"
        "from logbook_miner.cli import main\n"
        "loaded = {}\n"
        "for args in json.loads(sys.argv[2]):\n"
        "    try:\n"
        "        main([*args, '--db', sys.argv[1]])\n"
        "    except SystemExit as exit:\n"
        "        assert not exit.code, args\n"
        "    heavy = {'pandas', 'numpy', 'scipy', 'spacy', 'pypdfium2', 'pdfplumber', 'altair'}\n"
        "    loaded[' '.join(args)] = sorted(heavy & set(sys.modules))\n"
        "print(json.dumps(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(db), json.dumps(READ_COMMANDS)],
                          capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert loaded == {" ".join(args): ["numpy", "scipy"] if args[0] == "mtbf" else []
                      for args in READ_COMMANDS}  # mtbf runs last: it loads them for good


def test_every_command_shows_an_example_in_its_help():
    for name in main.commands:
        assert "Examples:\n    $ logbook " in cli(name, "--help").output, name


def test_tables_read_plain_rows_like_frames():
    import pandas as pd

    from logbook_miner.present.cli_output import render
    from logbook_miner.rows import Rows

    rows = Rows(["logbook", "mtbf_hours", "failures", "note"],
                [("opt", 314.8071216722258, 12345, None), ("bloom", 2.0, 3, "a, b")], 2)
    for fmt in ("table", "csv", "json"):
        assert render(rows, fmt) == render(rows.frame(), fmt), fmt
    assert render(Rows(["x"], [], 0), "table") == render(pd.DataFrame({"x": []}), "table")


def test_fault_families_are_the_taxonomys(db):
    """Order, failures, streams and colours come from taxonomy.yaml's families block alone."""
    import yaml

    from logbook_miner.analytics.analyse import sql
    from logbook_miner.label import families
    from logbook_miner.label.taxonomy import TAXONOMY_PATH
    from logbook_miner.present.charts import family_colour

    taxonomy = yaml.safe_load(TAXONOMY_PATH.read_text(encoding="utf-8"))
    block = taxonomy["families"]
    assert families.families() == block  # the block read alone is the block
    fault_codes = [c for c, spec in taxonomy["codes"].items() if spec["kind"] == "fault"]
    assert {c.split(".")[0] for c in fault_codes} == set(block)
    rows = sql("SELECT family, rank, stream FROM families ORDER BY rank", db=db)
    assert rows["family"].tolist() == list(block)
    assert rows["stream"].tolist() == [f if spec.get("own_stream") else "stop"
                                       for f, spec in block.items()]
    failing = sql("SELECT code FROM (SELECT unnest($codes) AS code) WHERE is_failure_code(code)"
                  .replace("$codes", repr(fault_codes)), db=db)["code"].tolist()
    assert failing == [c for c in fault_codes if block[c.split(".")[0]].get("failures") == "all"
                       or c in (block[c.split(".")[0]].get("failures") or ())]
    scale = family_colour().to_dict()["scale"]
    assert scale["domain"] == [*block, "none"]
    assert scale["range"] == [spec["colour"] for spec in block.values()] + ["#7f7f7f"]


def _code(text: str) -> str:
    """SQL without its comments and string literals."""
    return re.sub(r"'(?:[^']|'')*'", "''", re.sub(r"--[^\n]*", "", text))


def test_every_sql_file_declares_what_it_reads_and_binds_by_name():
    """Each file under queries/ says what it reads, like dbt's ref(); $name is the one style."""
    from logbook_miner import sqlfiles

    files = sorted(QUERIES.rglob("*.sql"))
    tables = re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", sqlfiles.text("store/schema"))
    made_by = {t: t for t in tables} | {name: p.stem for p in files for name in sqlfiles.creates(p)}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("-- "), path
        declared, code = set(reads(path)), _code(text)
        ctes = set(re.findall(r"\b(\w+)\s+AS\s*\(", code))
        used = {n for n in re.findall(r"\b(?:FROM|JOIN)\s+(\w+)\b", code, re.IGNORECASE)
                if n in made_by and n not in ctes}
        used |= {n for n in re.findall(r"\b(\w+)\(", code) if n in made_by}
        undeclared = {n for n in used - set(sqlfiles.creates(path))
                      if n not in declared and made_by[n] not in declared}
        assert not undeclared, f"{path.relative_to(QUERIES)} reads {undeclared} undeclared"
        assert not re.search(r"\?|\$\d", code), f"{path.relative_to(QUERIES)}: not $name"


def test_no_python_module_holds_sql():
    """The package's statements all live in queries/ (issue 14)."""
    import ast

    import logbook_miner

    statement = re.compile(r"\bSELECT\b[^\n]*\bFROM\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE \w+ "
                           r"SET\b|\bCREATE (OR REPLACE )?(TEMP )?(TABLE|VIEW|MACRO)\b|\bCOPY \(|"
                           r"^\s*SET \w+\s*=|\bBEGIN TRANSACTION\b|\bROLLBACK\b|\bCOMMIT\b")
    examples = {("cli.py", 'logbook sql "SELECT logbook, count(*) FROM entries GROUP BY ALL"')}
    root = Path(logbook_miner.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings and statement.search(node.value)
                    and (path.name, node.value) not in examples):
                raise AssertionError(f"{path.relative_to(root)}: SQL in Python: {node.value!r}")
