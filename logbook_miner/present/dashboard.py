"""`logbook dashboard`: one self-contained HTML page, plus every chart as PNG and SVG.

The page definition (sections, texts, theme) is `dashboards/layout.yaml`, its
markup `dashboards/page.html` with `page.css` and `page.js`. Vega, Vega-Lite
and vega-embed are inlined from vl-convert's bundle, as Altair's
`chart.save(path, inline=True)` does, so the page works offline. Logbook text
travels only as JSON inside `<script type="application/json">`, with `<`, `>`
and `&` escaped, and the script puts it on the page with textContent.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import altair as alt
import jinja2
import numpy as np
import pandas as pd
import vl_convert as vlc
from markupsafe import Markup

from .. import __version__
from ..analytics.mtbf import reported_events, trusted_mtbf
from ..analytics.simulate import cost_assumptions
from ..label import families
from ..resources import DASHBOARDS, read_yaml
from . import charts, charts_training
from .dashboard_data import DashboardData, load

PAGE_DIR = DASHBOARDS
CHARTS: dict[str, Callable[[DashboardData], alt.TopLevelMixin]] = {
    "timeline": lambda d: charts.timeline(d.markers, d.runs, d.logbooks),
    "cumulative": lambda d: charts.cumulative(d.cumulative, d.mtbf_by_logbook),
    "reliability": lambda d: charts.reliability(d.families, d.logbooks, default_logbook(d)),
    "outcomes": lambda d: charts.outcomes(d.outcomes, d.outcome_hours, d.logbooks,
                                          default_logbook(d)),
    "fault_mix": lambda d: charts.fault_mix(d.fault_mix, d.pareto, d.logbooks,
                                            default_logbook(d)),
    "metrics": lambda d: charts_training.training_metrics(
        d.metrics, d.markers[d.markers["kind"] != "restart"]),
    "cost": lambda d: charts_training.cost_simulator(cost_defaults(d, default_logbook(d))),
}
VL_VERSION = "_".join(alt.SCHEMA_VERSION.split(".")[:2])  # "v6_4": the Vega-Lite Altair speaks
EMBED_OPTIONS = {"renderer": "svg", "actions": False}


def build(db: str | Path | None, out: str | Path, logbooks: Sequence[str] | None = None,
          images: bool = True) -> Path:
    """Write `OUT/index.html` and (unless not `images`) `OUT/charts/NAME.{png,svg}`.

    Returns the page's path. The images cost about as much as the page (vl-convert
    draws each chart in turn), hence `images=False` for quick rebuilds.
    """
    layout = read_yaml(PAGE_DIR / "layout.yaml")
    data = load(db, logbooks)
    specs = chart_specs(data, layout)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(render_page(data, layout, specs, db, images), encoding="utf-8")
    if images:
        _write_images(out / "charts", specs)
    return page


def chart_specs(data: DashboardData, layout: dict, validate: bool = False) -> dict[str, dict]:
    """Vega-Lite specs of the layout's charts, themed.

    Altair's schema check costs more than building the charts, so builds skip it and
    the tests run it (`validate=True`) on every builder.
    """
    return {s["id"]: CHARTS[s["id"]](data).to_dict(validate=validate)
            | {"config": layout["theme"]}
            for s in layout["sections"] if s["kind"] == "chart"}


def _write_images(folder: Path, specs: dict[str, dict]) -> None:
    """SVG by vl-convert (one JS runtime, so in turn), then PNG at 2x in parallel threads.

    A picture needs no per-mark ARIA labels (they double a big timeline's SVG).
    """
    folder.mkdir(exist_ok=True)
    svgs = {name: vlc.vegalite_to_svg(spec, vl_version=VL_VERSION, config={"aria": False})
            for name, spec in specs.items()}
    for name, svg in svgs.items():
        (folder / f"{name}.svg").write_text(svg, encoding="utf-8")

    def png(item: tuple[str, str]) -> None:
        (folder / f"{item[0]}.png").write_bytes(vlc.svg_to_png(item[1], scale=2))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(png, svgs.items()))


@cache
def _bundle() -> str:
    """vega-embed + Vega-Lite + Vega in one script, cached on disk (vl-convert takes ~1 s).

    It must not end the <script> it sits in, hence the `<\\/script` guard.
    """
    name = f"vega-bundle-{vlc.__version__}-{VL_VERSION}.js"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "logbook-miner"
    try:
        return (cache / name).read_text(encoding="utf-8")
    except OSError:
        pass
    bundle = vlc.javascript_bundle(vl_version=VL_VERSION)
    bundle = bundle.replace("</script", "<\\/script")
    with contextlib.suppress(OSError):  # no cache is slower, not wrong
        cache.mkdir(parents=True, exist_ok=True)
        partial = cache / f"{name}.{os.getpid()}.tmp"
        partial.write_text(bundle, encoding="utf-8")
        partial.replace(cache / name)
    return bundle


def script_json(value: Any) -> str:
    """JSON that is safe inside <script>: no `<`, `>` or `&` survive to end the element."""
    text = json.dumps(value, default=_plain, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return [_finite(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return _finite(value.item())
    if isinstance(value, pd.Timestamp | datetime):
        return value.isoformat()
    raise TypeError(f"cannot put {type(value).__name__} into the page")


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _records(df: pd.DataFrame) -> list[dict]:
    return [{k: _finite(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def default_logbook(data: DashboardData) -> str | None:
    """The logbook the page opens on: the one with the most stops (the first on a tie)."""
    return max(data.logbooks, key=lambda lb: data.per_logbook[lb]["stops"], default=None)


def undated(data: DashboardData) -> dict[str, str]:
    """Logbooks the timeline cannot place, each with the reason, so none goes missing silently."""
    return {lb: "no dated entries" for lb, f in data.per_logbook.items() if not f["dated"]}


def cost_defaults(data: DashboardData, logbook: str | None) -> dict[str, Any]:
    """Simulator start values: one logbook's failure rate, MTTR and cluster, else what
    `simulate` assumes (data/cost_assumptions.yaml).

    Rate and GPU count come from the same logbook (a rate of one job on another's cluster
    prices nothing real). The rate is the notes' own where the entries undercount it, as
    `simulate --from-logbook` takes it. `measured` names the values the logbook gave and
    `reported` those its notes state, so the sliders can say which are guesses.
    """
    figures = data.per_logbook.get(logbook) or {"mtbf": None, "mttr": {"mean_hours": None},
                                                "gpus": None, "checkpoint_cost_seconds": None,
                                                "reported": None}
    mtbf, source = trusted_mtbf((figures["mtbf"] or {}).get("mtbf_hours"),
                                (figures["reported"] or {}).get("reported_mtbf_hours"))
    mttr = figures["mttr"]["mean_hours"]
    values = {
        "gpus": figures["gpus"],
        "failures_per_day": round(24 / mtbf, 3) if mtbf else None,
        "mttr_h": round(mttr, 2) if mttr is not None else None,
        "checkpoint_cost_s": figures["checkpoint_cost_seconds"],
    }
    return {**_assumed_start(), **{k: v for k, v in values.items() if v is not None},
            "measured": sorted(k for k, v in values.items() if v is not None),
            "reported": ["failures_per_day"] if mtbf and source == "reported" else []}


def _assumed_start() -> dict[str, float]:
    """The sliders' start where a logbook does not say: what `simulate` assumes, in page units."""
    a = cost_assumptions()
    return {"gpus": a["gpus"], "failures_per_day": round(24 / a["mtbf_hours"], 3),
            "mttr_h": a["mttr_hours"], "checkpoint_cost_s": a["checkpoint_cost_seconds"],
            "interval_min": a["checkpoint_minutes"], "usd_per_gpu_hour": a["usd_per_gpu_hour"],
            "days": a["days"]}


def kpis(data: DashboardData, layout: dict, logbook: str) -> list[dict[str, str]]:
    """One logbook's header figures: counts, MTBF and MTTR with their intervals, top faults."""
    t, empty = data.per_logbook[logbook], layout["empty_text"]
    mtbf, mttr = t["mtbf"], t["mttr"]
    if not mtbf:
        mtbf_value, mtbf_note = "n/a", "no dated observation window"
    elif mtbf["mtbf_hours"] is None:
        mtbf_value = empty["no_failures"]
        mtbf_note = f"MTBF > {mtbf['mtbf_ci_low_hours']:,.0f} h (97.5% one-sided lower bound)"
    else:
        mtbf_value = f"{mtbf['mtbf_hours']:,.0f} h"
        mtbf_note = (f"95% CI {mtbf['mtbf_ci_low_hours']:,.0f}–{mtbf['mtbf_ci_high_hours']:,.0f} h"
                     f" · {mtbf['failures']} stops in {mtbf['observed_hours']:,.0f} h")
    if mttr["mean_hours"] is None:
        mttr_value = empty["no_timed_repairs"]
        mttr_note = "no stop has a timed restart after it or a stated downtime"
    else:
        mttr_value = f"{mttr['mean_hours']:,.1f} h"
        ci = (f"95% CI {mttr['mean_ci_low_hours']:,.1f}–{mttr['mean_ci_high_hours']:,.1f} h"
              if mttr["mean_ci_low_hours"] is not None else "too few for a CI")
        stated = f" ({t['stated_repairs']} stated in the notes)" if t["stated_repairs"] else ""
        mttr_note = f"{ci} · {mttr['repairs']} repairs{stated}"
    return [
        {"label": "Entries", "value": f"{t['entries']:,}",
         "note": f"{t['dated']:,} placed in time"},
        {"label": "Restarts", "value": f"{t['restarts']:,}", "note": "entries reporting one"},
        {"label": "Failures (stops)", "value": f"{t['stops']:,}" if t["stops"] else
         empty["no_failures"], "note": f"{t['failure_entries']:,} entries report failures"},
        {"label": "MTBF", "value": mtbf_value, "note": mtbf_note},
        *_reported_kpi(t["reported"], mtbf),
        {"label": "MTTR", "value": mttr_value, "note": mttr_note},
        {"label": "Top faults", "value": ", ".join(t["top_faults"]) or empty["no_failures"],
         "note": "by entries labelled", "wide": True},
    ]


def _reported_kpi(reported: dict | None, mtbf: dict | None) -> list[dict[str, str]]:
    """The MTBF the notes themselves state, beside the entries' (none when they state none)."""
    if not reported:
        return []
    entry_based = (mtbf or {}).get("mtbf_hours")
    used = trusted_mtbf(entry_based, reported["reported_mtbf_hours"])[1] == "reported"
    span = (f"{reported['reported_from']} to {reported['reported_to']}"
            if reported["reported_from"] else f"{reported['reported_hours']:,.0f} h")
    return [{"label": "MTBF the notes report", "value": f"{reported['reported_mtbf_hours']:,.1f} h",
             "note": f"{reported_events(reported)} in {span}"
                     + (" · entries undercount: the simulator starts from this" if used else "")}]


def _asset(name: str) -> Markup:
    """Our own CSS or JS, trusted: inserted as is (escaping would break `"` in a <style>)."""
    return Markup((PAGE_DIR / name).read_text(encoding="utf-8"))


def render_page(data: DashboardData, layout: dict, specs: dict[str, dict],
                db: str | Path | None, images: bool = True) -> str:
    """The page as one string: template + CSS + JS + the Vega bundle + the data as JSON."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(PAGE_DIR), autoescape=True)
    payload = {
        "specs": specs, "embed": EMBED_OPTIONS, "families": families.colours(),
        "follow": [name for name, spec in specs.items()  # charts of the selected logbook
                   if any(p["name"] == charts.LOGBOOK for p in spec.get("params", ()))],
        "entries": _records(data.ledger), "markers": _records(data.markers.drop(columns="ts")),
        "simulator": {lb: cost_defaults(data, lb) for lb in data.logbooks},
    }
    first, last = data.totals["first"], data.totals["last"]
    span = f", {first:%Y-%m-%d} to {last:%Y-%m-%d}" if first is not None else ""
    lim = len(data.ledger), data.totals["entries"]
    return env.get_template("page.html").render(
        title=layout["title"], intro=layout["intro"], sections=layout["sections"],
        scope=f"{len(data.logbooks)} logbook(s): {', '.join(data.logbooks) or 'none'}{span}.",
        kpis={lb: kpis(data, layout, lb) for lb in data.logbooks},
        shown=default_logbook(data), undated=undated(data),
        ledger_note=(f"{lim[0]:,} of {lim[1]:,} entries: every timeline marker first, then "
                     "labelled and recent entries." if lim[0] < lim[1] else ""),
        marker_note=(f"Showing the {len(data.markers):,} most recent markers."
                     if len(data.markers) >= 2000 else ""),
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), version=__version__,
        db_name=Path(str(db)).name if db else "the default database",
        css=_asset("page.css"), js=_asset("page.js"), bundle=Markup(_bundle()),
        data_json=Markup(script_json(payload)),
        vl_version=VL_VERSION, images=images,
    )
