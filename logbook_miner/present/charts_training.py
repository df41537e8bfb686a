"""Chart builders for what failures do to training: mined metrics, and a cost simulator.

The simulator runs the cost model of `logbook_miner.analytics.cost` (its MODEL, the
formulas `simulate_cost` evaluates) translated to Vega expressions, so the sliders
recompute it in the browser with no server and give the numbers Python gives.
"""

from __future__ import annotations

import ast

import altair as alt
import pandas as pd

from ..analytics.cost import MODEL, formula
from .charts import WIDTH, empty, time_x, utc, utc_tooltip
from .dashboard_data import METRIC_PANELS

FAILURE_RULE = "#d62728"


def training_metrics(points: pd.DataFrame, failures: pd.DataFrame) -> alt.Chart:
    """One panel per mined metric against date, with the failures of the same logbooks as rules."""
    title = alt.Title("Training metrics mined from the notes",
                      subtitle="Red dashed lines: failures. Values are as quoted in the notes.")
    if points.empty:
        return empty(title, "No loss, grad norm or throughput figures found in the notes")
    failures = failures[failures["logbook"].isin(points["logbook"].unique())]
    rules = alt.Chart(utc(failures, "ts")).mark_rule(
        color=FAILURE_RULE, strokeDash=[4, 3], opacity=0.6,
    ).encode(x=time_x(), tooltip=["heading:N", "when:N", "labels:N"])
    panels = []
    for name, label in METRIC_PANELS.items():
        df = points[points["name"] == name]
        if df.empty:
            continue
        line = alt.Chart(utc(df, "ts")).mark_line(point=True, strokeWidth=1.5).encode(
            x=time_x(title=None), y=alt.Y("value:Q", title=label, scale=alt.Scale(zero=False)),
            color=alt.Color("logbook:N", title="Logbook"),
            tooltip=["logbook:N", utc_tooltip("ts", "At", "%Y-%m-%d"),
                     alt.Tooltip("value:Q", title=label, format=",.4~g"),
                     alt.Tooltip("n:Q", title="Values averaged")],
        )
        layer = alt.layer(line, rules) if not failures.empty else line
        panels.append(layer.properties(width=WIDTH, height=130))
    return alt.vconcat(*panels, spacing=8).resolve_scale(x="shared").properties(title=title)


# The model's inputs from the sliders (their names are the page's); checkpoint_minutes is
# given per layer. No failures at all is an MTBF of about forever.
SLIDER_INPUTS = {
    "days": "days", "gpus": "gpus", "usd_per_gpu_hour": "usd_per_gpu_hour",
    "mttr_hours": "mttr_h", "checkpoint_cost_seconds": "checkpoint_cost_s",
    "mtbf_hours": "failures_per_day > 0 ? 24 / failures_per_day : 1e12",
}
_VEGA_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Lt: "<",
                   ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def vega(node: ast.expr) -> str:
    """A cost-model formula as a Vega expression; every name is a field of the datum."""
    match node:
        case ast.Constant(value=number):
            return repr(number)
        case ast.Name(id=name):
            return f"datum.{name}"
        case ast.BinOp(left=left, op=ast.Pow(), right=right):
            return f"pow({vega(left)}, {vega(right)})"
        case ast.BinOp(left=left, op=op, right=right) | ast.Compare(
                left=left, ops=[op], comparators=[right]):
            return f"({vega(left)} {_VEGA_OPERATORS[type(op)]} {vega(right)})"
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return f"(-{vega(operand)})"
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return f"({vega(test)} ? {vega(body)} : {vega(orelse)})"
        case ast.Call(func=ast.Name(id=function), args=args):
            return f"{function}({', '.join(map(vega, args))})"
    raise ValueError(f"no Vega expression for {ast.unparse(node)!r}")


def _with_cost_model(chart: alt.Chart, checkpoint_minutes: str) -> alt.Chart:
    """The chart's data with the sliders' inputs and every quantity of the model as fields."""
    chart = chart.transform_calculate(checkpoint_minutes=checkpoint_minutes, **SLIDER_INPUTS)
    for name in MODEL:  # in order: each formula reads only inputs and the ones before it
        chart = chart.transform_calculate(**{name: vega(formula(name))})
    return chart


