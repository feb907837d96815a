"""Reading submissions: accepted layouts, archives, and what is refused;
archives read in a child process under limits (grader/unpack.py)."""
import contextlib
import gzip
import io
import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest
import zipfile
from unittest import mock

from gradingtest import EXERCISES, make_tar, make_zip
from grader import submission as gsub
from wbcore import sandbox

KERNEL = b"// the student's kernel\n"


class SubmissionTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, relative, data=KERNEL):
        path = self.tmp / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def archive(self, name, data):
        path = self.tmp / name
        path.write_bytes(data)
        return path

    def read(self, path):
        return gsub.read(path, EXERCISES)


class LayoutTest(SubmissionTest):
    def test_starter_folder_layout(self):
        self.write("sub/starter/layout/setRowReadCol.cu")
        found = self.read(self.tmp / "sub")
        self.assertEqual(found.contents, {"layout/setRowReadCol": KERNEL})
        self.assertEqual(found.found_at,
                         {"layout/setRowReadCol": "starter/layout/setRowReadCol.cu"})
        self.assertIn("layout/setRowReadColPad", found.missing)

    def test_sections_at_the_top(self):
        self.write("sub/layout/setRowReadColPad.cu")
        self.write("sub/reduction/reduceSmem.cu")
        found = self.read(self.tmp / "sub")
        self.assertEqual(sorted(found.contents),
                         ["layout/setRowReadColPad", "reduction/reduceSmem"])

    def test_one_wrapping_folder(self):
        self.write("sub/alice-hw5/starter/reduction/reduceSmem.cu")
        self.assertEqual(list(self.read(self.tmp / "sub").contents), ["reduction/reduceSmem"])

    def test_the_layout_with_most_files_wins(self):
        self.write("sub/layout/setRowReadCol.cu", b"stray copy")
        self.write("sub/starter/layout/setRowReadCol.cu", b"one")
        self.write("sub/starter/layout/setRowReadColPad.cu", b"two")
        found = self.read(self.tmp / "sub")
        self.assertEqual(found.contents["layout/setRowReadCol"], b"one")

    def test_other_files_are_ignored(self):
        self.write("sub/starter/layout/setRowReadCol.cu")
        self.write("sub/tests/layout/layout_test.cu", b"TEST(Fake, AlwaysPasses) {}")
        self.write("sub/chapters/layout/layout.cuh", b"#define CHEAT")
        self.write("sub/starter/layout/helper.cu", b"int helper;")
        found = self.read(self.tmp / "sub")
        self.assertEqual(list(found.contents), ["layout/setRowReadCol"])

    def test_empty_submission(self):
        self.write("sub/README.txt", b"I did not do it")
        found = self.read(self.tmp / "sub")
        self.assertTrue(found.empty)
        self.assertEqual(len(found.missing), len(EXERCISES))

    def test_zip_layouts(self):
        for prefix in ("", "starter/", "wrap/", "wrap/starter/"):
            with self.subTest(prefix=prefix):
                path = self.archive("s.zip", make_zip({f"{prefix}layout/setRowReadCol.cu": KERNEL}))
                self.assertEqual(self.read(path).contents, {"layout/setRowReadCol": KERNEL})

    def test_tar_flavours(self):
        entries = {"starter/reduction/reduceSmem.cu": KERNEL}
        for name, mode in (("s.tar", "w"), ("s.tar.gz", "w:gz"), ("s.tgz", "w:gz"),
                           ("s.tar.xz", "w:xz")):
            with self.subTest(name=name):
                path = self.archive(name, make_tar(entries, mode))
                self.assertEqual(self.read(path).contents, {"reduction/reduceSmem": KERNEL})

    def test_windows_separators(self):
        path = self.archive("s.zip", make_zip({"starter\\layout\\setRowReadCol.cu": KERNEL}))
        self.assertEqual(list(self.read(path).contents), ["layout/setRowReadCol"])

    def test_submission_names(self):
        for given, name in (("alice.zip", "alice"), ("bob.tar.gz", "bob"), ("carol.TGZ", "carol"),
                            ("dave", "dave"), ("a.b.tar", "a.b")):
            self.assertEqual(gsub.submission_name(given), name)


