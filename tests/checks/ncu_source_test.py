#!/usr/bin/env python3
"""Nsight Compute's source page read for the lines with bank conflicts
(wbcore/ncu_source.py), on texts of the page's shape
(tests/checks/data/ncu_source/): the pages an H100 printed, the CUDA and SASS view,
a page without the column, and ncu's error; then the profile check's
message end to end with stand-in ncu and runner, which also show that only
ncu's report file is read: a table or page the kernel prints on the
runner's stdout changes nothing. Runs on the host."""
import pathlib
import shutil
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import ncu_source  # noqa: E402
from wbcore import nsight  # noqa: E402

import stand_in  # noqa: E402

DATA = ROOT / "tests" / "checks" / "data" / "ncu_source"
RAW = ROOT / "tests" / "checks" / "data" / "ncu_raw"


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
                                        "setRowReadCol", log_file="/tmp/x/page.log")
        self.assertEqual(cmd[:9], ["ncu", "--section", "SourceCounters", "--page", "source",
                                   "--print-source", "cuda,sass", "--csv", "-k"])
        self.assertEqual(cmd[9], "regex:(^|::)setRowReadCol$")
        self.assertEqual(cmd[-4:], ["--log-file", "/tmp/x/page.log", "wb_run",
                                    "layout/setRowReadCol"])


class SassPage(unittest.TestCase):
    """The SASS view of the source page, for the shuffles a launch executes
    (the method counter of the shuffle section's kernels)."""

    def test_h100_page(self):
        # The reference shflUp on an H100 (8 warps, one SHFL.UP each).
        found = ncu_source.executed_by_opcode(text("h100_shflUp_sass_view.txt"))
        self.assertEqual(found.warps, 8)
        self.assertEqual(found.by_warp["SHFL"], 8)
        self.assertEqual(found.by_lane["SHFL"], 256)
        self.assertEqual(found.by_warp["LDG"], 8)
        said = nsight.shuffle_counter(found, 1.0)
        self.assertEqual([passed for passed, _ in said], [True, True])
        self.assertIn("lanes taking part in each shuffle 32.00 of 32", said[1][1])

    def test_a_shuffle_that_never_runs_does_not_count(self):
        # The same page with the SHFL row's executions at 0 and a predicate
        # on it, as for a shuffle behind a branch no launch takes.
        page = text("h100_shflUp_sass_view.txt").replace(
            '"      SHFL.UP PT, R9, R2, R9, R0","0","0","8"',
            '"      @P0 SHFL.UP PT, R9, R2, R9, R0","0","0","0"')
        found = ncu_source.executed_by_opcode(page)
        self.assertEqual((found.warps, found.by_warp["SHFL"]), (8, 0))
        said = nsight.shuffle_counter(found, 1.0)
        self.assertEqual(len(said), 1, "no shuffle ran: no lanes to count")
        passed, line = said[0]
        self.assertFalse(passed)
        self.assertIn("shuffles executed per warp 0.00", line)
        self.assertIn("never runs", line)

    def test_a_full_mask_shuffle_with_lanes_missing(self):
        # The mutant shflUp__shuffle_only_where_a_source_lane_exists on an
        # H100: its SHFL.UP ran 8 times with 240 lanes in all.
        found = ncu_source.executed_by_opcode(text("h100_shflUp_partial_lanes_sass_view.txt"))
        self.assertEqual((found.warps, found.by_warp["SHFL"], found.by_lane["SHFL"]),
                         (8, 8, 240))
        said = nsight.shuffle_counter(found, 1.0)
        self.assertEqual([passed for passed, _ in said], [True, False])
        self.assertIn("lanes taking part in each shuffle 30.00 of 32", said[1][1])
        self.assertIn("left or branched away", said[1][1])

    def test_more_shuffles_than_the_technique_lets(self):
        # One SHFL per warp on the page. Where only a quarter of the warps
        # may shuffle (reduceSmemShfl's 1.25 per warp is 5 shuffles by one
        # warp of four), a maximum below it fails; at it, it passes.
        found = ncu_source.executed_by_opcode(text("h100_shflUp_sass_view.txt"))
        passed, line = nsight.shuffle_counter(found, 0.5, max_per_warp=0.75)[0]
        self.assertFalse(passed)
        self.assertIn("shuffles executed per warp 1.00", line)
        self.assertIn("expected at most 0.75", line)
        said = nsight.shuffle_counter(found, 1.0, max_per_warp=1.0)
        self.assertEqual([passed for passed, _ in said], [True, True])
        self.assertIn("at least 1 and at most 1", said[0][1])

    def test_page_without_the_column(self):
        with self.assertRaises(ncu_source.SourcePageError):
            ncu_source.executed_by_opcode(text("h100_cuda_view.txt"))

    def test_command(self):
        cmd = ncu_source.sass_command("ncu", "wb_run", "shuffle/shflUp", "shflUp",
                                      log_file="/tmp/x/page.log")
        self.assertEqual(cmd[:7], ["ncu", "--section", "SourceCounters", "--page", "source",
                                   "--print-source", "sass"])
        self.assertEqual(cmd[-4:], ["--log-file", "/tmp/x/page.log", "wb_run",
                                    "shuffle/shflUp"])


