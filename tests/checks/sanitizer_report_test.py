#!/usr/bin/env python3
"""compute-sanitizer's reports read at the line (wbcore/sanitizer_report.py),
on texts in the tool's formats (tests/checks/data/sanitizer/): racecheck's
analysis and hazard records, old and new location syntax, memcheck,
synccheck and initcheck, a module without line information, and paths
from elsewhere shown as the student knows them; then the sanitize check
end to end with a stand-in compute-sanitizer, which also shows that only
the tool's report file is read: "=========" lines the kernel prints on the
runner's stdout change nothing. Runs on the host."""
import pathlib
import shutil
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]

from wbcore import sanitizer_report as sr  # noqa: E402

import stand_in  # noqa: E402

DATA = ROOT / "tests" / "checks" / "data" / "sanitizer"
SLOT = [("/srv/grade/slot3/submission", "starter")]


def text(name):
    return (DATA / name).read_text()


class Locations(unittest.TestCase):
    def test_new_syntax(self):
        loc = sr.parse_location("wb::r::k(int *, int *)+0x2f0 in /a/b/k.cu:41")
        self.assertEqual(loc, sr.Location("/a/b/k.cu", 41, "wb::r::k(int *, int *)"))

    def test_old_syntax(self):
        loc = sr.parse_location("0x00001ab0 in k.cu:41:wb::r::k(int*, int*)")
        self.assertEqual(loc, sr.Location("k.cu", 41, "wb::r::k(int*, int*)"))

    def test_without_line_information(self):
        loc = sr.parse_location("wb::t::k(float *, const float *, int, int)+0x200")
        self.assertEqual((loc.path, loc.line), ("", 0))
        self.assertEqual(loc.function, "wb::t::k(float *, const float *, int, int)")


class Paths(unittest.TestCase):
    def test_repository_path(self):
        self.assertEqual(sr.display_path(str(ROOT / "starter" / "layout" / "x.cu")),
                         "starter/layout/x.cu")

    def test_grader_slot_shown_as_starter(self):
        self.assertEqual(sr.display_path("/srv/grade/slot3/submission/layout/x.cu", SLOT),
                         "starter/layout/x.cu")

    def test_other_checkout(self):
        self.assertEqual(sr.display_path("/home/a/wb/starter/reduction/r.cu"),
                         "starter/reduction/r.cu")
        self.assertEqual(sr.display_path("/home/a/wb/tests/mutants/reduction/r__x.cu"),
                         "tests/mutants/reduction/r__x.cu")

    def test_bare_name_matched_to_the_exercise_file(self):
        self.assertEqual(sr.display_path("r.cu", (), ["starter/reduction/r.cu"]),
                         "starter/reduction/r.cu")
        self.assertEqual(sr.display_path("other.cu", (), ["starter/reduction/r.cu"]), "other.cu")

    def test_unknown_absolute_path_kept(self):
        self.assertEqual(sr.display_path("/usr/include/x.h"), "/usr/include/x.h")


class Racecheck(unittest.TestCase):
    def test_analysis_records(self):
        findings = sr.parse(text("racecheck_analysis.txt"))
        self.assertEqual(len(findings), 4)   # two "and" lines make two pairs
        self.assertEqual([f.hazards for f in findings], [40, 24, 8, 64])
        self.assertEqual([f.severity for f in findings], ["warning"] * 3 + ["error"])
        first = findings[0]
        self.assertEqual([(a.kind, a.location.line) for a in first.accesses],
                         [("write", 41), ("read", 42)])

    def test_analysis_lines(self):
        lines = sr.explain(text("racecheck_analysis.txt"))
        self.assertEqual(lines[0], "starter/reduction/reduceSmem.cu:41 writes, :42 reads: "
                                   "40 hazards between lanes of one warp")
        self.assertIn("__syncwarp()", lines[1])
        # the same fix is not repeated for the next warp-level groups
        self.assertEqual(sum("__syncwarp()" in l for l in lines), 1)
        block = [l for l in lines if ":33 writes, :36 reads" in l]
        self.assertEqual(block, ["starter/reduction/reduceSmem.cu:33 writes, :36 reads: "
                                 "64 hazards between threads of different warps"])
        self.assertIn("__syncthreads()", lines[lines.index(block[0]) + 1])

    def test_hazard_records_grouped_with_threads(self):
        findings = sr.parse(text("racecheck_hazard.txt"))
        self.assertEqual([f.hazard_type for f in findings], ["RAW", "RAW", "WAR"])
        self.assertEqual(findings[0].accesses[0].thread, (33, 0, 0))
        self.assertEqual(findings[0].block, (3, 0, 0))
        groups = sr.group(findings, SLOT)
        self.assertEqual(len(groups), 1)     # RAW and WAR on the same pair of lines
        g = groups[0]
        self.assertEqual(g.places, (("starter/layout/setRowReadCol.cu", 24, "write"),
                                    ("starter/layout/setRowReadCol.cu", 26, "read")))
        self.assertEqual(g.hazards, 3)
        self.assertIs(g.warp, False)         # lanes 33 and 1 of row 0: warps 1 and 0
        line = sr.describe(groups)[0]
        self.assertTrue(line.startswith("starter/layout/setRowReadCol.cu:24 writes, :26 reads: "
                                        "3 hazards between threads of different warps"), line)

    def test_lanes_of_one_warp_from_threads(self):
        findings = sr.parse(text("racecheck_old.txt"))
        hazard = [f for f in findings if not f.analysis][0]
        self.assertIs(sr._same_warp(hazard.accesses), True)   # lanes 5 and 4

    def test_all_mode_counts_only_the_analysis(self):
        # report mode all: a hazard record and the analysis record of the
        # same pair; the hazards are the analysis record's count.
        groups = sr.group(sr.parse(text("racecheck_old.txt")), (),
                          ["starter/reduction/reduceSmem.cu"])
        self.assertEqual(len(groups), 1)
        self.assertEqual(groups[0].hazards, 40)
        self.assertEqual(groups[0].places[0][0], "starter/reduction/reduceSmem.cu")
        self.assertIn("between lanes of one warp", sr.describe(groups)[0])

    def test_without_line_information(self):
        lines = sr.explain(text("no_lineinfo.txt"))
        self.assertIn("wb::transpose::transposeSmemPad", lines[0])
        self.assertIn("without -lineinfo", lines[0])
        self.assertIn("992 hazards", lines[0])