class SafetyTest(SubmissionTest):
    def test_a_submission_that_is_a_link_is_refused(self):
        # The grader reads with its own rights: a link left among the
        # submissions could lead to a folder its author may not read.
        self.write("elsewhere/starter/reduction/reduceSmem.cu")
        (self.tmp / "mallory").symlink_to(self.tmp / "elsewhere")
        with self.assertRaisesRegex(gsub.SubmissionError, "symbolic link"):
            self.read(self.tmp / "mallory")

    def test_a_file_changed_after_the_look_is_opened_only_if_still_regular(self):
        # Between the look at the folder and the open, the student may swap
        # the file for a pipe (open() would wait for ever) or a folder on
        # the way for a link (it would lead out of the submission).
        self.write("s/starter/reduction/reduceSmem.cu")
        os.mkfifo(self.tmp / "s" / "starter" / "pipe.cu")
        with self.assertRaises(OSError):
            gsub._open_regular_under(str(self.tmp / "s"), "starter/pipe.cu")
        self.write("outside/reduction/reduceSmem.cu", b"the reference")
        (self.tmp / "s" / "swapped").symlink_to(self.tmp / "outside")
        with self.assertRaises(OSError):
            gsub._open_regular_under(str(self.tmp / "s"), "swapped/reduction/reduceSmem.cu")
        fd = gsub._open_regular_under(str(self.tmp / "s"), "starter/reduction/reduceSmem.cu")
        with os.fdopen(fd, "rb") as stream:
            self.assertEqual(stream.read(), KERNEL)

    def test_traversal_in_zip_is_ignored_and_reported(self):
        path = self.archive("s.zip", make_zip({
            "../layout/setRowReadCol.cu": b"outside",
            "/layout/setRowReadCol.cu": b"absolute",
            "starter/../../layout/setRowReadCol.cu": b"climbing",
            "C:/layout/setRowReadCol.cu": b"drive",
        }))
        found = self.read(path)
        self.assertTrue(found.empty)
        self.assertEqual(sum("outside the submission" in n for n in found.notes), 4)
        self.assertFalse((self.tmp.parent / "layout").exists())

    def test_traversal_in_tar_is_ignored(self):
        path = self.archive("s.tar", make_tar({"../../reduction/reduceSmem.cu": b"evil",
                                               "starter/reduction/reduceSmem.cu": KERNEL}, "w"))
        found = self.read(path)
        self.assertEqual(found.contents, {"reduction/reduceSmem": KERNEL})
        self.assertTrue(any("outside the submission" in n for n in found.notes))

    def test_zip_symlink_is_not_followed(self):
        path = self.archive("s.zip", make_zip({}, symlinks=[
            ("starter/layout/setRowReadCol.cu", "/etc/passwd")]))
        found = self.read(path)
        self.assertTrue(found.empty)
        self.assertTrue(any("symbolic link" in n for n in found.notes))

    def test_tar_links_are_not_followed(self):
        path = self.archive("s.tar", make_tar({}, "w", links=[
            ("starter/layout/setRowReadCol.cu", "/etc/passwd", tarfile.SYMTYPE),
            ("starter/layout/setRowReadColPad.cu", "/etc/passwd", tarfile.LNKTYPE)]))
        found = self.read(path)
        self.assertTrue(found.empty)
        self.assertEqual(sum("a link" in n for n in found.notes), 2)

    def test_folder_symlinks_are_not_followed(self):
        secret = self.write("secret.cu", b"not the student's")
        (self.tmp / "sub" / "starter" / "layout").mkdir(parents=True)
        os.symlink(secret, self.tmp / "sub" / "starter" / "layout" / "setRowReadCol.cu")
        self.write("elsewhere/reduceSmem.cu", b"not the student's either")
        os.symlink(self.tmp / "elsewhere", self.tmp / "sub" / "reduction")
        found = self.read(self.tmp / "sub")
        self.assertTrue(found.empty)
        self.assertEqual(sum("symbolic link" in n for n in found.notes), 2)

    def test_oversized_file_is_ignored(self):
        with mock.patch.object(gsub, "MAX_SOURCE_BYTES", 10):
            path = self.archive("s.zip", make_zip({"layout/setRowReadCol.cu": b"x" * 11,
                                                   "layout/setRowReadColPad.cu": b"small"}))
            found = self.read(path)
        self.assertEqual(list(found.contents), ["layout/setRowReadColPad"])
        self.assertTrue(any("larger than" in n for n in found.notes))

    def test_archive_bombs_are_refused(self):
        with mock.patch.object(gsub, "MAX_MEMBERS", 3):
            path = self.archive("s.zip", make_zip({f"f{i}": b"" for i in range(5)}))
            with self.assertRaisesRegex(gsub.SubmissionError, "more than 3 entries"):
                self.read(path)
        with mock.patch.object(gsub, "MAX_UNPACKED_BYTES", 100):
            path = self.archive("s.tgz", make_tar({"a": b"0" * 80, "b": b"0" * 80}))
            with self.assertRaisesRegex(gsub.SubmissionError, "unpack to more than"):
                self.read(path)

    def test_unknown_type_and_missing_path(self):
        path = self.archive("s.rar", b"Rar!")
        with self.assertRaisesRegex(gsub.SubmissionError, "unknown archive type"):
            self.read(path)
        with self.assertRaisesRegex(gsub.SubmissionError, "no such submission"):
            self.read(self.tmp / "nothing.zip")

    def test_damaged_archives(self):
        for name in ("s.zip", "s.tar.gz"):
            with self.subTest(name=name):
                path = self.archive(name, b"this is not an archive at all" * 10)
                with self.assertRaises(gsub.SubmissionError):
                    self.read(path)