METRIC_NAMES = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                "smsp__inst_executed_op_shared_ld.sum",
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                "smsp__inst_executed_op_shared_st.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]


class SeveralLaunches(unittest.TestCase):
    """The SASS view of the source page for the launches of several kernels
    in one process (a section's batch), as an H200 printed it: a marker
    launch before each kernel's, the first kernel launched twice."""

    def test_each_launch_is_a_table_of_its_own(self):
        launches = ncu_source.tables_by_launch(text("h200_shuffle_batch_sass_view.txt"))
        self.assertEqual([nsight._shown_name(name) for name, _ in launches], [
            "wbRunnerKernelBoundary", "shflUp", "shflUp", "wbRunnerKernelBoundary", "shflXor",
            "wbRunnerKernelBoundary", "reduceShfl"])
        counts = {}
        for name, table in launches:
            found = ncu_source.executed_by_opcode(table)
            counts.setdefault(nsight._shown_name(name), (found.warps, found.by_warp.get("SHFL"),
                                                        found.by_lane.get("SHFL")))
        self.assertEqual(counts["shflUp"], (8.0, 8.0, 256.0))
        self.assertEqual(counts["shflXor"], (8.0, 8.0, 256.0))
        # 16 warps of five steps each, and one warp of each of the 4 blocks five
        # more for its block's sums.
        self.assertEqual(counts["reduceShfl"], (16.0, 100.0, 3200.0))

    def test_a_helper_shown_as_a_table_of_its_own_is_counted(self):
        # A function the kernel calls, shown after the kernel's table: its
        # shuffles are the launch's; the warps are the kernel's first row's.
        header = '"Address","Source","Instructions Executed","Thread Instructions Executed"'
        page = "\n".join([header, '"0x0","LDC R1, c[0x0][0x28]","16","512"',
                          '"0x10","CALL.REL.NOINC 0x40","16","512"', '"0x20","EXIT","16","512"',
                          header, '"0x40","SHFL.BFLY PT, R5, R2, 0x1, 0x1f","80","2560"',
                          '"0x50","RET.REL.NODEC R20 0x0","80","2560"'])
        found = ncu_source.executed_by_opcode(page)
        self.assertEqual((found.warps, found.by_warp["SHFL"], found.by_lane["SHFL"]),
                         (16.0, 80.0, 2560.0))

    def test_rows_before_the_first_launch_are_left_out(self):
        self.assertEqual(ncu_source.tables_by_launch('"Address","Source"\n"0x0","EXIT"\n'), [])


def raw_page(load_wavefronts, extra_columns=()):
    """ncu's raw page (--csv --page raw) for one launch of setRowReadCol
    whose 32 load requests took `load_wavefronts` wavefronts; extra_columns
    are more metric columns put first, as ncu prints every raw metric into
    a --log-file."""
    names = list(extra_columns) + METRIC_NAMES
    values = ["7"] * len(extra_columns) + [str(load_wavefronts), "32", "32", "32", "0", "0",
                                           "128", "32"]
    return ('"ID","Process ID","Kernel Name",' + ",".join(f'"{n}"' for n in names) + "\n"
            + '"","","",' + ",".join('""' for _ in names) + "\n"
            + '"0","4242","wb::layout::square::setRowReadCol(int *)",'
            + ",".join(f'"{v}"' for v in values) + "\n")


