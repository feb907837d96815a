#!/usr/bin/env python3
"""./workbook watch (student/progress.py watch) driven by scripted edits:
a save re-checks the exercise, a passing check moves on to the next
exercise with the progress line, a save of that exercise's file checks it,
and Ctrl-C (an interrupt of the main thread, as the terminal sends it)
leaves cleanly with status 0. The checks are stand-ins that read the saved
file, so the test needs neither a build nor a GPU."""
import _thread
import contextlib
import io
import json
import os
import pathlib
import tempfile
import threading
import time
import unittest

# The student loop in English, whatever language a run of ./workbook --lang
# remembered in this checkout.
os.environ["WB_LANG"] = "en"


from student import progress  # noqa: E402
from wbcore import course as wbex  # noqa: E402


class Watch(unittest.TestCase):
    def test_scripted_edits(self):
        first = wbex.find_exercise("reduceSmem")
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            states = tmp / "progress.json"
            starter = tmp / "starter"
            following = progress.next_exercise({first.key: "done"}, after=first)
            files = {}
            for e in (first, following):
                files[e.name] = starter / e.section / e.starter_file().name
                files[e.name].parent.mkdir(parents=True, exist_ok=True)
                files[e.name].write_text("// TODO\n")
            calls = []
            checked = threading.Condition()
            out = io.StringIO()
            checks_after_swap = []

            def stand_in_check(name):
                # Passes once the saved file says so, like a kernel that is right.
                e = wbex.find_exercise(name)
                solved = "solved" in files[e.name].read_text()
                record = progress.load_states(states)
                record[e.key] = "done" if solved else "todo"
                states.write_text(json.dumps(record))
                with checked:
                    calls.append(name)
                    checked.notify_all()
                return 0 if solved else 1

            def wait_for(count):
                with checked:
                    self.assertTrue(checked.wait_for(lambda: len(calls) >= count, timeout=20),
                                    f"watch made {len(calls)} check(s), expected {count}")

            stamp = [time.time()]

            def save(name, text):
                stamp[0] += 10   # a later modification time than any before
                files[name].write_text(text)
                os.utime(files[name], (stamp[0], stamp[0]))

            def editor():
                try:
                    wait_for(1)                       # the check at the start
                    # An editor's swap file is not a save: no check.
                    swap = starter / first.section / f".{first.name}.cu.swp"
                    swap.write_text("swap")
                    os.utime(swap, (stamp[0] + 5, stamp[0] + 5))
                    time.sleep(0.3)                   # several polls
                    with checked:
                        checks_after_swap.append(len(calls))
                    save(first.name, "// still wrong\n")
                    wait_for(2)
                    save(first.name, "// solved\n")
                    wait_for(3)
                    save(following.name, "// a first try\n")
                    wait_for(4)
                    # Ctrl-C once watch is waiting again, after its account
                    # of the fourth check.
                    waiting = f"watching starter/ for your next save of {following.name}"
                    deadline = time.monotonic() + 20
                    while waiting not in out.getvalue() and time.monotonic() < deadline:
                        time.sleep(0.01)
                finally:
                    _thread.interrupt_main()          # Ctrl-C

            thread = threading.Thread(target=editor)
            thread.start()
            with contextlib.redirect_stdout(out):
                rc = progress.watch(first.name, interval=0.05, run_check=stand_in_check,
                                    starter=starter, states_path=states)
            thread.join()
        text = out.getvalue()
        self.assertEqual(rc, 0, text)
        self.assertEqual(checks_after_swap, [1], "a swap file's change was taken for a save")
        self.assertEqual(calls, [first.name, first.name, first.name, following.name], text)
        self.assertIn(f"{first.section}/{files[first.name].name} saved", text)
        self.assertIn("progress: [", text)
        self.assertIn(f" 1 of {len(wbex.exercises())} exercises pass", text)
        self.assertIn(f"{first.name} passes. Next: {following.key} -> ", text)
        self.assertIn(f"watching starter/ for your next save of {following.name}", text)
        self.assertTrue(text.rstrip().endswith("stopped watching"), text)


if __name__ == "__main__":
    unittest.main()
