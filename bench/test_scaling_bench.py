"""Ratios of the scaling section (bench/scaling_bench.py): hand-made runs, hand-derived figures."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scaling_bench as sb  # noqa: E402


def run(cpu, hops):
    """One run's record as run_case / run_bare return it (what the ratios read)."""
    return {"user_cpu_s": cpu, "pkt_hops": hops, "peak_rss_kb": 1000}


def case(runs):
    """summarize() of a case's runs (its topology and size do not enter the ratios)."""
    return sb.summarize({"topo": "fattree:k=8", "hosts": 128, "bytes": 1}, runs)


class PairedRatios(unittest.TestCase):
    def test_each_round_against_the_same_rounds_base(self):
        # base 100 hops in 1, 2, 1 s; the case 500 hops in 10, 20, 12 s. Per round:
        # (10/500)/(1/100) = 2.0, (20/500)/(2/100) = 2.0, (12/500)/(1/100) = 2.4.
        base = [run(1.0, 100), run(2.0, 100), run(1.0, 100)]
        big = [run(10.0, 500), run(20.0, 500), run(12.0, 500)]
        self.assertEqual([round(x, 6) for x in sb.paired_ratios(big, base)], [2.0, 2.0, 2.4])

    def test_a_failed_run_leaves_its_round_out(self):
        base = [run(1.0, 100), {"error": "exit 1"}, run(1.0, 100)]
        big = [run(10.0, 500), run(20.0, 500), {"error": "exit 2"}]
        self.assertEqual([round(x, 6) for x in sb.paired_ratios(big, base)], [2.0])

    def test_median_is_the_lower_middle(self):
        self.assertEqual(sb.median([3, 1, 2]), 2)
        self.assertEqual(sb.median([4, 1, 3, 2]), 2)
        self.assertIsNone(sb.median([]))


class AttachRatios(unittest.TestCase):
    def test_a_slow_round_moves_the_median_ratio_and_not_the_paired_one(self):
        # Round 2 ran on a machine twice as slow for both cases. Medians by CPU: base 1 s
        # (of 1, 2, 1), the case 12 s (of 10, 20, 12): (12/500)/(1/100) = 2.4. Paired: 2.0
        # (of 2.0, 2.0, 2.4). Bare: base 0.5, 1.0, 0.5 s for 100 hops, the case 3, 6, 3 s for
        # 600 hops: every round (3/600)/(0.5/100) = 1.0 and (6/600)/(1/100) = 1.0, median
        # by CPU 3 s and 0.5 s: 1.0. Over bare: 2.4 / 1.0; paired 2.0, 2.0, 2.4 -> 2.0.
        runs = {"fattree_k8": [run(1.0, 100), run(2.0, 100), run(1.0, 100)],
                "big": [run(10.0, 500), run(20.0, 500), run(12.0, 500)]}
        bare = {"fattree_k8": [run(0.5, 100), run(1.0, 100), run(0.5, 100)],
                "big": [run(3.0, 600), run(6.0, 600), run(3.0, 600)]}
        cases = {n: case(r) for n, r in runs.items()}
        for n in cases:
            cases[n]["bare"] = sb.median_run(bare[n])
        sb.attach_ratios(cases, runs, bare)
        c = cases["big"]
        self.assertAlmostEqual(c["cpu_per_hop_over_base"], 2.4)
        self.assertAlmostEqual(c["cpu_per_hop_over_base_paired"], 2.0)
        self.assertAlmostEqual(c["bare"]["cpu_per_hop_over_base"], 1.0)
        self.assertAlmostEqual(c["bare"]["cpu_per_hop_over_base_paired"], 1.0)
        self.assertAlmostEqual(c["over_bare_growth"], 2.4)
        self.assertAlmostEqual(c["over_bare_growth_paired"], 2.0)
        self.assertAlmostEqual(cases["fattree_k8"]["cpu_per_hop_over_base_paired"], 1.0)

    def test_a_case_is_paired_with_the_base_run_made_right_before_it(self):
        # The round's first base runs took 1 s for 100 hops; the machine was twice as slow
        # when the case ran, and so was the base run made right before it (2 s). Paired with
        # the neighbours: (20/500)/(2/100) = 2.0 each round; with the first runs it would be
        # (20/500)/(1/100) = 4.0. Bare likewise: neighbours 1 s for 100 hops, the case 6 s
        # for 600: (6/600)/(1/100) = 1.0; over bare, paired: 2.0 / 1.0 = 2.0. The medians
        # do not pair: (20/500)/(1/100) = 4.0.
        runs = {"fattree_k8": [run(1.0, 100), run(1.0, 100)],
                "big": [run(20.0, 500), run(20.0, 500)]}
        neighbours = {"big": [run(2.0, 100), run(2.0, 100)]}
        bare = {"fattree_k8": [run(0.5, 100), run(0.5, 100)],
                "big": [run(6.0, 600), run(6.0, 600)]}
        bare_neighbours = {"big": [run(1.0, 100), run(1.0, 100)]}
        cases = {n: case(r) for n, r in runs.items()}
        for n in cases:
            cases[n]["bare"] = sb.median_run(bare[n])
        sb.attach_ratios(cases, runs, bare, neighbours=neighbours,
                         bare_neighbours=bare_neighbours)
        c = cases["big"]
        self.assertAlmostEqual(c["cpu_per_hop_over_base_paired"], 2.0)
        self.assertAlmostEqual(c["cpu_per_hop_over_base"], 4.0)
        self.assertAlmostEqual(c["bare"]["cpu_per_hop_over_base_paired"], 1.0)
        self.assertAlmostEqual(c["over_bare_growth_paired"], 2.0)

    def test_without_bare_runs_there_is_no_growth_over_bare(self):
        runs = {"fattree_k8": [run(1.0, 100)], "big": [run(4.0, 200)]}
        cases = {n: case(r) for n, r in runs.items()}
        for n in cases:
            cases[n]["bare"] = {"status": "missing"}
        sb.attach_ratios(cases, runs, {n: [] for n in runs})
        # (4/200)/(1/100) = 2.0
        self.assertAlmostEqual(cases["big"]["cpu_per_hop_over_base_paired"], 2.0)
        self.assertNotIn("over_bare_growth", cases["big"])


class PageWalk(unittest.TestCase):
    def write_program(self, d, body):
        """An executable page-walk-bench in d that runs body (sh)."""
        path = os.path.join(d, "page-walk-bench")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)

    def test_the_programs_figures_are_kept(self):
        with tempfile.TemporaryDirectory() as d:
            self.write_program(d, "echo '{\"lines_2mb_ns\":9.5,\"lines_256mb_ns\":300.0,"
                                  "\"line_per_page_16mb_ns\":20.0,"
                                  "\"line_per_page_128mb_ns\":310.0,\"steps\":5}'")
            r = sb.page_walk(d)
        self.assertEqual(r["status"], "ok")
        self.assertEqual(r["line_per_page_128mb_ns"], 310.0)
        self.assertEqual(r["lines_2mb_ns"], 9.5)

    def test_a_missing_or_failing_program_is_said_so(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(sb.page_walk(d), {"status": "missing"})
            self.write_program(d, "exit 3")
            r = sb.page_walk(d)
        self.assertEqual(r["status"], "failed")
        self.assertEqual(r["error"], "exit 3")


if __name__ == "__main__":
    unittest.main()