class OtherTools(unittest.TestCase):
    def test_memcheck(self):
        findings = sr.parse(text("memcheck_shared.txt"))
        self.assertEqual([f.category for f in findings], ["memory"] * 3)
        self.assertEqual(findings[0].detail, "out of bounds")
        lines = sr.explain(text("memcheck_shared.txt"))
        self.assertEqual(lines[0], "starter/layout/setColReadRow.cu:27: invalid __shared__ write "
                                   "of size 4 bytes by 2 threads (out of bounds), "
                                   "e.g. thread (0,31,0) in block (0,0,0)")
        self.assertIn("bounds guard", lines[1])
        # the access in a header is placed at the student's line that called it
        self.assertTrue(any(l.startswith("starter/layout/setColReadRow.cu:31: invalid __global__")
                            for l in lines), lines)
        self.assertEqual(lines[-1], "(the tool printed 3 of 1024 findings)")

    def test_synccheck(self):
        lines = sr.explain(text("synccheck.txt"))
        self.assertTrue(lines[0].startswith("starter/reduction/reduceNeighboredSmem.cu:22: "
                                            "barrier error detected"), lines)
        self.assertIn("by 2 threads", lines[0])
        self.assertIn("no return before it", lines[1])

    def test_initcheck(self):
        lines = sr.explain(text("initcheck.txt"))
        self.assertTrue(lines[0].startswith("starter/transpose/transposeSmem.cu:30: "
                                            "uninitialized __global__ memory read"), lines)

    def test_clean_report(self):
        self.assertEqual(sr.parse(text("clean.txt")), [])
        self.assertEqual(sr.explain(text("clean.txt")), [])

    def test_application_output_ends_a_record(self):
        report = ("========= Invalid __shared__ read of size 4 bytes\n"
                  "some line the kernel's runner printed\n"
                  "=========     at k()+0x10 in /x/k.cu:3\n")
        findings = sr.parse(report)
        self.assertEqual(len(findings), 1)
        self.assertEqual(findings[0].accesses, [])


# What a kernel could printf to forge compute-sanitizer's verdict: a clean
# summary, and a finding of a race that is not there.
FORGED_CLEAN = ("========= COMPUTE-SANITIZER\n"
                "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
                "========= ERROR SUMMARY: 0 errors\n")
FORGED_RACE = ("========= Error: Race reported between Write access at k(int *)+0x10 in "
               "/home/student/workbook/starter/reduction/reduceSmem.cu:7\n"
               "=========     and Read access at k(int *)+0x20 in "
               "/home/student/workbook/starter/reduction/reduceSmem.cu:8 [999 hazards]\n")