class ProfileCheckMessage(unittest.TestCase):
    """tests/checks/profile_check.py with a stand-in ncu that writes its
    report (metrics, or the source page `page`) into the --log-file it is
    given, as ncu does; the runner's output goes to stdout, with whatever
    the kernel printed (`printed`)."""

    def run_check(self, page, report=None, printed="", exit_status=0, forged_page=None):
        notes = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, notes, True)
        ncu = stand_in.find_log(notes) + f"""\
            case "$*" in
              *"--page source"*) cat {page} > "$log"
                                 {f'cat {forged_page}' if forged_page else ''}
                                 exit 0;;
              *) cat {{dir}}/metrics.csv > "$log"
                 echo "==PROF== Disconnected from process 4242" >> "$log"
                 cat {{dir}}/printed.txt
                 exit {exit_status};;
            esac
            """
        proc = stand_in.run_check(
            "profile_check.py", {"ncu": ncu}, "layout/setRowReadCol",
            ["--kernel", "layout/setRowReadCol", "--name", "wb::layout::square::setRowReadCol",
             "--load", "1", "--store", "1",
             "--source-dir", "/home/student/workbook/starter=starter"],
            files={"metrics.csv": report if report is not None else raw_page(1024),
                   "printed.txt": printed})
        self.modes = (notes / "modes").read_text().split() if (notes / "modes").exists() else []
        self.logs = (notes / "logs").read_text().split() if (notes / "logs").exists() else []
        return proc

    def student_page(self, tmp):
        page = pathlib.Path(tmp) / "page.txt"
        page.write_text(text("h100_cuda_sass_view.txt").replace(
            "/work/main/tests/mutants/layout/setRowReadColDynPad__padding_unused.cu",
            "/home/student/workbook/starter/layout/setRowReadCol.cu"))
        return page

    def test_lines_follow_the_failure(self):
        # The H100's page, as if the student's own file had been profiled.
        with tempfile.TemporaryDirectory() as tmp:
            proc = self.run_check(self.student_page(tmp))
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

    def test_forged_table_on_stdout_is_not_read(self):
        # A kernel with a 32-way conflict that printf's a whole table of its
        # own (header, units, a row claiming 1 wavefront per request) before
        # ncu's: measured on an H100, the table it forged used to be read.
        with tempfile.TemporaryDirectory() as tmp:
            proc = self.run_check(self.student_page(tmp), printed=raw_page(32) + "ok\n")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertTrue(proc.stdout.startswith("FAILED layout/setRowReadCol: shared load "
                                               "wavefronts per request 32.00"), proc.stdout)

    def test_forged_row_cannot_fail_a_right_kernel(self):
        proc = self.run_check(DATA / "no_column.txt", report=raw_page(32),
                              printed=raw_page(1024) + "layout/setRowReadCol: ok\n")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("shared load wavefronts per request 1.00 = expected 1.00", proc.stdout)

    def test_columns_found_by_name_among_all_raw_metrics(self):
        # With --log-file, the raw page holds every raw metric, in ncu's order.
        report = raw_page(32, extra_columns=["dram__bytes_read.sum", "sm__cycles_elapsed.avg"])
        proc = self.run_check(DATA / "no_column.txt", report=report)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_forged_source_page_on_stdout_is_not_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            forged = pathlib.Path(tmp) / "forged.txt"
            forged.write_text(text("h100_cuda_sass_view.txt").replace('"17"', '"99"'))
            proc = self.run_check(self.student_page(tmp), forged_page=forged)
        self.assertIn("  where: starter/layout/setRowReadCol.cu:17: 992 excess", proc.stdout)
        self.assertNotIn(":99:", proc.stdout)

    def test_reports_in_private_folders_removed_after(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.run_check(self.student_page(tmp))
        self.assertEqual(len(self.logs), 2, self.logs)   # the metrics, then the source page
        self.assertEqual(self.modes, ["700", "700"])
        for log in self.logs:
            self.assertFalse(pathlib.Path(log).parent.exists(), log)

    def test_runner_exit_status_fails_the_check(self):
        # The runner's exit status (passed on by ncu) says the kernel was
        # wrong even where its WRONG line is not read.
        proc = self.run_check(DATA / "no_column.txt", report=raw_page(32), exit_status=1)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("must be correct before its bank behaviour is graded:\n"
                      "the kernel gave a wrong result (runner exit 1)", proc.stdout)

    def test_wrong_line_fails_the_check(self):
        proc = self.run_check(DATA / "no_column.txt", report=raw_page(32),
                              printed="WRONG layout/setRowReadCol: 3 of 1024 wrong\n",
                              exit_status=1)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("WRONG layout/setRowReadCol: 3 of 1024 wrong", proc.stdout)

    def test_no_report_says_why(self):
        proc = self.run_check(DATA / "no_column.txt", report="==ERROR== something failed\n")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("ncu produced no metrics", proc.stdout)
        self.assertIn("==ERROR== something failed", proc.stdout)


class RecordedH100(unittest.TestCase):
    """The reports an H100 wrote (tests/checks/data/ncu_raw/, --log-file)
    for the forgery transposeSmemPad__prints_fake_ncu_row and the reference
    kernel, with what the runner printed on stdout in the same run."""

    def test_raw_page_holds_every_metric_and_launch(self):
        header, data = nsight.read_raw_page((RAW / "h100_solution_report.txt").read_text())
        self.assertEqual(len(header), 302)
        for metric in list(nsight.SHARED_METRICS.values()) + list(nsight.GLOBAL_METRICS.values()):
            self.assertIn(metric, header)
        names = [row[header.index("Kernel Name")] for row in data]
        self.assertEqual(len(names), 4)
        self.assertTrue(names[-1].startswith("transpose::transposeSmemPad("), names)

    def test_the_forged_table_claims_a_pass(self):
        # What the kernel printed is a table of the page's shape: read as
        # ncu's output, it says 1 wavefront per request.
        header, data = nsight.read_raw_page((RAW / "h100_forgery_stdout.txt").read_text())
        ld = nsight.SHARED_METRICS["ld_wavefronts"], nsight.SHARED_METRICS["ld_requests"]
        self.assertEqual([data[0][header.index(m)] for m in ld], ["16", "16"])

    def run_check(self, report, stdout, page=None):
        ncu = stand_in.find_log(self.notes) + f"""\
            case "$*" in
              *"--page source"*) cat {page or DATA / "no_column.txt"} > "$log";;
              *) cat {report} > "$log";;
            esac
            cat {stdout}
            exit 0
            """
        return stand_in.run_check(
            "profile_check.py", {"ncu": ncu}, "transpose/transposeSmemPad",
            ["--kernel", "transpose/transposeSmemPad", "--name",
             "wb::transpose::transposeSmemPad", "--load", "1", "--store", "1",
             "--store-sectors", "4", "--source-dir", "/work/main/build-tools-sub=starter"])

    def setUp(self):
        self.notes = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.notes, True)

    def test_the_report_wins_over_the_forged_table(self):
        proc = self.run_check(RAW / "h100_forgery_report.txt", RAW / "h100_forgery_stdout.txt",
                              DATA / "h100_forgery_report.txt")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "FAILED transpose/transposeSmemPad: shared load wavefronts "
                                   "per request 9.14, expected 1.00 from the bank model: a bank "
                                   "conflict the exercise must avoid")
        self.assertIn("  where: starter/transpose/transposeSmemPad.cu:51: 240 excess shared "
                      "wavefronts (256 taken, 16 needed)", proc.stdout)
        self.assertIn("global store sectors per request 1.06, expected 4.00", proc.stdout)

    def test_the_reference_passes(self):
        proc = self.run_check(RAW / "h100_solution_report.txt", RAW / "h100_forgery_stdout.txt")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines(), [
            "transpose/transposeSmemPad: shared load wavefronts per request 1.00 = expected 1.00",
            "transpose/transposeSmemPad: shared store wavefronts per request 1.00 = expected 1.00",
            "transpose/transposeSmemPad: global store sectors per request 4.00 = expected 4.00"])


if __name__ == "__main__":
    unittest.main()
