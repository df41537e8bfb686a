"""The values sentence templates may name ({host}, {ckpt}, {loss}, ...), for one incident.

All are drawn at once from the incident's Generator, so any template in
data/generator can be used for any incident without a missing name.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from logbook_miner.generate.run import Simulation


def template_values(
    sim: Simulation, rng: np.random.Generator, t: datetime, node: int, lost: int, hours: float
) -> dict[str, Any]:
    """Hosts, ids, counters and numbers of the run at time t, formatted as a log would show them."""
    u = rng.random(16).tolist()
    it, ckpt, every = int(sim.it) + lost, sim.ckpt, sim.p["checkpoint_every"]
    loss = sim.loss(it) + 0.02 * (u[0] - 0.5)
    other = (node + 1 + int(u[1] * (sim.nodes - 1))) % sim.nodes
    per_node = sim.p["gpus_per_node"]
    gpu = int(u[2] * per_node)
    return {
        "host": sim.host_format.format(node),
        "host2": sim.host_format.format(other),
        "node": node,
        "gpu": gpu,
        "rank": node * per_node + gpu,
        "xid": (79, 74, 45, 63)[int(u[3] * 4)],
        "pid": 1000 + int(u[4] * 90000),
        "pid2": 1000 + int(u[5] * 90000),
        "ib": f"mlx5_{int(u[6] * 8)}",
        "bus": f"{16 + int(u[7] * 200):02x}",
        "ip": f"10.{int(u[8] * 250)}.{int(u[9] * 250)}.{node % 250 + 2}",
        "dmesg": f"{1e5 + u[10] * 9e5:.6f}",
        "line": 200 + int(u[11] * 600),
        "seq": 1000 + it * 3,
        "ecc": 10 + int(u[12] * 500),
        "minutes": 15 + int(u[13] * 100),
        "clock": t.strftime("%H:%M"),
        "it": it,
        "total": sim.p["total_iterations"],
        "ckpt": ckpt,
        "ckpt_k": f"{ckpt / 1000:g}k",
        "ckpt_next": ckpt + every,
        "lost": lost,
        "run": sim.run,
        "new_run": sim.run,
        "hours": f"{hours:.1f}",
        "hours_f": hours,
        "loss": f"{loss:.2f}",
        "loss_peak": f"{loss + 1 + 3 * u[14]:.2f}",
        "loss_f": loss,
        "gn": f"{0.15 + 0.2 * u[15]:.2f}",
        "gn_peak": f"{2 + 40 * u[14]:.1f}",
        "lr": sim.lr,
        "lr_old": f"{sim.lr:.2e}",
        "lr_new": f"{sim.lr:.2e}",
        "lr_pct": 0,
        "clip_old": sim.clip,
        "clip_new": sim.clip,
        "pct": 3 + int(u[15] * 20),
        "tflops": round(sim.tflops, 1),
        "tflops_low": round(sim.tflops * (0.97 - u[15] * 0.2), 1),
        "sec": round(sim.sec_per_it, 1),
        "sec_slow": round(sim.sec_per_it * (1.05 + u[15] * 0.2), 1),
        "skip_from": ckpt + 1,
        "skip_to": ckpt + every * (1 + int(u[13] * 4)),
        "save_old": every,
        "save_new": every // 2,
        "mbs_old": 1,
        "mbs_new": 2,
        "nodes": sim.nodes,
        "nodes_new": sim.nodes // 2,
        "gpus": sim.nodes * sim.p["gpus_per_node"],
        "shard": int(u[12] * 900),
        "tokens": round(it * 2048 * 2048 / 1e9, 1),
        "pct_done": round(100 * it / sim.p["total_iterations"], 1),
    }
