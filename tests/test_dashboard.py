"""The dashboard: built from a real store by the real ingest path, checked in a real browser.

The browser tests drive Debian's headless `chromium` over the DevTools protocol
(tests/browser.py) with the network cut off; they skip only when `chromium` is
not on PATH (CI installs it: `apt-get install -y chromium`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from logbook_miner.analytics.cost import simulate_cost
from logbook_miner.cli import main
from logbook_miner.ingest import ingest
from logbook_miner.label import families
from logbook_miner.present.dashboard import CHARTS, PAGE_DIR, build, chart_specs, script_json
from logbook_miner.present.dashboard_data import load

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
PWNED = '<script>window.__pwned=1</script> and <img src=x onerror="window.__pwned=1">'
HOSTILE_HEADING = '2024-03-08 11:00 UTC <img src=x onerror="window.__pwned=1"> eval hung'
LOGBOOK = f"""# Cluster-7 training logbook

## 2024-03-01 09:00 UTC

Launched the run on 64 nodes (512 GPUs). lm loss: 2.91, grad norm: 1.20, TFLOPs: 150.

## 2024-03-03 14:30 UTC

Lost a GPU on node 12 (Xid 79), the job crashed with a CUDA error. Excluded the node and
restarted from the latest checkpoint.

## 2024-03-03 16:00 UTC

Restarted the job from checkpoint 1200. lm loss: 2.71, grad norm: 0.95, TFLOPs: 148.

## 2024-03-06 02:10 UTC

NCCL timeout on all ranks, the job hung. Restarted after a health check of the IB fabric.

## {HOSTILE_HEADING}

Note from the on-call: {PWNED} were in the log. The job hung at eval; restarted it.
lm loss: 2.55, grad norm: 0.80, TFLOPs: 149.

## 2024-03-10 08:00 UTC

Uncorrectable ECC error on node 31, the job crashed. Replaced the node and restarted.
"""
QUIET = """# Quiet logbook

## 2024-05-01 09:00 UTC

Launched the run. All good.

## 2024-05-04 09:00 UTC

Status: training proceeds, nothing to report.
"""


def _store(folder: Path, name: str, text: str) -> Path:
    source = folder / f"{name}.md"
    source.write_text(text, encoding="utf-8")
    db = folder / f"{name}.duckdb"
    [result] = ingest([source], db=db)
    assert result.status == "ingested", result.summary()
    return db


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> dict[str, Path]:
    """One store with failures (and a hostile note), one without; both built as pages."""
    root = tmp_path_factory.mktemp("dashboard")
    busy, quiet = _store(root, "cluster7", LOGBOOK), _store(root, "quiet", QUIET)
    return {"db": busy, "page": build(busy, root / "busy"),
            "quiet_db": quiet, "quiet_page": build(quiet, root / "quiet")}


def _payload(page: Path) -> dict:
    html = page.read_text(encoding="utf-8")
    block = re.search(r'<script type="application/json" id="dashboard-data">(.*?)</script>',
                      html, re.S).group(1)
    assert "<" not in block and ">" not in block and "&" not in block
    return json.loads(block)


def test_page_and_images_are_written(site):
    page = site["page"]
    markup = re.sub(r"<script\b[^>]*>.*?</script>", "", page.read_text(encoding="utf-8"),
                    flags=re.S)
    assert not re.search(r"<(script|img|link|iframe|object)\b", markup), "the page loads nothing"
    assert set(re.findall(r'href="([^"/]+)/', markup)) == {"charts"}
    assert page.read_text(encoding="utf-8").count("<script") == 3  # bundle, data, page.js
    for name in CHARTS:
        assert (page.parent / "charts" / f"{name}.svg").read_text().startswith("<svg")
        assert (page.parent / "charts" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
    assert set(_payload(page)["specs"]) == set(CHARTS)


def test_hostile_text_never_reaches_the_html_as_markup(site):
    html = site["page"].read_text(encoding="utf-8")
    assert "window.__pwned" in html  # the note is there, as escaped JSON ...
    assert "<script>window.__pwned" not in html and "<img src=x" not in html  # ... never as tags
    entry = next(e for e in _payload(site["page"])["entries"] if "__pwned" in e["text"])
    assert PWNED in entry["text"]


def test_script_json_escapes_what_could_end_a_script():
    text = script_json({"a": "</script><!-- & -->"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & -->"}


def test_logbook_without_failures_says_so(site):
    html = site["quiet_page"].read_text(encoding="utf-8")
    assert "No failures recorded" in html  # header figure
    specs = json.dumps(_payload(site["quiet_page"])["specs"])
    assert "No dated failures or restarts recorded" in specs
    assert "No failures recorded" in specs


@pytest.mark.parametrize("store", ["db", "quiet_db"])
def test_chart_specs_are_valid_vega_lite(site, store):
    """build() skips Altair's schema check for speed; the builders are checked here instead."""
    layout = yaml.safe_load((PAGE_DIR / "layout.yaml").read_text(encoding="utf-8"))
    specs = chart_specs(load(site[store]), layout, validate=True)
    assert set(specs) == set(CHARTS)


