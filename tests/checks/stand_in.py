"""Running a check script of tests/checks against stand-in tools: small
shell scripts put first on PATH in place of ncu or compute-sanitizer, and a
stand-in kernel runner that lists one kernel. The host tests of the checks'
messages use it; no GPU is needed."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]


def find_log(notes):
    """A stand-in tool's shell lines that find the report file it is given
    (--log-file FILE, as ncu and compute-sanitizer take it) as $log, and
    note the file in notes/logs and the mode of its folder in notes/modes."""
    return f"""\
        log=/dev/null
        prev=
        for a in "$@"; do
          if [ "$prev" = "--log-file" ]; then log="$a"; fi
          prev="$a"
        done
        stat -c %a "$(dirname "$log")" >> {notes}/modes
        echo "$log" >> {notes}/logs
        """


def run_check(script, tools, kernel, args, files=None):
    """Runs tests/checks/<script> with `args` and returns the finished
    process. tools: {executable name: shell script body}; kernel: the
    runner's one listed kernel, "section/id" (its exercise is the id);
    files: {file name: text} written beside the tools first, so a tool's
    body may name them as {dir}/<name>. The runner's path is passed as
    --runner."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, content in (files or {}).items():
            (tmp / name).write_text(content)
        section, _, kernel_id = kernel.partition("/")
        listing = json.dumps([{"section": section, "id": kernel_id, "exercise": kernel_id}])
        scripts = dict(tools, wb_run=f"echo '{listing}'\n")
        for name, body in scripts.items():
            path = tmp / name
            path.write_text("#!/bin/sh\n" + textwrap.dedent(body).replace("{dir}", str(tmp)))
            path.chmod(0o755)
        env = dict(os.environ, PATH=f"{tmp}:{os.environ.get('PATH', '')}")
        return subprocess.run(
            [sys.executable, str(ROOT / "tests" / "checks" / script),
             "--runner", str(tmp / "wb_run")] + list(args),
            capture_output=True, text=True, env=env)
