#!/usr/bin/python3
"""Tests of the sweep runner (examples/sweep/sweep.py) on a tiny fluid grid.

    test_sweep.py PARAMSYNC_BINARY      (CTest: sweep-runner)

The grid: star:n=4 x {ring, mesh} x {10, 40 Gb/s} with bytes:1MB on the fluid backend, plus
one point that cannot run (hips on fattree:k=2: hips needs host groups, the driver exits 2).

Closed form of the four good points: on a star every host has one link to the switch. Ring
allreduce (2 (N-1) steps of W/N) and mesh (diffuse, then collect: N-1 pieces of W/N each way)
both move 2 (N-1)/N W bytes over every host link in each direction, and the link is busy at
full rate throughout (one flow, or N-1 flows sharing it fairly, all of equal size), so
GST = 2 (N-1)/N x W x 8 / B = 2 x 3/4 x 8e6 bit / B = 12e6 bit / B:
1.2 ms at 10 Gb/s and 0.3 ms at 40 Gb/s (W = 1 MB = 1e6 bytes).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep  # noqa: E402

PARAMSYNC = None  # set from argv

SPEC = {
    "experiment": "tiny",
    "fixed": {"backend": "fluid", "model": "bytes:1MB"},
    "grids": [
        {"topology": "star:n=4", "algorithm": ["ring", "mesh"], "rate": ["10Gbps", "40Gbps"]},
        {"topology": "fattree:k=2", "algorithm": "hips"},
    ],
}
GOOD = 4  # 1 topology x 2 algorithms x 2 rates
TOTAL = GOOD + 1


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.results = os.path.join(self.tmp.name, "results")
        self.spec_path = os.path.join(self.tmp.name, "tiny.json")
        with open(self.spec_path, "w") as f:
            json.dump(SPEC, f)

    def tearDown(self):
        self.tmp.cleanup()

    def cli(self, *extra):
        return subprocess.run([sys.executable, os.path.join(HERE, "sweep.py"), self.spec_path,
                               "--paramsync", PARAMSYNC, "--results", self.results,
                               "--jobs", "2", *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def stub(self, marker):
        """A driver stand-in that leaves a marker file when it is executed at all."""
        path = os.path.join(self.tmp.name, "stub.sh")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\necho x >> {marker}\nexit 1\n")
        os.chmod(path, 0o755)
        return path

    def test_grid_runs_and_csv_has_a_row_per_point(self):
        p = self.cli()
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = read_csv(os.path.join(self.results, "tiny", "tiny.csv"))
        self.assertEqual(len(rows), TOTAL)
        good = [r for r in rows if r["exit_code"] == "0"]
        self.assertEqual(len(good), GOOD)
        seen = set()
        for r in good:
            seen.add((r["algorithm"], r["rate"]))
            # option columns as given; the driver's own columns beside them
            self.assertEqual(r["topology"], "star:n=4")
            self.assertEqual(r["workers"], "4")
            self.assertEqual(r["status"], "ok")
            expected = 12e6 / {"10Gbps": 10e9, "40Gbps": 40e9}[r["rate"]]  # see the docstring
            self.assertAlmostEqual(float(r["gst_s"]), expected, delta=expected * 1e-3)
            self.assertTrue(r["out_algorithm"].startswith(r["algorithm"]))
        self.assertEqual(seen, {(a, b) for a in ("ring", "mesh") for b in ("10Gbps", "40Gbps")})
        runs = os.listdir(os.path.join(self.results, "tiny", "runs"))
        self.assertEqual(sorted(runs), sorted(sweep.run_hash(pt) + ".json"
                                              for pt in sweep.expand(SPEC)[1]))

    def test_failing_point_is_recorded_with_exit_2_and_does_not_stop_the_rest(self):
        p = self.cli()
        self.assertEqual(p.returncode, 0, p.stderr)  # every point has a stored result
        self.assertIn("1 failed run(s) recorded", p.stderr)
        rows = read_csv(os.path.join(self.results, "tiny", "tiny.csv"))
        bad = [r for r in rows if r["exit_code"] != "0"]
        self.assertEqual(len(bad), 1)
        self.assertEqual(bad[0]["exit_code"], "2")
        self.assertEqual(bad[0]["topology"], "fattree:k=2")
        self.assertIn("does not apply", bad[0]["error"])  # the driver's stderr line
        self.assertEqual(bad[0]["gst_s"], "")
        rec = sweep.read_record(os.path.join(self.results, "tiny", "runs",
                                             bad[0]["run"] + ".json"))
        self.assertEqual(rec["exit_code"], 2)
        self.assertFalse(rec["ok"])

    def test_rerun_executes_nothing(self):
        self.assertEqual(self.cli().returncode, 0)
        marker = os.path.join(self.tmp.name, "executed")
        s = sweep.Sweep(SPEC, self.stub(marker), self.results)
        with open(os.devnull, "w") as quiet:
            self.assertEqual(s.run(jobs=2, stream=quiet), [])
        self.assertFalse(os.path.exists(marker))
        # the failed point is kept too, and rerun only on request: exactly one execution
        with open(os.devnull, "w") as quiet:
            again = s.run(jobs=2, retry_failed=True, stream=quiet)
        self.assertEqual(len(again), 1)
        with open(marker) as f:
            self.assertEqual(f.read(), "x\n")

    def test_a_run_stopped_by_a_signal_is_not_stored_and_runs_again(self):
        path = os.path.join(self.tmp.name, "stopped.sh")
        with open(path, "w") as f:
            f.write("#!/bin/sh\nkill -TERM $$\n")  # as a batch system's time limit does
        os.chmod(path, 0o755)
        s = sweep.Sweep(SPEC, path, self.results)
        with open(os.devnull, "w") as quiet:
            recs = s.run(jobs=2, stream=quiet)
        self.assertEqual(len(recs), TOTAL)
        self.assertTrue(all(not r["stored"] for r in recs))
        self.assertEqual(len(s.pending()), TOTAL)  # nothing recorded: all run next time

    def test_interrupted_sweep_resumes_with_the_missing_points_only(self):
        s = sweep.Sweep(SPEC, PARAMSYNC, self.results)
        with open(os.devnull, "w") as quiet:
            self.assertEqual(len(s.run(jobs=2, stream=quiet)), TOTAL)
            lost = s.points[1]
            os.unlink(s.record_path(lost))  # as if the sweep stopped before this run ended
            redone = s.run(jobs=2, stream=quiet)
        self.assertEqual([r["options"] for r in redone], [lost])
        leftovers = [f for f in os.listdir(s.runs_dir) if not f.endswith(".json")]
        self.assertEqual(leftovers, [])  # atomic writes leave no partial files

    def test_emitted_slurm_and_parallel_files_list_every_point(self):
        points = sweep.expand(SPEC)[1]
        self.assertEqual(len(points), TOTAL)
        p = self.cli("--emit=slurm")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.results, "tiny", "tiny.slurm")) as f:
            slurm = f.read()
        self.assertIn(f"#SBATCH --array=0-{TOTAL - 1}\n", slurm)
        p = self.cli("--emit=parallel")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.results, "tiny", "tiny.parallel")) as f:
            jobs = f.read().splitlines()
        self.assertEqual(len(jobs), TOTAL)
        for i, pt in enumerate(points):
            options = json.dumps(pt, separators=(",", ":"))
            self.assertIn(f"\n    {i})\n", slurm)  # one array task per point (<= 1000)
            self.assertEqual(sum(options in line for line in slurm.splitlines()), 1)
            self.assertEqual(sum(options in line for line in jobs), 1)
        # a job line run by hand stores the same record a local sweep would
        subprocess.run(jobs[0], shell=True, check=True)
        rec = sweep.read_record(os.path.join(self.results, "tiny", "runs",
                                             sweep.run_hash(points[0]) + ".json"))
        self.assertTrue(rec["ok"])
        self.assertAlmostEqual(rec["rows"][0]["gst_s"], 12e6 / 10e9, delta=1e-9)

    def test_outdir_placeholder_gives_each_run_its_own_out_directory(self):
        spec = {"experiment": "outs",
                "fixed": {"backend": "fluid", "model": "bytes:1MB", "topology": "star:n=4",
                          "out": "{outdir}"},
                "grid": {"algorithm": ["ring", "mesh"], "rate": "10Gbps"}}
        s = sweep.Sweep(spec, PARAMSYNC, self.results)
        with open(os.devnull, "w") as quiet:
            self.assertEqual(len(s.run(jobs=2, stream=quiet)), 2)
        for p in s.points:
            summary = os.path.join(self.results, "outs", "out", sweep.run_hash(p),
                                   "summary.json")
            with open(summary) as f:
                runs = json.load(f)["runs"]
            self.assertEqual(len(runs), 1)
            self.assertTrue(runs[0]["algorithm"].startswith(p["algorithm"]))
            self.assertAlmostEqual(runs[0]["gst_s"], 12e6 / 10e9, delta=1e-9)  # docstring

    def test_slurm_array_of_more_than_1000_points_runs_several_per_task(self):
        # 2002 points > 1000: ceil(2002 / 1000) = 3 points a task, ceil(2002 / 3) = 668
        # tasks (indices 0..667), the last one with 2002 - 667 x 3 = 1 point.
        spec = {"experiment": "big", "grid": {"topology": "star:n=4",
                                              "seed": list(range(1, 2003))}}
        s = sweep.Sweep(spec, PARAMSYNC, self.results)
        path, _ = s.emit("slurm")
        with open(path) as f:
            text = f.read()
        self.assertIn("#SBATCH --array=0-667\n", text)
        self.assertEqual(text.count("--one"), 2002)
        self.assertIn('"seed":"2002"}\' || rc=1\n        ;;\n    *)', text)
        self.assertEqual(text.count("\n        ;;"), 668)

    def test_a_grid_where_every_run_fails_exits_4(self):
        # Only the point that cannot run (hips needs host groups): stored, but no result.
        with open(self.spec_path, "w") as f:
            json.dump({"experiment": "tiny", "fixed": SPEC["fixed"], "grids": [SPEC["grids"][1]]},
                      f)
        p = self.cli()
        self.assertEqual(p.returncode, 4, p.stderr)
        self.assertIn("every run failed", p.stderr)

    def test_bad_spec_is_one_line_and_exit_2(self):
        with open(self.spec_path, "w") as f:
            json.dump({"experiment": "tiny", "grids": [{"--topology": "star:n=4"}]}, f)
        p = self.cli()
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1)
        self.assertIn("--topology", p.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_sweep.py PARAMSYNC_BINARY")
    PARAMSYNC = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