@pytest.mark.slow
def test_a_big_store_makes_a_small_page(tmp_path):
    """100,000 entries: capped and bucketed in SQL, so the page stays a few MB."""
    from bigstore import make

    page = build(make(tmp_path / "big.duckdb"), tmp_path / "out")
    payload = _payload(page)
    assert len(payload["markers"]) == 2000 and len(payload["entries"]) <= 2000
    rows = [len(values) for spec in payload["specs"].values()
            for values in spec.get("datasets", {}).values()]
    assert max(rows) < 5000
    assert page.stat().st_size < 8_000_000


def test_unknown_logbook_is_an_error(site, tmp_path):
    with pytest.raises(ValueError, match="no such logbook: nope"):
        build(site["db"], tmp_path, logbooks=["nope"])


def test_cli_writes_the_page(site, tmp_path):
    result = CliRunner().invoke(main, ["dashboard", "--db", str(site["db"]),
                                       "--out", str(tmp_path / "d"), "--logbook", "cluster7"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d" / "index.html").is_file()
    assert str(tmp_path / "d" / "index.html") in result.output
    quick = CliRunner().invoke(main, ["dashboard", "--db", str(site["db"]), "--no-images",
                                      "--out", str(tmp_path / "q")])
    assert quick.exit_code == 0, quick.output
    assert not (tmp_path / "q" / "charts").exists()
    assert 'href="charts/' not in (tmp_path / "q" / "index.html").read_text(encoding="utf-8")


# --- in the browser ----------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None,
                                    reason="chromium not on PATH (apt-get install -y chromium)")
FIND_MARKER = """(() => {
  const want = %s;
  const walk = (n) => {
    if (n.datum && n.datum.id === want && n.mark && n.mark.marktype === 'symbol') return n;
    for (const k of (n.items || [])) { const hit = walk(k); if (hit) return hit; }
    return null;
  };
  const item = walk(dashboard.views.timeline.scenegraph().root);
  const box = item._svg.getBoundingClientRect();
  return {x: box.x + box.width / 2 + scrollX, y: box.y + box.height / 2 + scrollY,
          size: item.size};
})()"""


@pytest.fixture(scope="module")
def browser(site):
    from browser import Browser

    with Browser() as b:
        b.open(site["page"].as_uri())
        yield b


def _panel(b) -> dict:
    return b.evaluate("""({title: document.getElementById('entry-title').textContent,
                           note: document.getElementById('entry-note').textContent,
                           labels: document.getElementById('entry-labels').textContent,
                           row: document.querySelector('#ledger tr.selected')?.dataset.id,
                           signal: dashboard.views.timeline.signal('selected_id')})""")


def _entry(site, needle: str) -> dict:
    return next(e for e in _payload(site["page"])["entries"] if needle in e["text"])


@pytest.mark.browser
@needs_chromium
def test_every_chart_renders_offline_without_errors(browser, site):
    drawn = browser.evaluate("""Array.from(document.querySelectorAll('[data-chart]'))
        .map(el => [el.dataset.chart, !!el.querySelector('svg, canvas')])""")
    assert dict(drawn) == dict.fromkeys(CHARTS, True)
    assert browser.errors() == []
    assert browser.requests() == [site["page"].as_uri()]


@pytest.mark.browser
@needs_chromium
def test_click_on_a_marker_shows_its_note(browser, site):
    entry = _entry(site, "NCCL timeout")
    spot = browser.evaluate(FIND_MARKER % json.dumps(entry["id"]))
    browser.click(spot["x"], spot["y"])
    panel = _panel(browser)
    assert panel["note"].startswith("NCCL timeout on all ranks")
    assert "network.interconnect" in panel["labels"] and "“NCCL timeout”" in panel["labels"]
    assert panel["row"] == entry["id"] and panel["signal"] == entry["id"]
    assert browser.evaluate(FIND_MARKER % json.dumps(entry["id"]))["size"] > spot["size"]


@pytest.mark.browser
@needs_chromium
def test_tab_and_enter_on_a_marker_button_show_its_note(browser):
    browser.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    for _ in range(60):
        browser.key("Tab", key_code=9)
        focused = browser.evaluate("document.activeElement.closest('#markers') ? "
                                   "document.activeElement.dataset.id : null")
        if focused:
            break
    else:
        pytest.fail("Tab never reached a marker button")
    browser.key("Enter", key_code=13)
    panel = _panel(browser)
    assert panel["signal"] == focused and panel["row"] == focused
    assert browser.evaluate(f"document.querySelector('[data-id=\"{focused}\"]')"
                            ".getAttribute('aria-pressed')") == "true"


@pytest.mark.browser
@needs_chromium
def test_hostile_text_renders_as_text(browser, site):
    """Heading and note carry <script> and <img onerror>: tooltip, panel and ledger show text."""
    entry = _entry(site, "__pwned")
    spot = browser.evaluate(FIND_MARKER % json.dumps(entry["id"]))
    browser.click(spot["x"], spot["y"])  # the mouse also hovers: the tooltip opens
    tooltip = browser.evaluate("document.getElementById('vg-tooltip-element').textContent")
    assert HOSTILE_HEADING in tooltip
    panel = _panel(browser)
    assert panel["title"] == HOSTILE_HEADING and PWNED in panel["note"]
    row = browser.evaluate(f"document.querySelector('#ledger tr[data-id=\"{entry['id']}\"]')"
                           ".textContent")
    assert HOSTILE_HEADING in row
    injected = browser.evaluate("""document.querySelectorAll(
        '#entry-panel :is(script, img), #ledger :is(script, img), #markers :is(script, img),'
        + ' #vg-tooltip-element :is(script, img)').length""")
    assert injected == 0
    assert browser.evaluate("typeof window.__pwned") == "undefined"


@pytest.mark.browser
@needs_chromium
def test_ledger_filter(browser):
    browser.evaluate("document.getElementById('ledger-filter').focus()")
    browser.send("Input.insertText", text="ECC")
    shown = browser.evaluate("""Array.from(document.querySelectorAll('#ledger tbody tr'))
        .filter(r => !r.hidden).map(r => r.textContent)""")
    assert len(shown) == 1 and "hardware.memory" in shown[0]
    browser.evaluate("{ const f = document.getElementById('ledger-filter'); f.value = '';"
                     " f.dispatchEvent(new Event('input')); }")


@pytest.mark.browser
@needs_chromium
def test_cost_simulator_agrees_with_simulate_cost(browser):
    inputs = {"gpus": 1024, "failures_per_day": 0.5, "mttr_h": 1.5, "interval_min": 90,
              "checkpoint_cost_s": 120, "usd_per_gpu_hour": 2.5, "days": 20}
    setters = "".join(f".signal('{k}', {v})" for k, v in inputs.items())
    text = browser.evaluate(f"""dashboard.views.cost{setters}.runAsync().then(() =>
        Array.from(document.querySelectorAll('#chart-cost text'))
             .map(t => t.textContent).find(t => t.startsWith('At a ')))""")
    expected = simulate_cost(gpus=1024, usd_per_gpu_hour=2.5, mtbf_hours=48, mttr_hours=1.5,
                             checkpoint_minutes=90, checkpoint_cost_seconds=120, days=20)
    numbers = re.search(r"([\d,]+) GPU-hours lost \(\$([\d,]+)\), goodput ([\d.]+)%", text)
    lost, usd, share = (float(g.replace(",", "")) for g in numbers.groups())
    assert lost == pytest.approx(expected.lost_gpu_hours, abs=1)
    assert usd == pytest.approx(expected.lost_usd, abs=1)
    assert share == pytest.approx(expected.goodput * 100, abs=0.01)


COST_DATUM = """(() => {
  const walk = (n) => {
    if (n.datum && typeof n.datum.text === 'string' && n.datum.text.startsWith('At a ')) return n;
    for (const k of (n.items || [])) { const hit = walk(k); if (hit) return hit; }
    return null;
  };
  return walk(dashboard.views.cost.scenegraph().root).datum;
})()"""


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("inputs", [
    {"gpus": 1024, "failures_per_day": 0.5, "mttr_h": 1.5, "interval_min": 90,
     "checkpoint_cost_s": 120, "usd_per_gpu_hour": 2.5, "days": 20},
    {"gpus": 16384, "failures_per_day": 9.5, "mttr_h": 48, "interval_min": 5,  # failures eat it
     "checkpoint_cost_s": 1800, "usd_per_gpu_hour": 10, "days": 1},
    {"gpus": 8, "failures_per_day": 30, "mttr_h": 0, "interval_min": 1440,  # C >= 2M: tau = M
     "checkpoint_cost_s": 7200, "usd_per_gpu_hour": 0.1, "days": 180},
])
def test_the_pages_simulator_computes_what_python_computes(browser, inputs):
    """Every quantity the sliders drive equals simulate_cost's for the same inputs (issue 14)."""
    setters = "".join(f".signal('{k}', {v})" for k, v in inputs.items())
    page = browser.evaluate(f"dashboard.views.cost{setters}.runAsync().then(() => {COST_DATUM})")
    python = simulate_cost(gpus=inputs["gpus"], usd_per_gpu_hour=inputs["usd_per_gpu_hour"],
                           mtbf_hours=24 / inputs["failures_per_day"], mttr_hours=inputs["mttr_h"],
                           checkpoint_minutes=inputs["interval_min"],
                           checkpoint_cost_seconds=inputs["checkpoint_cost_s"], days=inputs["days"])
    quantities = ("wall_hours", "expected_failures", "repair_hours", "rework_hours",
                  "checkpoint_hours", "goodput", "useful_hours", "lost_gpu_hours", "lost_usd",
                  "total_usd", "daly_checkpoint_minutes")
    assert {q: page[q] for q in quantities} == pytest.approx(
        {q: getattr(python, q) for q in quantities}, rel=1e-12, abs=1e-9)


@pytest.mark.browser
@needs_chromium
def test_screenshot_and_empty_state(browser, site):
    entry = _entry(site, "Uncorrectable ECC")
    browser.evaluate(f"dashboard.showEntry({json.dumps(entry['id'])})")
    browser.screenshot(ARTIFACTS / "dashboard.png")
    browser.open(site["quiet_page"].as_uri())
    drawn = browser.evaluate("""Array.from(document.querySelectorAll('[data-chart]'))
        .map(el => !!el.querySelector('svg, canvas'))""")
    assert all(drawn) and len(drawn) == len(CHARTS)
    assert "No failures recorded" in browser.evaluate("document.querySelector('.kpis').textContent")
    assert browser.errors() == []
    browser.screenshot(ARTIFACTS / "dashboard-empty.png")


# --- at 1, 7 and 30 logbooks ---------------------------------------------------------------

# The screenshots in docs/ are regenerated on request (LOGBOOK_UPDATE_DOCS=1), so an
# ordinary test run leaves the checkout as it was; otherwise they go to test-artifacts/.
DOCS = (Path(__file__).resolve().parents[1] / "docs" if os.environ.get("LOGBOOK_UPDATE_DOCS")
        else ARTIFACTS)
UNDATED = """# Undated logbook

## Launch

Launched the run on 16 nodes. The job crashed with a CUDA error; restarted it.

## Later

NCCL timeout, the job hung. Restarted after a health check.
"""
AXIS_OVERLAPS = """Array.from(document.querySelectorAll('[data-chart] .role-axis'))
.flatMap(axis => {
  const boxes = Array.from(axis.querySelectorAll('.role-axis-label text'))
    .filter(t => t.textContent && getComputedStyle(t).opacity !== '0' &&
                 t.getAttribute('opacity') !== '0')
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  const hits = [];
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
    if (r.left < s.right - 0.5 && s.left < r.right - 0.5 &&
        r.top < s.bottom - 0.5 && s.top < r.bottom - 0.5) hits.push(a + ' / ' + b);
  }));
  return hits;
})"""
HEADER = """(() => {
  const shown = Array.from(document.querySelectorAll('.kpis[data-logbook]'))
    .filter(d => d.getClientRects().length > 0);  // drawn, not merely not hidden
  return {count: shown.length, logbook: shown[0]?.dataset.logbook,
          select: document.getElementById('logbook-select').value,
          figures: Array.from(shown[0].querySelectorAll('dd')).map(d => d.textContent)};
})()"""


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> dict[str, object]:
    """29 small generated logbooks and one without dates, in one store."""
    from logbook_miner.generate import generate

    root = tmp_path_factory.mktemp("many")
    docs = [generate(root / f"g{i}", seed=i, style="markdown", days=2 + i % 4, nodes=8 + 8 * i,
                     mtbf_hours=8 + 3 * i).document for i in range(29)]
    (root / "undated-run.md").write_text(UNDATED, encoding="utf-8")
    db = root / "many.duckdb"
    results = ingest([*docs, root / "undated-run.md"], db=db)
    assert all(r.status == "ingested" for r in results)
    names = [d.stem for d in docs]
    return {"db": db, "root": root, "sets": {1: names[:1], 7: [*names[:6], "undated-run"],
                                             30: [*names, "undated-run"]}}


def _header_alone(db: Path, logbook: str) -> list[str]:
    """The header figures of a page built from `logbook` alone: what its own row must say."""
    from logbook_miner.present.dashboard import kpis

    layout = yaml.safe_load((PAGE_DIR / "layout.yaml").read_text(encoding="utf-8"))
    return [text for k in kpis(load(db, [logbook]), layout, logbook)
            for text in (k["value"], k["note"])]


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("count", [1, 7, 30])
def test_per_logbook_header_and_no_overlap(many, count):
    """Header and simulator show one logbook; axis labels never overlap; markers wrap."""
    from browser import Browser

    chosen = many["sets"][count]
    page = build(many["db"], many["root"] / f"page{count}", logbooks=chosen, images=False)
    with Browser() as b:
        b.open(page.as_uri())
        assert b.errors() == []
        assert b.evaluate(AXIS_OVERLAPS) == []
        header = b.evaluate(HEADER)
        assert header["count"] == 1 and header["logbook"] == header["select"]
        assert header["figures"] == _header_alone(many["db"], header["logbook"])
        first = header["logbook"]
        if count > 1:  # the selector switches the header and the simulator to that logbook
            other = next(lb for lb in chosen if lb != first)
            b.evaluate(f"(() => {{ const s = document.getElementById('logbook-select');"
                       f" s.value = {json.dumps(other)};"
                       f" s.dispatchEvent(new Event('change')); }})()")
            b.evaluate("dashboard.views.cost.runAsync().then(() => true)")
            header = b.evaluate(HEADER)
            assert header["logbook"] == other and header["count"] == 1
            assert header["figures"] == _header_alone(many["db"], other)
            wanted = _payload(page)["simulator"][other]
            for name in ("gpus", "failures_per_day", "mttr_h", "checkpoint_cost_s"):
                assert b.evaluate(f"dashboard.views.cost.signal('{name}')") == wanted[name]
            b.evaluate(f"dashboard.chooseLogbook({json.dumps(first)}).then(() => true)")
        legend = b.evaluate("""Array.from(document.querySelectorAll(
            '#chart-cumulative .role-legend-label text')).map(t => t.textContent)""")
        lines = {r["logbook"] for r in next(
            v for v in _payload(page)["specs"]["cumulative"]["datasets"].values()
            if v and "total" in v[0])}
        assert set(legend) & set(chosen) <= lines and "undated-run" not in legend
        if "undated-run" in chosen:
            assert "undated-run (no dated entries)" in b.evaluate(
                "document.getElementById('undated').textContent")
        rows = b.evaluate("""(() => {
            const box = document.getElementById('markers').getBoundingClientRect();
            const inside = Array.from(document.querySelectorAll('#markers button'))
              .map(x => x.getBoundingClientRect());
            return {wide: inside.every(r => r.right <= box.right + 0.5),
                    cut: inside.some(r => r.top < box.bottom - 2 && r.bottom > box.bottom + 2)};
        })()""")
        assert rows == {"wide": True, "cut": False}
        b.screenshot(DOCS / f"dashboard-{count}.png")


DRAWN = """(() => {
  const found = [];
  const walk = (n) => {
    if (n.mark && n.mark.role === 'mark' && n.datum) {
      const plain = {_x: n.x};  // dates as milliseconds: a Date crosses to Python as {}
      Object.entries(n.datum).forEach(([k, v]) => { plain[k] = v instanceof Date ? +v : v; });
      found.push([n.mark.marktype, plain]);
    }
    (n.items || []).forEach(walk);
  };
  walk(dashboard.views[%s].scenegraph().root);
  return found;
})()"""


def _drawn(b, chart: str, marktype: str, field: str) -> list[dict]:
    """The data of the `marktype` marks the chart draws that carry `field` (`_x`: where)."""
    return [datum for kind, datum in b.evaluate(DRAWN % json.dumps(chart))
            if kind == marktype and field in datum]


def _notes(b, chart: str) -> list[str]:
    """The empty-state notes the chart draws."""
    return sorted(d["m"] for d in _drawn(b, chart, "text", "m"))


@pytest.mark.browser
@needs_chromium
def test_family_chart_follows_the_selector_and_pools_no_logbooks(many):
    """Per family, the chart shows the picked logbook's figures alone (issue 15, item 6)."""
    from browser import Browser

    chosen = many["sets"][7]
    page = build(many["db"], many["root"] / "families", logbooks=chosen, images=False)
    with Browser() as b:
        b.open(page.as_uri())
        shown = set()
        for logbook in chosen:
            b.evaluate(f"dashboard.chooseLogbook({json.dumps(logbook)}).then(() => true)")
            drawn = sorted({(d["logbook"], d["family"], d["mtbf"])
                            for d in _drawn(b, "reliability", "symbol", "family")})
            alone = load(many["db"], [logbook]).families  # built from this logbook only
            wanted = [] if alone.empty else sorted(
                (logbook, r.family, pytest.approx(r.mtbf)) for r in alone.itertuples())
            assert drawn == wanted, logbook
            shown |= {family for _, family, _ in drawn}
        assert len(shown) > 1 and b.errors() == []


LEGEND = """Array.from(document.querySelectorAll('#chart-%s .role-legend-label text'))
    .map(t => t.textContent)"""
SHOWN_AXIS_LABELS = """Array.from(document.querySelectorAll('#chart-%s .role-axis-label text'))
    .filter(t => t.getAttribute('opacity') !== '0').map(t => t.textContent)"""


@pytest.mark.browser
@needs_chromium
def test_outcome_and_fault_mix_charts_follow_the_selector_and_pool_no_logbooks(many):
    """Intervention outcomes, faults per week and the Pareto of codes show the picked
    logbook's counts alone, equal to a page built from it alone (issue 15, item 6); a
    logbook with none says so, and each chart keeps its size from logbook to logbook."""
    from browser import Browser

    chosen = many["sets"][7]
    page = build(many["db"], many["root"] / "counts", logbooks=chosen, images=False)
    sizes, seen = set(), {"outcomes": set(), "pareto": set(), "weekly": set(), "notes": set()}
    with Browser() as b:
        b.open(page.as_uri())
        for logbook in chosen:
            b.evaluate(f"dashboard.chooseLogbook({json.dumps(logbook)}).then(() => true)")
            alone = load(many["db"], [logbook])  # built from this logbook only
            shares = sorted((d["logbook"], d["code"], d["outcome"], d["n"])
                            for d in _drawn(b, "outcomes", "rect", "outcome"))
            assert shares == sorted((logbook, r.code, r.outcome, r.n)
                                    for r in alone.outcomes.itertuples()), logbook
            pareto = [(d["logbook"], d["code"], d["n"], pytest.approx(d["cumulative"]))
                      for d in sorted(_drawn(b, "fault_mix", "rect", "code"),
                                      key=lambda d: d["_x"])]  # left to right
            assert pareto == [(logbook, r.code, r.n, r.cumulative)
                              for r in alone.pareto.itertuples()], logbook
            assert set(alone.pareto["code"]) <= set(b.evaluate(SHOWN_AXIS_LABELS % "fault_mix"))
            weekly = sorted((d["utcyearmonthdatehoursminutes_week"], d["family"], d["n"])
                            for d in _drawn(b, "fault_mix", "rect", "sum_n"))
            assert weekly == sorted((int(r.week.timestamp() * 1000), r.family, r.n)
                                    for r in alone.fault_mix.itertuples()), logbook
            assert _notes(b, "outcomes") == (
                ["No dated interventions in this logbook"] if alone.outcomes.empty else
                ["No failure followed an intervention"] if alone.outcomes["median_h"].isna().all()
                else [])
            assert _notes(b, "fault_mix") == sorted(
                [*(["No faults in this logbook"] if alone.pareto.empty else []),
                 *(["No dated fault labels in this logbook"] if alone.fault_mix.empty else [])])
            assert b.evaluate(LEGEND % "outcomes") == [
                o for o in ("held", "recurred", "censored") if o in set(alone.outcomes["outcome"])]
            assert b.evaluate(LEGEND % "fault_mix") == [  # the taxonomy's order
                f for f in families.colours() if f in set(alone.pareto["family"])]
            sizes.add(b.evaluate("""['outcomes', 'fault_mix'].map(name => {
                const box = document.querySelector('#chart-' + name + ' svg')
                  .getBoundingClientRect();
                return [box.width, box.height]; }).flat().join()"""))
            seen["outcomes"] |= set(shares)
            seen["pareto"] |= {bar[:3] for bar in pareto}
            seen["weekly"] |= set(weekly)
            seen["notes"] |= set(_notes(b, "outcomes") + _notes(b, "fault_mix"))
        assert all(len(found) > 1 for found in seen.values()), seen
        assert len(sizes) == 1 and b.errors() == [] and b.evaluate(AXIS_OVERLAPS) == []


def test_the_notes_reported_rate_is_shown_and_priced(tmp_path, shared):
    """OPT-175B's four notes merged: entries show few stops, the notes report ~2 a day."""
    from logbook_miner.present.dashboard import cost_defaults, kpis

    db = tmp_path / "opt.duckdb"
    notes = sorted((shared / "logbooks" / "md").glob("opt-175b-*.md"))
    [result] = ingest(notes, db=db, as_one="opt-175b")
    assert result.status == "ingested", result.summary()
    layout = yaml.safe_load((PAGE_DIR / "layout.yaml").read_text(encoding="utf-8"))
    data = load(db)
    header = {k["label"]: k for k in kpis(data, layout, "opt-175b")}
    reported = header["MTBF the notes report"]
    hours = float(reported["value"].removesuffix(" h"))
    assert 6 <= hours <= 24
    assert "entries undercount" in reported["note"]
    start = cost_defaults(data, "opt-175b")
    assert start["failures_per_day"] == pytest.approx(24 / hours, rel=0.01)
    assert start["reported"] == ["failures_per_day"]


COVERED = """(() => {
  const panel = document.querySelector('.entry-panel');
  panel.scrollIntoView();
  const r = panel.getBoundingClientRect(), hits = [];
  for (let y = r.top + 8; y < Math.min(r.bottom, innerHeight) - 4; y += 16) {
    const at = document.elementFromPoint(r.left + 12, y);
    if (at && !panel.contains(at)) hits.push(at.tagName);
  }
  return hits;
})()"""


@pytest.mark.browser
@needs_chromium
def test_a_wide_timeline_scrolls_in_its_column_and_never_covers_the_note(shared, tmp_path):
    """Long lane names in a window just wide enough for two columns (1250 px): the timeline
    and its legend scroll in their column; the note panel beside them stays uncovered."""
    from browser import Browser

    names = ["bloom-tr11-176b", "cpm-live", "opt-175b-10_percent_update",
             "opt-175b-27_percent_update"]
    db = tmp_path / "x.duckdb"
    ingest([shared / "logbooks" / "md" / f"{name}.md" for name in names], db=db)
    page = build(db, tmp_path / "page", images=False)
    with Browser() as b:
        b.open(page.as_uri())
        b.send("Emulation.setDeviceMetricsOverride", width=1250, height=1000,
               deviceScaleFactor=1, mobile=False)
        assert b.evaluate(COVERED) == []
