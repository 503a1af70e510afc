#!/usr/bin/python3
"""Experiment mlfabric: MLFabric-style scheduled updates (SoCC'20) against plain
asynchronous (ASP) and stale-synchronous (SSP) parameter servers, with compute and network
stragglers.

    examples/experiments/mlfabric.py [--paramsync build/paramsync] [--results results]
                                     [--plots plots] [--jobs N] [--collect]
                                     [--emit=slurm|parallel]

Runs the grid below with the sweep runner (examples/sweep/sweep.py; resumable), writes
results/mlfabric/mlfabric.csv and results/mlfabric/delays.csv (the per-update delay
distribution and per-worker figures, from each run's updates.csv, with the training loss
after every update) and renders
plots/mlfabric-*.png with plots/mlfabric.py. How to run: examples/README-experiments.md; what it shows: results/README.md.

The grid (packet level: ns-3, RoCEv2 + PFC, DCQCN off, 40 Gb/s; dedicated servers, the
last hosts; every run keeps its updates.csv under results/mlfabric/out/<hash>/):
  * star:n=11 (10 workers) and fattree:k=4 (15 workers) with one server, and star:n=20
    with 10 workers and 10 servers (the model sharded: the workers' links, not the server's,
    are the bottleneck); 30 iterations of 2 ms compute per worker; an 8 MB model;
  * asp, ssp:bound=3, mlfabric (no delay bound), mlfabric:delay=2, mlfabric:delay=4 and
    mlfabric:aggregate=1 (deferred updates summed at an idle worker; with servers=10 on
    star:n=20);
  * four cases: none; a compute straggler (worker 0, 4x compute: --straggler=0
    --straggler-factor=4); a network straggler: 10 % of the workers with every link at half
    rate (--slow-hosts, --slow-link-fraction=0.5; star: worker 1, fat-tree: workers 1 and 8,
    i.e. 13 %); both together;
  * on the star also 4 MB and 25 MB models (none and network straggler);
  * every run trains a logistic regression on its schedule (train=logreg,lr=8: loss
    against simulated time, plots/mlfabric-loss.png); mlfabric's scheduler weighs each
    push by the norm of that gradient (norms=1, the default with train); on the one-server
    star also mlfabric:norms=0 and mlfabric:delay=4,norms=0 (completion time alone), in
    every case, to show what the norms change.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "sweep"))
import sweep  # noqa: E402

EXPERIMENT = "mlfabric"
ALGORITHMS = ["asp", "ssp:bound=3", "mlfabric", "mlfabric:delay=2", "mlfabric:delay=4",
              "mlfabric:aggregate=1"]
# topology -> (network stragglers, PS servers)
SETUPS = {"star:n=11": ("1", 1), "fattree:k=4": ("1,8", 1), "star:n=20": ("1", 10)}
COMPUTE_STRAGGLER = {"straggler": "0", "straggler-factor": "4"}
# Without the gradient norms in the scheduler (one-server star only).
NO_NORMS = ["mlfabric:norms=0", "mlfabric:delay=4,norms=0"]


# Every run also trains the logistic regression of workloads/convergence-model.h on its
# schedule (it changes no byte or time, only adds each update's loss to updates.csv); a
# learning rate of 8 (the step of N fresh updates) is where stale gradients visibly cost
# loss on this problem (at 1 the curves differ by < 0.1 %).
TRAIN = "train=logreg,lr=8"


def algorithms(servers, names=None):
    """ALGORITHMS (or names) with `servers` PS shards (the driver's default is one),
    training on."""
    out = []
    for a in names or ALGORITHMS:
        name, _, opts = a.partition(":")
        opts = ([f"servers={servers}"] if servers > 1 else []) + ([opts] if opts else []) \
            + [TRAIN]
        out.append(f"{name}:" + ",".join(opts))
    return out


def cases(slow_hosts):
    """(name, options) of the four straggler cases."""
    net = {"slow-hosts": slow_hosts, "slow-link-fraction": "0.5"}
    return [("none", {}), ("compute", COMPUTE_STRAGGLER), ("network", net),
            ("both", dict(COMPUTE_STRAGGLER, **net))]


def spec():
    grids = []
    for topo, (slow, servers) in SETUPS.items():
        for _, options in cases(slow):
            grids.append({"fixed": options, "topology": topo,
                          "algorithm": algorithms(servers)})
    for _, options in cases(SETUPS["star:n=11"][0]):
        grids.append({"fixed": options, "topology": "star:n=11",
                      "algorithm": algorithms(1, NO_NORMS)})
    for _, options in cases(SETUPS["star:n=11"][0])[::2]:
        grids.append({"fixed": options, "topology": "star:n=11", "algorithm": algorithms(1),
                      "model": ["bytes:4MB", "bytes:25MB"]})
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "mtu": "4096",
                      "cc": "none", "pfc": "1", "model": "bytes:8MB", "iterations": "30",
                      "compute": "2ms", "out": "{outdir}"},
            "grids": grids}


if __name__ == "__main__":
    sys.exit(sweep.run_experiment(EXPERIMENT, lambda a: spec(), "mlfabric.py", __doc__))
