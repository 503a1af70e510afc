"""The cache-model part of the scaling section (bench/cache_model.py): reading cachegrind's
summary and the growth over the base case, on hand-written input."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cache_model as cm  # noqa: E402

# A summary as valgrind 3.19's cachegrind writes it with --cache-sim=yes (its log).
SUMMARY = """==17573== I   refs:      6,126,593,928
==17573== I1  misses:        4,776,142
==17573== LLi misses:          768,212
==17573== D   refs:      3,219,421,918  (2,065,261,449 rd   + 1,154,160,469 wr)
==17573== D1  misses:       53,548,771  (   47,982,396 rd   +     5,566,375 wr)
==17573== LLd misses:       34,021,548  (   30,437,464 rd   +     3,584,084 wr)
==17573== LL misses:        34,789,760  (   31,205,676 rd   +     3,584,084 wr)
"""


class ParseSummary(unittest.TestCase):
    def test_the_data_counts_not_the_instruction_or_combined_ones(self):
        # LLd (data) is 34,021,548, not "LL misses" (34,789,760, with instruction fetches);
        # D1 53,548,771, not I1.
        self.assertEqual(cm.parse_summary(SUMMARY), {
            "instructions": 6126593928, "d1_misses": 53548771, "ll_misses": 34021548})

    def test_a_log_without_the_cache_simulation_is_refused(self):
        self.assertIsNone(cm.parse_summary("==1== I   refs:      6,126\n"))

    def test_counts_per_hop(self):
        # 4,000 instructions, 100 L1D and 30 last-level misses over 20 hops: 200, 5, 1.5.
        r = cm.per_hop(20, {"instructions": 4000, "d1_misses": 100, "ll_misses": 30})
        self.assertEqual((r["instructions_per_hop"], r["d1_misses_per_hop"],
                          r["ll_misses_per_hop"]), (200, 5, 1.5))
        self.assertNotIn("page_walks_per_hop", r)

    def test_the_tlb_hierarchys_misses_are_the_page_figures(self):
        # The TLB run's D1 misses (L1 DTLB) 60 and last-level misses (page walks) 8 over the
        # same 20 hops: 3 and 0.4; its instructions are not reported twice.
        r = cm.per_hop(20, {"instructions": 4000, "d1_misses": 100, "ll_misses": 30},
                       {"instructions": 4000, "d1_misses": 60, "ll_misses": 8})
        self.assertEqual((r["d1_misses_per_hop"], r["l1_tlb_misses_per_hop"],
                          r["page_walks_per_hop"]), (5, 3, 0.4))


class Hierarchies(unittest.TestCase):
    def test_the_tlb_model_has_page_lines_and_the_cores_entries(self):
        # size = sets x ways x line: the L1 DTLB 1 set x 96 ways x 4 KiB = 393,216 B; the
        # L2 DTLB 4,096 entries x 4 KiB = 16 MiB in 16 ways (256 sets).
        for spec, entries in ((cm.TLB["d1"], 96), (cm.TLB["ll"], 4096)):
            size, ways, line = (int(x) for x in spec.split(","))
            self.assertEqual(line, 4096)
            self.assertEqual(size // line, entries)
            sets = size // (ways * line)
            self.assertEqual(sets & (sets - 1), 0, "cachegrind needs a power-of-two set count")


class Growth(unittest.TestCase):
    def test_lines_a_hop_adds_over_the_base_case_per_program(self):
        # paramsync 1.25 -> 13.75 misses per hop: +12.5; bare 0.25 -> 3.0: +2.75. A failed
        # run gets no figure.
        # Page walks 0.25 -> 1.5: +1.25.
        cases = {"fattree_k8": {"paramsync": {"ll_misses_per_hop": 1.25,
                                              "page_walks_per_hop": 0.25},
                                "bare": {"ll_misses_per_hop": 0.25}},
                 "fattree_k16": {"paramsync": {"ll_misses_per_hop": 13.75,
                                               "page_walks_per_hop": 1.5},
                                 "bare": {"error": "exit 1"}}}
        cm.attach_growth(cases)
        self.assertEqual(cases["fattree_k16"]["paramsync"]["ll_misses_per_hop_over_base"], 12.5)
        self.assertEqual(cases["fattree_k16"]["paramsync"]["page_walks_per_hop_over_base"], 1.25)
        self.assertEqual(cases["fattree_k8"]["bare"]["ll_misses_per_hop_over_base"], 0.0)
        self.assertNotIn("ll_misses_per_hop_over_base", cases["fattree_k16"]["bare"])


if __name__ == "__main__":
    unittest.main()