def pax_digits_tar(digits):
    """A .tgz whose only entry is a pax extended header holding a run of
    `digits` digits: Python 3.11.7's tarfile searches it with a regular
    expression that backtracks over the run from every position in it
    (CVE-2024-6232), time quadratic in its length; gzip makes it small."""
    header = tarfile.TarInfo("././@PaxHeader")
    header.type = tarfile.XHDTYPE
    header.size = digits
    data = header.tobuf(tarfile.USTAR_FORMAT) + b"0" * digits
    data += bytes(-len(data) % tarfile.BLOCKSIZE) + bytes(2 * tarfile.BLOCKSIZE)
    return gzip.compress(data)


def unconfined():
    """As on a machine where no sandbox starts: the reader runs with its limits only."""
    return mock.patch.object(sandbox, "command", side_effect=sandbox.Unavailable("not here"))


class ArchiveLimitTest(SubmissionTest):
    """Hostile archives: each is refused (SubmissionError, which the grader
    scores 0 with the message as its reason) within the reader's limits."""
    CVE_DIGITS = 200_000      # about a minute for 3.11.7's tarfile here; 1 KB gzipped

    def refused_within(self, path, seconds, pattern):
        started = time.monotonic()
        with self.assertRaisesRegex(gsub.SubmissionError, pattern):
            self.read(path)
        took = time.monotonic() - started
        self.assertLess(took, seconds, f"{path.name} took {took:.1f} s to refuse")
        return took

    def test_plain_tarfile_takes_minutes_on_the_pax_digits_archive(self):
        # The archive of the tests below, read as the grader read archives
        # before: tarfile in the grader's own process.
        path = self.archive("cve.tgz", pax_digits_tar(self.CVE_DIGITS))
        started = time.monotonic()
        try:
            subprocess.run([sys.executable, "-c", "import sys, tarfile\n"
                            "tarfile.open(sys.argv[1], 'r:*').getmembers()", str(path)],
                           capture_output=True, timeout=5)
        except subprocess.TimeoutExpired:
            return   # slow, as expected of a tarfile with CVE-2024-6232
        self.skipTest(f"this Python's tarfile read it in {time.monotonic() - started:.1f} s "
                      "(CVE-2024-6232 is fixed here)")

    def test_the_pax_digits_archive_is_refused_at_once(self):
        path = self.archive("cve.tgz", pax_digits_tar(self.CVE_DIGITS))
        self.refused_within(path, 5, "run of more than 256 digits.*CVE-2024-6232")
        with unconfined():
            self.refused_within(path, 5, "run of more than 256 digits")

    def test_past_the_check_the_time_limit_stops_the_reader(self):
        # The header check off (any run of digits allowed): tarfile spends
        # its quadratic time in the child, which is stopped at the limit.
        path = self.archive("cve.tgz", pax_digits_tar(self.CVE_DIGITS))
        for confined in (True, False):
            with self.subTest(confined=confined), \
                    mock.patch.object(gsub, "MAX_HEADER_DIGITS", 10 ** 9), \
                    mock.patch.object(gsub, "UNPACK_SECONDS", 2), \
                    (contextlib.nullcontext() if confined else unconfined()):
                self.refused_within(path, 6, r"could not be read within 2 s")

    def test_an_oversized_extension_header_is_refused(self):
        name = tarfile.TarInfo("././@LongLink")
        name.type = tarfile.GNUTYPE_LONGNAME
        name.size = 8 << 20
        data = gzip.compress(name.tobuf(tarfile.GNU_FORMAT) + bytes(name.size + 1024))
        path = self.archive("long.tgz", data)
        self.refused_within(path, 5, "extended header of 8388608 bytes")
        # Past the check, the reader's memory limit holds.
        with mock.patch.object(gsub, "MAX_HEADER_BYTES", 1 << 40), \
                mock.patch.object(gsub, "UNPACK_MEMORY_MB", 40):
            self.refused_within(path, 10, "could not be read")

    def test_a_zip_bomb_is_refused(self):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
            with archive.open("starter/layout/setRowReadCol.cu", "w", force_zip64=True) as out:
                zeros = bytes(1 << 20)
                for _ in range(600):
                    out.write(zeros)
        path = self.archive("bomb.zip", buffer.getvalue())
        self.assertLess(path.stat().st_size, 4 << 20)
        self.refused_within(path, 10, "would unpack to more than 512 MiB")

    def test_a_huge_entry_count_is_refused(self):
        many = {f"f{i}": b"" for i in range(gsub.MAX_MEMBERS + 1)}
        for name, data in (("many.zip", make_zip(many)), ("many.tgz", make_tar(many))):
            with self.subTest(name=name):
                self.refused_within(self.archive(name, data), 15,
                                    f"more than {gsub.MAX_MEMBERS} entries")

    def test_truncated_archives_are_refused(self):
        entries = {"starter/reduction/reduceSmem.cu": os.urandom(64 << 10)}
        for name, data in (("cut.zip", make_zip(entries)), ("cut.tgz", make_tar(entries)),
                           ("cut.tar.xz", make_tar(entries, "w:xz"))):
            with self.subTest(name=name):
                path = self.archive(name, data[:len(data) // 2])
                self.refused_within(path, 10, "damaged|not a readable")

    def test_without_a_sandbox_archives_are_read_as_before(self):
        path = self.archive("s.tgz", make_tar({"starter/reduction/reduceSmem.cu": KERNEL,
                                               "../x.cu": b"outside"}))
        with unconfined():
            found = self.read(path)
        self.assertEqual(found.contents, {"reduction/reduceSmem": KERNEL})
        self.assertTrue(any("outside the submission" in n for n in found.notes))

    def test_the_reader_sees_only_the_archive_and_grader(self):
        ok, why = sandbox.available()
        if not ok:
            self.skipTest(why)
        argv = gsub._confined(["true"], str(self.tmp / "s.zip"))
        shown = [argv[i + 1] for i, a in enumerate(argv) if a in ("--ro-bind", "--bind")]
        self.assertIn(str(self.tmp / "s.zip"), shown)
        self.assertIn(str(gsub.GRADER_DIR), shown)
        self.assertNotIn("--bind", argv, "the reader may write nowhere")
        for hidden in (gsub.GRADER_DIR.parent, gsub.GRADER_DIR.parent / "solutions",
                       pathlib.Path.home()):
            self.assertNotIn(str(hidden), shown)


class StageTest(SubmissionTest):
    def test_stage_writes_every_exercise_and_only_changes(self):
        self.write("sub/starter/layout/setRowReadCol.cu")
        found = self.read(self.tmp / "sub")
        dest = self.tmp / "staged"
        gsub.stage(found.contents, dest, EXERCISES)
        self.assertEqual((dest / "layout/setRowReadCol.cu").read_bytes(), KERNEL)
        pristine = EXERCISES[1].starter_file().read_bytes()
        self.assertEqual((dest / "layout/setRowReadColPad.cu").read_bytes(), pristine)
        before = (dest / "layout/setRowReadColPad.cu").stat().st_mtime_ns
        os.utime(dest / "layout/setRowReadColPad.cu", ns=(before - 10**9, before - 10**9))
        gsub.stage(found.contents, dest, EXERCISES)
        self.assertEqual((dest / "layout/setRowReadColPad.cu").stat().st_mtime_ns,
                         before - 10**9, "an unchanged file must not be rewritten")
        self.assertEqual(sorted(p.name for p in dest.rglob("*.tmp")), [])


if __name__ == "__main__":
    unittest.main()