def _sliders(defaults: dict) -> list[alt.Parameter]:
    """Range inputs: name -> (label, min, max, step); start values and `measured` from defaults."""
    specs = {
        "gpus": ("GPUs", 8, max(16384, defaults["gpus"] * 2), 8),
        "failures_per_day": ("Failures per day", 0,
                             max(10.0, round(3 * defaults["failures_per_day"], 1)), 0.01),
        "mttr_h": ("MTTR, hours", 0, 48, 0.25),
        "interval_min": ("Checkpoint interval, minutes", 5, 1440, 5),
        "checkpoint_cost_s": ("Checkpoint cost, seconds", 0, 1800, 5),
        "usd_per_gpu_hour": ("$ per GPU-hour", 0, 10, 0.1),
        "days": ("Campaign length, days", 1, 180, 1),
    }
    measured, reported = set(defaults.get("measured", ())), set(defaults.get("reported", ()))

    def name(key: str, label: str) -> str:
        if key in reported:
            return label + " (as the notes report) "
        return label + (" (from the logbooks) " if key in measured else " ")

    return [alt.param(name=key, value=defaults[key],
                      bind=alt.binding_range(min=lo, max=hi, step=step, name=name(key, label)))
            for key, (label, lo, hi, step) in specs.items()]


def cost_simulator(defaults: dict) -> alt.Chart:
    """Goodput against checkpoint interval under the sliders' failure model, Daly optimum marked."""
    x = alt.X("interval:Q", title="Checkpoint interval (minutes, log scale)",
              scale=alt.Scale(type="log", domain=[1, 1440]))
    swept = _with_cost_model(alt.Chart(alt.sequence(0, 241, as_="i")),  # 1 min .. 1 day
                             "pow(1440, datum.i / 240)")
    curve = swept.transform_calculate(interval="datum.checkpoint_minutes").mark_line(
        strokeWidth=2.5, color="#1f77b4",
    ).encode(
        x=x, y=alt.Y("goodput:Q", title="Goodput", axis=alt.Axis(format="%"),
                     scale=alt.Scale(zero=False)),
        tooltip=[alt.Tooltip("interval:Q", format=",.0f", title="Interval (min)"),
                 alt.Tooltip("goodput:Q", format=".2%"),
                 alt.Tooltip("lost_usd:Q", format="$,.0f", title="Lost $")])
    chosen = _with_cost_model(alt.Chart(alt.sequence(0, 1, as_="i")), "interval_min")
    optimum = chosen.transform_calculate(interval="datum.daly_checkpoint_minutes").transform_filter(
        "isFinite(datum.interval) && datum.interval >= 1 && datum.interval <= 1440")
    rule = optimum.mark_rule(color="#2ca02c", strokeWidth=2, strokeDash=[6, 3]).encode(x=x)
    label = optimum.transform_calculate(
        label="'Young/Daly optimum ' + format(datum.interval, ',.0f') + ' min'",
    ).mark_text(align="left", dx=5, y=250, baseline="bottom", color="#2ca02c",
                fontWeight="bold").encode(x=x, text="label:N")
    point = chosen.transform_calculate(interval="interval_min").mark_point(
        filled=True, size=140, color="#d62728").encode(x=x, y="goodput:Q")
    readout = chosen.transform_calculate(text=(
        "'At a ' + format(interval_min, ',') + '-min interval over ' + format(days, ',') + "
        "' days: ' + format(datum.expected_failures, ',.1f') + ' failures, ' + "
        "format(datum.lost_gpu_hours, ',.0f') + ' GPU-hours lost (' + "
        "format(datum.lost_usd, '$,.0f') "
        "+ '), goodput ' + format(datum.goodput, '.2%')"),
    ).mark_text(fontSize=14, align="left", x=0, fontWeight="bold").encode(
        text="text:N").properties(width=WIDTH, height=22)
    plot = alt.layer(curve, rule, label, point).properties(width=WIDTH, height=260)
    return alt.vconcat(readout, plot, spacing=4).add_params(*_sliders(defaults)).properties(
        title=alt.Title("Cost of failures: checkpoint interval vs goodput",
                        subtitle="Move the sliders below the chart; red dot: chosen interval"))