class SanitizeCheckMessage(unittest.TestCase):
    """tests/checks/sanitize_check.py end to end, with a stand-in
    compute-sanitizer that writes a report of this folder into the
    --log-file it is given (as compute-sanitizer does) and a stand-in
    runner that lists one kernel: the failure message names the lines.
    What the runner prints (`printed`: the harness's lines and the kernel's
    printf) goes to stdout and is never read as the tool's report."""

    def run_check(self, report, tools, printed="", racecheck_exit=99, others_exit=0):
        notes = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, notes, True)
        sanitizer = stand_in.find_log(notes) + f"""\
            cat {{dir}}/printed.txt
            case "$*" in
              *"--tool racecheck"*) cat {DATA / report} > "$log"; exit {racecheck_exit};;
              *) echo "========= ERROR SUMMARY: 0 errors" > "$log"; exit {others_exit};;
            esac
            """
        proc = stand_in.run_check(
            "sanitize_check.py", {"compute-sanitizer": sanitizer}, "reduction/reduceSmem",
            ["--kernel", "reduction/reduceSmem", "--tools", tools,
             "--source-dir", "/home/student/workbook/starter=starter"],
            files={"printed.txt": printed})
        self.modes = (notes / "modes").read_text().split() if (notes / "modes").exists() else []
        self.logs = (notes / "logs").read_text().split() if (notes / "logs").exists() else []
        return proc

    def test_race_message(self):
        proc = self.run_check("racecheck_analysis.txt", "memcheck,racecheck")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "reduction/reduceSmem: memcheck clean")
        self.assertEqual(lines[1], "FAILED reduction/reduceSmem: racecheck reports 136 hazards:")
        self.assertEqual(lines[2], "  starter/reduction/reduceSmem.cu:41 writes, :42 reads: "
                                   "40 hazards between lanes of one warp")
        self.assertTrue(lines[3].startswith("    usual fix: a __syncwarp()"), lines[3])

    def test_unreadable_report_keeps_the_raw_lines(self):
        proc = self.run_check("unknown_format.txt", "racecheck")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("racecheck reports 1 finding(s):", proc.stdout)
        self.assertIn("  ========= Something Race-like the reader does not know", proc.stdout)

    def test_printed_clean_summary_changes_nothing(self):
        # A racy kernel that printf's a clean report: the real one is read.
        proc = self.run_check("racecheck_analysis.txt", "racecheck",
                              printed=FORGED_CLEAN + "ok reduction/reduceSmem\n")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[0],
                         "FAILED reduction/reduceSmem: racecheck reports 136 hazards:")

    def test_printed_findings_are_not_the_tool_s(self):
        # Forged findings neither count nor appear beside the real ones...
        proc = self.run_check("racecheck_analysis.txt", "racecheck", printed=FORGED_RACE)
        self.assertIn("racecheck reports 136 hazards:", proc.stdout)
        self.assertNotIn("999", proc.stdout)
        self.assertNotIn(".cu:7", proc.stdout)
        # ...and a clean run stays clean whatever the kernel printed.
        proc = self.run_check("clean.txt", "racecheck", racecheck_exit=0,
                              printed=FORGED_RACE + "ok reduction/reduceSmem\n")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "reduction/reduceSmem: racecheck clean\n")

    def test_reports_in_private_folders_removed_after(self):
        self.run_check("racecheck_analysis.txt", "memcheck,racecheck,synccheck,initcheck")
        self.assertEqual(len(self.logs), 4, self.logs)
        self.assertEqual(self.modes, ["700"] * 4)
        for log in self.logs:
            self.assertFalse(pathlib.Path(log).parent.exists(), log)

    def test_wrong_kernel_shows_the_runner_s_lines(self):
        proc = self.run_check("clean.txt", "memcheck", others_exit=1,
                              printed="WRONG reduction/reduceSmem: sum 3, expected 4\n")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("under memcheck the kernel gave a wrong result (exit 1)", proc.stdout)
        self.assertIn("  WRONG reduction/reduceSmem: sum 3, expected 4", proc.stdout)

    def test_skip_says_the_runner_s_reason(self):
        proc = self.run_check("clean.txt", "memcheck", others_exit=77,
                              printed="skipped: no CUDA device\n")
        self.assertEqual(proc.returncode, 77, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout, "skipped: no CUDA device\n")

    def test_h100_report_wins_over_the_printed_one(self):
        # Recorded on an H100: a racy reduceSmem that printf's a clean
        # report; the tool's own report went to its --log-file.
        notes = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, notes, True)
        sanitizer = stand_in.find_log(notes) + f"""\
            cat {DATA / "h100_printing_race_stdout.txt"}
            cat {DATA / "h100_printing_race_report.txt"} > "$log"
            exit 99
            """
        proc = stand_in.run_check(
            "sanitize_check.py", {"compute-sanitizer": sanitizer}, "reduction/reduceSmem",
            ["--kernel", "reduction/reduceSmem", "--tools", "racecheck"])
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "FAILED reduction/reduceSmem: racecheck reports 4128 hazards:")
        self.assertEqual(lines[1], "  starter/reduction/reduceSmem.cu:30 writes, :31 reads: "
                                   "496 hazards between lanes of one warp")


if __name__ == "__main__":
    unittest.main()
