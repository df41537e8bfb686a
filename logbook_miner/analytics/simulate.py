"""What failures cost one logbook's run: the cost model (`cost`) fed with what the logbook
measured, where its caller does not say, else with data/cost_assumptions.yaml."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ArgumentError
from ..resources import DATA, read_yaml
from .analyse import run_query
from .mtbf import _int, _missing, mtbf_table, trusted_mtbf

if TYPE_CHECKING:
    from .cost import CostEstimate


def logbook_defaults(logbook: str,
                     db: str | Path | None = None) -> dict[str, tuple[float | None, str]]:
    """What a logbook measured for `simulate`, with where each came from (value, source).

    A logbook that names its nodes but not its GPUs has gpus_per_node GPUs in each (assumed);
    one that names neither runs on the GPUs data/cost_assumptions.yaml assumes.
    """
    import numpy as np

    from . import reliability

    cluster = mtbf_table(db, logbook).iloc[0]
    inputs = run_query("simulate_inputs", {"logbook": logbook}, db).iloc[0]
    repairs = inputs["repair_hours"]
    repairs = [] if not isinstance(repairs, list | tuple | np.ndarray) else list(repairs)
    mtbf, source = trusted_mtbf(_none_if_nan(cluster.get("mtbf_hours")),
                                _none_if_nan(cluster.get("reported_mtbf_hours")))
    gpus, nodes = _int(inputs["gpus"]), _int(inputs["nodes"])
    return {
        "gpus": (gpus, "measured") if gpus is not None else (
            nodes * _int(inputs["gpus_per_node"]) if nodes else cost_assumptions()["gpus"],
            "assumed"),
        "mtbf_hours": (mtbf, source),
        "mttr_hours": (reliability.mttr(repairs).mean_hours, "measured"),
        "checkpoint_cost_seconds": (_none_if_nan(inputs["checkpoint_cost_seconds"]), "measured"),
    }


def simulate(usd_per_gpu_hour: float | None = None, checkpoint_minutes: float | None = None,
             gpus: int | None = None, mtbf_hours: float | None = None,
             mttr_hours: float | None = None, checkpoint_cost_seconds: float | None = None,
             days: float | None = None, runs: int = 0, seed: int = 0,
             from_logbook: str | None = None,
             db: str | Path | None = None) -> CostEstimate:
    """Cost of failures. With `from_logbook`, an unset input is what the logbook measured, else
    a stated assumption (data/cost_assumptions.yaml); `sources` says which for each input.

    The job MTBF is the one from dated entries, unless the notes report failures more than
    twice as often (then the entries' figure is an upper bound and the reported one is used).
    """
    from .cost import simulate_cost

    given = {"gpus": gpus, "usd_per_gpu_hour": usd_per_gpu_hour, "mtbf_hours": mtbf_hours,
             "mttr_hours": mttr_hours, "checkpoint_minutes": checkpoint_minutes,
             "checkpoint_cost_seconds": checkpoint_cost_seconds}
    values = {k: v for k, v in given.items() if v is not None}
    sources = dict.fromkeys(values, "given")
    if from_logbook:
        for key, (value, source) in logbook_defaults(from_logbook, db).items():
            if key not in values and value is not None:
                values[key], sources[key] = value, source
        for key, value in cost_assumptions().items():
            if key in given and key not in values:
                values[key], sources[key] = value, "assumed"
    missing = [k for k in given if k not in values]
    if missing:
        raise ArgumentError(f"give {', '.join(f'`{k}`' for k in missing)} "
                            f"({'no `from_logbook`' if not from_logbook else 'not measured'})")
    estimate = simulate_cost(gpus=int(values["gpus"]), usd_per_gpu_hour=values["usd_per_gpu_hour"],
                             mtbf_hours=values["mtbf_hours"], mttr_hours=values["mttr_hours"],
                             checkpoint_minutes=values["checkpoint_minutes"],
                             checkpoint_cost_seconds=values["checkpoint_cost_seconds"],
                             days=cost_assumptions()["days"] if days is None else days,
                             runs=runs, seed=seed)
    return replace(estimate, sources=sources)


@cache
def cost_assumptions() -> dict[str, float]:
    """What a cost simulation assumes where neither its caller nor the logbook says."""
    return read_yaml(DATA / "cost_assumptions.yaml")


def _none_if_nan(value: Any) -> Any:
    return None if _missing(value) else value
