"""Chart builders for the dashboard: one function per chart, small DataFrame in, Altair chart out.

Builders aggregate nothing (DuckDB did) and know nothing of the page; a
builder given an empty frame returns a chart that says so instead of a
broken one. Times are UTC: they travel as ISO strings with a `Z` and every
time scale is a `utc` scale, so a reader in any zone sees the logbook's dates.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import altair as alt
import pandas as pd

from ..label import families

WIDTH = 720
OUTCOMES = {"held": "#4e9a5a", "recurred": "#d62728", "censored": "#b5b5b5"}
MARKER_SHAPES = {"failure": "triangle-down", "restart": "circle", "failure + restart": "diamond"}
SELECTED = "selected_id"  # Vega signal the page sets to highlight one entry
LOGBOOK = "logbook"  # Vega signal the page's logbook selector sets, on charts of one logbook
PICKED = f"datum.logbook === {LOGBOOK}"  # the filter of a chart of one logbook
MAX_SUBTITLE_LINES = 6  # per-logbook MTBF lines under the cumulative chart's title


def family_colour(present: pd.Series | None = None, title: str | None = "Fault family",
                  legend: bool | alt.Legend = True) -> alt.Color:
    """The one family -> colour scale (the taxonomy's); the legend lists those in `present`,
    unless given as a whole (`drawn_legend`)."""
    colours = families.colours()
    if legend is True:
        legend = alt.Legend(values=[f for f in colours if present is None or f in set(present)])
    return alt.Color("family:N", title=title,
                     scale=alt.Scale(domain=list(colours), range=list(colours.values())),
                     legend=None if legend is False else legend)


def utc(df: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """Copy with `columns` as ISO-8601 UTC strings, which Vega parses the same in every zone."""
    out = df.copy()
    for col in columns:
        out[col] = pd.to_datetime(out[col]).dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    return out


def time_x(field: str = "ts", title: str | None = "Date (UTC)") -> alt.X:
    return alt.X(f"{field}:T", title=title, scale=alt.Scale(type="utc"),
                 axis=alt.Axis(format="%Y-%m-%d", labelAngle=0, labelOverlap=True))


def utc_tooltip(field: str, title: str | None, fmt: str) -> alt.Tooltip:
    """A time in the tooltip, formatted in UTC like the axes."""
    return alt.Tooltip(f"{field}:T", title=title or field, format=fmt,
                       timeUnit="utcyearmonthdatehoursminutes")


def empty(title: str, message: str, width: int = WIDTH, height: int = 90) -> alt.Chart:
    """A chart that says why there is nothing to draw."""
    return alt.Chart(pd.DataFrame({"message": [message]})).mark_text(
        fontSize=15, color="#666", fontStyle="italic",
    ).encode(text="message:N").properties(title=title, width=width, height=height)


# --- charts of one logbook: the page's selector picks it, no figure pools logbooks ---------

def of_picked(chart: alt.Chart) -> alt.Chart:
    """The chart's rows of the logbook the `logbook` signal names."""
    return chart.transform_filter(PICKED)


def following(chart: alt.TopLevelMixin, shown: str | None) -> alt.TopLevelMixin:
    """Declare the `logbook` signal (the page sets it on every chart declaring it), at `shown`."""
    return chart.add_params(alt.param(name=LOGBOOK, value=shown))


def note(text: str, logbooks: Iterable[str]) -> alt.Chart:
    """An italic note, drawn while the picked logbook is one of `logbooks` (why it is empty)."""
    data = pd.DataFrame({"logbook": list(logbooks), "m": text})
    return of_picked(alt.Chart(data).mark_text(fontStyle="italic", color="#666")
                     .encode(text="m:N"))


def without(df: pd.DataFrame, logbooks: list[str]) -> list[str]:
    """The logbooks with no row in `df`."""
    return [lb for lb in logbooks if lb not in set(df["logbook"])]


def rank_within(df: pd.DataFrame, key: str) -> pd.Series:
    """Each row's place among its logbook's `key` values, in the frame's order."""
    return df.groupby("logbook")[key].transform(lambda s: pd.factorize(s)[0])


def most_per_logbook(df: pd.DataFrame, key: str) -> int:
    """How many `key` values the largest logbook has: a chart of one logbook sized for all."""
    return int(df.groupby("logbook")[key].nunique().max())


def drawn_legend(df: pd.DataFrame, field: str, order: list[str]) -> alt.Legend:
    """A legend of what is drawn: the picked logbook's values of `field`, in `order`, and no
    title where it draws none."""
    per_logbook = {lb: [v for v in order if v in set(group[field])]
                   for lb, group in df.groupby("logbook")}
    values = f"{json.dumps(per_logbook)}[{LOGBOOK}] || []"
    return alt.Legend(values=alt.ExprRef(expr=values),
                      titleOpacity=alt.ExprRef(expr=f"length({values}) ? 1 : 0"))


def timeline(markers: pd.DataFrame, runs: pd.DataFrame, lanes: list[str]) -> alt.Chart:
    """Runs as bars, one lane per logbook; failures and restarts as markers by fault family."""
    title = alt.Title("Restarts and failures over time",
                      subtitle="Grey bars: runs between restarts. Click a marker for its note.")
    if markers.empty:
        return empty(title, "No dated failures or restarts recorded")
    lanes = [lb for lb in lanes if lb in set(markers["logbook"]) | set(runs["logbook"])]
    y = alt.Y("logbook:N", title=None, sort=lanes, axis=alt.Axis(labelLimit=220))
    bars = alt.Chart(utc(runs, "start", "end")).mark_bar(
        color="#cfd8e3", height={"band": 0.7}, cornerRadius=3,
    ).encode(
        x=time_x("start"), x2="end:T", y=y,
        tooltip=[utc_tooltip("start", "Run from", "%Y-%m-%d %H:%M"),
                 utc_tooltip("end", "to", "%Y-%m-%d %H:%M"),
                 alt.Tooltip("hours:Q", title="Hours", format=",.1f"),
                 alt.Tooltip("ended_by:N", title="Ended by")],
    )
    selected = alt.param(name=SELECTED, value="")
    is_selected = f"datum.id === {SELECTED}"
    points = alt.Chart(utc(markers, "ts")).mark_point(filled=True, opacity=0.9).encode(
        x=time_x(), y=y, yOffset=alt.YOffset("kind:N", sort=list(MARKER_SHAPES)),
        color=family_colour(markers["family"]),
        shape=alt.Shape("kind:N", title="Marker", scale=alt.Scale(
            domain=list(MARKER_SHAPES), range=list(MARKER_SHAPES.values()))),
        size=alt.condition(is_selected, alt.value(420), alt.value(130)),
        stroke=alt.condition(is_selected, alt.value("#111"), alt.value("white")),
        strokeWidth=alt.condition(is_selected, alt.value(2.5), alt.value(0.8)),
        tooltip=[alt.Tooltip("heading:N", title="Heading"), alt.Tooltip("when:N", title="When"),
                 alt.Tooltip("author:N", title="Author"), alt.Tooltip("labels:N", title="Labels"),
                 alt.Tooltip("logbook:N", title="Logbook")],
    ).add_params(selected)
    return alt.layer(bars, points).properties(
        title=title, width=WIDTH, height=max(90, 56 * len(lanes)))


def cumulative(counts: pd.DataFrame, mtbf: pd.DataFrame) -> alt.Chart:
    """Stops and restarts to date as step lines; the count the MTBF (and its CI) predicts."""
    if counts.empty:
        return empty("Cumulative failures and restarts", "No dated failures or restarts recorded")
    subtitle = [_mtbf_line(r) for r in mtbf.itertuples()] or ["No dated observation window"]
    if len(subtitle) > MAX_SUBTITLE_LINES:  # a line per logbook would outgrow the chart
        subtitle = [*subtitle[:MAX_SUBTITLE_LINES - 1],
                    f"… and {len(subtitle) - MAX_SUBTITLE_LINES + 1} more logbooks: pick one in "
                    "the header for its MTBF"]
    drawn = sorted(counts["logbook"].unique())  # the legend lists only logbooks with a line
    lines = alt.Chart(utc(counts, "ts")).mark_line(interpolate="step-after", strokeWidth=2).encode(
        x=time_x(), y=alt.Y("total:Q", title="Count to date"),
        color=alt.Color("logbook:N", title="Logbook", scale=alt.Scale(domain=drawn),
                        legend=alt.Legend(symbolType="stroke", symbolSize=300, symbolOpacity=1,
                                          symbolStrokeWidth=4,
                                          columns=2 if len(drawn) > 12 else 1)),
        strokeDash=alt.StrokeDash("kind:N", title="Series",
                                  scale=alt.Scale(domain=["failures", "restarts"],
                                                  range=[[1, 0], [5, 3]]),
                                  legend=alt.Legend(symbolSize=300, symbolStrokeWidth=3)),
        tooltip=["logbook:N", "kind:N", alt.Tooltip("total:Q", title="To date"),
                 utc_tooltip("ts", "At", "%Y-%m-%d %H:%M")],
    )
    layers = [lines]
    expected = _expected_failures(mtbf)
    if not expected.empty:
        base = alt.Chart(utc(expected, "ts")).encode(  # faint: kept out of the legend
            x=time_x(), color=alt.Color("logbook:N", legend=None))
        layers = [base.mark_area(opacity=0.12).encode(y="low:Q", y2="high:Q"),
                  base.mark_line(strokeDash=[2, 2], strokeWidth=1).encode(y="mid:Q"), lines]
    title = alt.Title("Cumulative failures and restarts", subtitle=subtitle)
    return alt.layer(*layers).resolve_legend(color="independent").properties(
        title=title, width=WIDTH, height=260)


def _mtbf_line(row) -> str:
    if row.mtbf_hours is None or pd.isna(row.mtbf_hours):
        return (f"{row.logbook}: no failures in {row.observed_hours:,.0f} h; "
                f"MTBF > {row.mtbf_ci_low_hours:,.0f} h (97.5% one-sided lower bound)")
    return (f"{row.logbook}: MTBF {row.mtbf_hours:,.0f} h (95% CI {row.mtbf_ci_low_hours:,.0f}"
            f"–{row.mtbf_ci_high_hours:,.0f} h), {row.failures} stop(s) in "
            f"{row.observed_hours:,.0f} h")


def _expected_failures(mtbf: pd.DataFrame) -> pd.DataFrame:
    """Straight lines t / MTBF (and t / CI bounds) from each window's start to its end."""
    rows = []
    for r in mtbf.itertuples():
        if r.mtbf_hours is None or pd.isna(r.mtbf_hours):
            continue
        for h in (0.0, r.observed_hours):
            rows.append({"logbook": r.logbook, "hours": h, "mid": h / r.mtbf_hours,
                         "low": h / r.mtbf_ci_high_hours, "high": h / r.mtbf_ci_low_hours})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    starts = mtbf.set_index("logbook")["start"]
    out["ts"] = out["logbook"].map(starts) + pd.to_timedelta(out["hours"], unit="h")
    return out


def reliability(families: pd.DataFrame, logbooks: list[str], shown: str | None) -> alt.Chart:
    """MTBF and MTTR per fault family with 95% CIs, and the Weibull shape of the gaps.

    Of one logbook at a time: the `logbook` signal (the page's selector) picks it, `shown`
    first. Unrelated jobs share no failure rate, so no figure pools logbooks.
    """
    if families.empty:
        return empty("Reliability per fault family", "No failures recorded")
    df = families.assign(label=families["family"] + " (" + families["failures"].astype(str) + ")",
                         order=rank_within(families, "family"))
    rows = most_per_logbook(df, "family")

    def panel(field: str, title: str, scale: alt.Scale, first: bool = False,
              axis: alt.Axis | None = None, extra: tuple = ()) -> alt.LayerChart:
        y = alt.Y("label:N", sort=alt.EncodingSortField("order"), title=None,
                  axis=alt.Axis(labels=first, ticks=first))
        x = {"title": title, "scale": scale, "axis": axis or alt.Axis()}
        base = of_picked(alt.Chart(df)).encode(y=y, color=family_colour(legend=False))
        ci = base.mark_rule(strokeWidth=2).encode(
            x=alt.X(f"{field}_low:Q", **x), x2=f"{field}_high:Q",
        ).transform_filter(f"isValid(datum.{field}_low) && isValid(datum.{field}_high)")
        point = base.mark_point(filled=True, size=90, opacity=1).encode(
            x=alt.X(f"{field}:Q", **x),
            tooltip=["family:N", alt.Tooltip(f"{field}:Q", format=",.2f"),
                     alt.Tooltip(f"{field}_low:Q", format=",.2f", title="95% CI low"),
                     alt.Tooltip(f"{field}_high:Q", format=",.2f", title="95% CI high")],
        ).transform_filter(f"isValid(datum.{field})")
        return alt.layer(ci, point, *extra).properties(width=250, height=max(60, 34 * rows))

    one = alt.Chart(pd.DataFrame({"x": [1.0]})).mark_rule(strokeDash=[4, 3], color="#555")
    untimed = df.groupby("logbook")["mttr"].apply(lambda m: m.isna().all())
    return following(alt.hconcat(
        panel("mtbf", "MTBF (hours, log scale)", alt.Scale(type="log"), first=True,
              extra=(note("No dated stops in this logbook", without(df, logbooks)),)),
        panel("mttr", "MTTR (hours)", alt.Scale(zero=True),
              extra=(note("No timed repairs", untimed[untimed].index),)),
        # a fixed domain: one family with one gap has no interval, and a one-point log
        # domain would stack every tick label on the same spot
        panel("shape", "Weibull shape (1 = random)",
              alt.Scale(type="log", domain=[0.1, 10], clamp=True),
              axis=alt.Axis(values=[0.1, 0.2, 0.5, 1, 2, 5, 10]),
              extra=(one.encode(x="x:Q"),)),
    ), shown).properties(
        title=alt.Title("Reliability per fault family",
                        subtitle="Of the logbook picked in the header. Dots: estimate; bars: 95% "
                                 "confidence interval; (n) = dated stops"))


def outcomes(df: pd.DataFrame, horizon_hours: float, logbooks: list[str],
             shown: str | None) -> alt.Chart:
    """Share of interventions that held, saw the fault recur, or ran out of logbook.

    Of the logbook the `logbook` signal picks (`shown` first): a code's uses in unrelated
    jobs are not one sample, so no share pools logbooks.
    """
    title = alt.Title("What happened after each intervention",
                      subtitle=f"Of the logbook picked in the header. Held: no failure within "
                               f"{horizon_hours:,.0f} h; censored: the logbook ends sooner")
    if df.empty:
        return empty(title, "No dated interventions recorded")
    df = df.assign(label=df["code"] + " (" + df["total"].astype(int).astype(str) + ")")
    # most uses first, then by code: the same label sorts the same in every logbook
    order = df.sort_values(["total", "code"], ascending=[False, True])["label"].unique().tolist()
    height = max(60, 26 * most_per_logbook(df, "code"))
    y = alt.Y("label:N", sort=order, title=None)
    shares = of_picked(alt.Chart(df)).mark_bar(size=18).encode(
        x=alt.X("share:Q", title="Share of interventions", axis=alt.Axis(format="%"),
                stack="normalize"),
        y=y, color=alt.Color("outcome:N", title="Outcome", scale=alt.Scale(
            domain=list(OUTCOMES), range=list(OUTCOMES.values())),
            legend=drawn_legend(df, "outcome", list(OUTCOMES))),
        order=alt.Order("outcome:N"),
        tooltip=["code:N", "outcome:N", "n:Q", alt.Tooltip("share:Q", format=".0%")],
    )
    shares = alt.layer(shares, note("No dated interventions in this logbook",
                                    without(df, logbooks))).properties(width=320, height=height)
    timed = df.drop_duplicates(["logbook", "code"]).dropna(subset=["median_h"])[
        ["logbook", "code", "label", "min_h", "q1_h", "median_h", "q3_h", "max_h", "timed"]]
    hours = alt.X("min_h:Q", title="Hours to the next failure (log scale)",
                  scale=alt.Scale(type="log"))
    base = of_picked(alt.Chart(timed)).encode(
        y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labels=False, ticks=False)),
        color=alt.value("#555"))
    spread = alt.layer(
        base.mark_rule().encode(x=hours, x2="max_h:Q"),
        base.mark_bar(height=12, opacity=0.35).encode(x="q1_h:Q", x2="q3_h:Q"),
        base.mark_tick(color="black", thickness=2, size=16).encode(
            x="median_h:Q",
            tooltip=["code:N", alt.Tooltip("timed:Q", title="Followed by a failure"),
                     alt.Tooltip("median_h:Q", format=",.1f", title="Median hours"),
                     alt.Tooltip("min_h:Q", format=",.1f", title="Min hours"),
                     alt.Tooltip("max_h:Q", format=",.1f", title="Max hours")]),
        note("No failure followed an intervention", without(timed, sorted(set(df["logbook"])))),
    ).properties(width=300, height=height)
    return following(alt.hconcat(shares, spread).resolve_scale(y="shared"), shown).properties(
        title=title)


