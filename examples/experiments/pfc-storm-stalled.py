#!/usr/bin/python3
"""Experiment pfc-storm, part 3: the other storm origin, a receiver that stops
draining, on the victims setup of part 2 (pfc-storm-watchdog.py), with and without a PFC
watchdog.

    examples/experiments/pfc-storm-stalled.py [--paramsync build/paramsync]
                                              [--results results] [--plots plots]
                                              [--jobs N] [--collect] [--emit=slurm|parallel]

Host 8's NIC stops taking frames off the wire from 0.5 ms for 10 ms or without end
(--stop-draining: frames wait in its receive buffer, it pauses its upstream once 256 KB
wait, and processes them all when it drains); the same flows as part 2 (one 20 MB flow from
host 5 into host 8, fourteen 10 MB victims that never touch host 8) on fattree:k=4,
bcube:n=4,k=1 and torus:dims=4x4; watchdog off or 500 us. Writes
results/pfc-storm-stalled/pfc-storm-stalled.csv and plots/pfc-storm-stalled.png.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


part1 = _load("pfc_storm", "pfc-storm.py")
part2 = _load("pfc_storm_watchdog", "pfc-storm-watchdog.py")

EXPERIMENT = "pfc-storm-stalled"
STALLS = ["", f"{part2.STORM_HOST}@{part2.STORM_START}+10ms",
          f"{part2.STORM_HOST}@{part2.STORM_START}"]
WATCHDOGS = ["0", "500us"]


def spec(results):
    return {"experiment": EXPERIMENT,
            "fixed": {"backend": "packet", "rate": "40Gbps", "delay": "1us", "mtu": "4096",
                      "cc": "none", "pfc": "1", "buffer": "4MB", "stop": "50ms",
                      "out": "{outdir}"},
            "grids": [{"topology": topo, "algorithm": "none",
                       "flows": part2.rel(part2.flows_file(results, topo)),
                       "stop-draining": STALLS, "pfc-watchdog": WATCHDOGS}
                      for topo in part2.FAMILIES]}


def prepared_spec(args):
    """The grid, after writing part 2's flow files it names."""
    part2.write_inputs(args.results)
    return spec(args.results)


if __name__ == "__main__":
    sys.exit(part1.sweep.run_experiment(EXPERIMENT, prepared_spec, "pfc-storm-stalled.py",
                                        __doc__))
