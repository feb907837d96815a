#!/usr/bin/env python3
"""Nsight Compute's source page read for the lines with bank conflicts
(wbcore/ncu_source.py), on texts of the page's shape
(tests/checks/data/ncu_source/): the pages an H100 printed, the CUDA and SASS view,
a page without the column, and ncu's error; then the profile check's
message end to end with stand-in ncu and runner. Runs on the host."""
import pathlib
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from wbcore import ncu_source  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "checks"))
import stand_in  # noqa: E402

DATA = ROOT / "tests" / "checks" / "data" / "ncu_source"


def text(name):
    return (DATA / name).read_text()


class SourcePage(unittest.TestCase):
    def test_h100_page(self):
        # What ncu 2025.3.1 printed on an H100 for a 32 x 32 tile read by column.
        lines = ncu_source.parse(text("h100_cuda_sass_view.txt"))
        self.assertEqual([(l.line, l.wavefronts, l.ideal, l.excessive) for l in lines],
                         [(15, 32, 32, 0), (17, 1024, 32, 992)])
        self.assertTrue(lines[0].path.endswith("mutants/layout/"
                                               "setRowReadColDynPad__padding_unused.cu"))
        shown = ncu_source.describe(lines, [("/work/main", "")])
        self.assertEqual(len(shown), 1, shown)
        self.assertIn(":17: 992 excess shared wavefronts (1024 taken, 32 needed): "
                      "out[g] = tile[threadIdx.x * pitch + threadIdx.y];", shown[0])

    def test_h100_cuda_view_has_no_metrics(self):
        # --print-source cuda alone: the source without a metric column.
        with self.assertRaises(ncu_source.SourcePageError):
            ncu_source.parse(text("h100_cuda_view.txt"))

    def test_cuda_and_sass_view_skips_sass_rows(self):
        lines = ncu_source.parse(text("cuda_sass_view.txt"))
        self.assertEqual([l.line for l in lines], [31, 38])
        shown = ncu_source.describe(lines, [("/srv/grade/slot3/submission", "starter")])
        self.assertEqual(len(shown), 1)
        self.assertTrue(shown[0].startswith("starter/transpose/transposeSmemPad.cu:38: 240 excess"),
                        shown)
        self.assertIn("tile[icol][irow]", shown[0])

    def test_no_conflict_no_line(self):
        page = text("h100_cuda_sass_view.txt").replace('"992"', '"0"')
        self.assertEqual(ncu_source.describe(ncu_source.parse(page)), [])

    def test_page_without_the_column(self):
        with self.assertRaises(ncu_source.SourcePageError) as err:
            ncu_source.parse(text("no_column.txt"))
        self.assertIn(ncu_source.EXCESSIVE, str(err.exception))

    def test_ncu_error(self):
        with self.assertRaises(ncu_source.SourcePageError):
            ncu_source.parse(text("error.txt"))

    def test_command(self):
        cmd = ncu_source.source_command("ncu", "wb_run", "layout/setRowReadCol",
                                        "setRowReadCol")
        self.assertEqual(cmd[:9], ["ncu", "--section", "SourceCounters", "--page", "source",
                                   "--print-source", "cuda,sass", "--csv", "-k"])
        self.assertEqual(cmd[9], "regex:(^|::)setRowReadCol$")


class ProfileCheckMessage(unittest.TestCase):
    """tests/checks/profile_check.py with a stand-in ncu: its metrics say 32
    wavefronts per load request; its source page is `page`."""

    def run_check(self, page):
        names = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                 "smsp__inst_executed_op_shared_ld.sum",
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                 "smsp__inst_executed_op_shared_st.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                 "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]
        values = ["1024", "32", "32", "32", "0", "0", "128", "32"]
        metrics = ('"ID","Kernel Name",' + ",".join(f'"{n}"' for n in names) + "\n"
                   + '"","",' + ",".join('""' for _ in names) + "\n"
                   + '"0","wb::layout::square::setRowReadCol(int *)",'
                   + ",".join(f'"{v}"' for v in values) + "\n")
        ncu = f"""\
            case "$*" in
              *"--page source"*) cat {page}; exit 0;;
              *) cat {{dir}}/metrics.csv; echo "layout/setRowReadCol: ok"; exit 0;;
            esac
            """
        return stand_in.run_check(
            "profile_check.py", {"ncu": ncu}, "layout/setRowReadCol",
            ["--kernel", "layout/setRowReadCol", "--name", "wb::layout::square::setRowReadCol",
             "--load", "1", "--store", "1",
             "--source-dir", "/home/student/workbook/starter=starter"],
            files={"metrics.csv": metrics})

    def test_lines_follow_the_failure(self):
        # The H100's page, as if the student's own file had been profiled.
        with tempfile.TemporaryDirectory() as tmp:
            page = pathlib.Path(tmp) / "page.txt"
            page.write_text(text("h100_cuda_sass_view.txt").replace(
                "/work/main/tests/mutants/layout/setRowReadColDynPad__padding_unused.cu",
                "/home/student/workbook/starter/layout/setRowReadCol.cu"))
            proc = self.run_check(page)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertTrue(lines[0].startswith("FAILED layout/setRowReadCol: shared load wavefronts "
                                            "per request 32.00, expected 1.00"), lines)
        self.assertEqual(lines[2], "  where: starter/layout/setRowReadCol.cu:17: 992 excess "
                                   "shared wavefronts (1024 taken, 32 needed): "
                                   "out[g] = tile[threadIdx.x * pitch + threadIdx.y];")

    def test_degrades_without_the_page(self):
        proc = self.run_check(DATA / "no_column.txt")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("  (the lines of the conflicting accesses are not available: ncu printed "
                      "no source table", proc.stdout)
        self.assertTrue(proc.stdout.startswith("FAILED layout/setRowReadCol: shared load"))


if __name__ == "__main__":
    unittest.main()