def fault_mix(weekly: pd.DataFrame, pareto: pd.DataFrame, logbooks: list[str],
              shown: str | None) -> alt.Chart:
    """Fault labels per week by family, and a Pareto of fault codes.

    Of the logbook the `logbook` signal picks (`shown` first): weeks and codes of unrelated
    jobs do not add up to anything, so no count pools logbooks.
    """
    title = alt.Title("Fault mix", subtitle="Of the logbook picked in the header")
    if pareto.empty:
        return empty("Fault mix", "No faults recorded")
    colour = family_colour(legend=drawn_legend(pareto, "family", list(families.colours())))
    layers = []
    if not weekly.empty:
        bars = of_picked(alt.Chart(utc(weekly, "week"))).mark_bar().encode(
            x=alt.X("week:T", title="Week (UTC)", timeUnit="utcyearweek",
                    axis=alt.Axis(format="%Y-%m-%d", labelAngle=0, labelOverlap=True)),
            y=alt.Y("sum(n):Q", title="Fault labels per week"),
            color=colour,
            tooltip=["family:N", utc_tooltip("week", None, "%Y-%m-%d"), "n:Q"],
        )
        layers.append(alt.layer(bars, note("No dated fault labels in this logbook",
                                           without(weekly, logbooks)))
                      .properties(width=340, height=240, title="Per week (dated entries)"))
    codes = most_per_logbook(pareto, "code")
    x = alt.X("code:N", sort=alt.EncodingSortField("order", op="min"), title=None,
              axis=alt.Axis(labelAngle=-90, labelLimit=160))
    base = of_picked(alt.Chart(pareto.assign(order=rank_within(pareto, "code"))))
    bars = base.mark_bar(size=18).encode(
        x=x, y=alt.Y("n:Q", title="Entries with the fault"), color=colour,
        tooltip=["code:N", "n:Q", alt.Tooltip("cumulative:Q", format=".0%")])
    line = base.mark_line(point=True, color="#333").encode(
        x=x, y=alt.Y("cumulative:Q", title="Cumulative share", axis=alt.Axis(format="%"),
                     scale=alt.Scale(domain=[0, 1])))
    layers.append(alt.layer(bars, line, note("No faults in this logbook",
                                             without(pareto, logbooks)))
                  .resolve_scale(y="independent")
                  .properties(width=max(300, 26 * codes), height=240,
                              title="Pareto of fault codes (all entries)"))
    return following(alt.hconcat(*layers), shown).properties(title=title)
