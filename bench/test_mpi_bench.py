"""The MPI part of the scaling section (bench/mpi_bench.py): the speed-up is measured on a
tree rebuilt from these sources, and a tree that does not build is reported, not timed."""
import os
import subprocess
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_bench as mb  # noqa: E402


class RefreshTree(unittest.TestCase):
    def test_a_current_tree_is_none(self):
        ok = subprocess.CompletedProcess([], 0, "tree\n", "")
        self.assertIsNone(mb.refresh_tree(run=lambda *a, **k: ok))

    def test_a_failed_build_names_its_last_line(self):
        failed = subprocess.CompletedProcess([], 1, "", "phase one\nerror: foo.cc:3\n")
        self.assertEqual(mb.refresh_tree(run=lambda *a, **k: failed),
                         "the MPI tree did not build: error: foo.cc:3")

    def test_it_runs_the_tree_builder_of_make_test_mpi(self):
        calls = []

        def run(cmd, **kwargs):
            calls.append(cmd)
            return subprocess.CompletedProcess(cmd, 0, "", "")

        mb.refresh_tree(run=run)
        self.assertEqual(len(calls), 1)
        self.assertTrue(calls[0][0].endswith(os.path.join("test", "ns3-trees",
                                                          "build-ns3-tree.sh")))


class Speedup(unittest.TestCase):
    def test_a_tree_that_does_not_build_is_reported_and_not_timed(self):
        with mock.patch.object(mb, "mpi_check_binary", return_value="/tree/check"), \
                mock.patch.object(mb, "timed") as timed:
            r = mb.mpi_speedup(refresh=lambda: "the MPI tree did not build: x")
        self.assertEqual(r, {"status": "the MPI tree did not build: x"})
        timed.assert_not_called()

    def test_without_a_cached_tree_nothing_is_built(self):
        refresh = mock.Mock(return_value=None)
        with mock.patch.object(mb, "mpi_check_binary", return_value=None):
            r = mb.mpi_speedup(refresh=refresh)
        self.assertTrue(r["status"].startswith("missing"))
        refresh.assert_not_called()

    def test_the_tree_is_refreshed_before_the_runs(self):
        order = []
        with mock.patch.object(mb, "mpi_check_binary", return_value="/tree/check"), \
                mock.patch.object(mb, "timed",
                                  side_effect=lambda cmd: order.append("run") or (1.0, "out")), \
                mock.patch.object(mb, "same_results", return_value=True):
            r = mb.mpi_speedup(refresh=lambda: order.append("refresh"))
        self.assertEqual(order, ["refresh", "run", "run"])
        self.assertEqual(r["status"], "ok")


if __name__ == "__main__":
    unittest.main()
