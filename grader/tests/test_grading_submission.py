"""Reading submissions: accepted layouts, archives, and what is refused."""
import os
import pathlib
import tarfile
import tempfile
import unittest
from unittest import mock

from gradingtest import EXERCISES, make_tar, make_zip
from grader import submission as gsub

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


class IncludeTest(unittest.TestCase):
    def test_contract_and_system_headers_are_fine(self):
        source = (b'#include "layout/layout.cuh"\n#include <stdexcept>\n#include <cuda/std/span>\n'
                  b'// #include "../solutions/layout/setRowReadCol.cu" in a comment\n')
        self.assertEqual(gsub.unsafe_includes(source), [])

    def test_ways_to_reach_the_reference_answer_are_refused(self):
        attempts = [b'#include "../solutions/layout/setRowReadCol.cu"',
                    b'  #  include <../solutions/layout/setRowReadCol.cu>',
                    b'#include "/work/solutions/layout/setRowReadCol.cu"',
                    b'%:include "../x.cu"',
                    b'#/* hidden */include "a/../../x.cu"',
                    b'#inc\\\nlude "../x.cu"',
                    b'#include_next "../x.cu"',
                    b'#import "../x.cu"',
                    b'#define ANSWER "../solutions/layout/setRowReadCol.cu"\n#include ANSWER']
        for source in attempts:
            with self.subTest(source=source):
                self.assertEqual(len(gsub.unsafe_includes(source)), 1)


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
