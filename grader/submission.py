"""Reading a submission (a folder or a .zip/.tar/.tar.gz/.tgz archive) and
staging its exercise files for the grading build.

Only the files named by the pristine solutions/ are taken, at one of the
accepted places: starter/<section>/<exercise>.cu, <section>/<exercise>.cu,
or either of those inside one wrapping folder. Nothing else in a submission
is read, and nothing is ever extracted under a name the submission chose, so
a submission cannot replace a test, the harness, a contract or a reference
answer, and an archive path such as ../../x cannot land anywhere. Symbolic
links (and hard links in tar files) are never followed; sizes are capped so
an archive bomb is refused rather than unpacked. An archive is read by
grader/unpack.py in a child process (in the sandbox where one starts) under
limits of time, memory and file size, never in the grader's own process: a
hostile archive costs at most UNPACK_SECONDS and scores 0 with the reason.
"""
import base64
import binascii
import dataclasses
import json
import os
import pathlib
import signal
import stat
import subprocess
import sys

from wbcore import course as wbex
from wbcore import sandbox
from wbcore.files import atomic_write, printable
from . import unpack

MAX_SOURCE_BYTES = 1 << 20          # one exercise file
MAX_ARCHIVE_BYTES = 100 << 20       # the archive file itself
MAX_MEMBERS = 10000                 # entries in an archive
MAX_UNPACKED_BYTES = 512 << 20      # sum of the sizes an archive declares
MAX_NOTES = 20                      # ignored entries reported per submission
MAX_HEADER_BYTES = 1 << 20          # one tar extension header (pax, GNU long name)
MAX_HEADER_DIGITS = 256             # digits in a row in a pax header (CVE-2024-6232)
# The child that reads an archive (grader/unpack.py): wall-clock and CPU
# seconds, address space, and the largest file it may write (it writes none).
UNPACK_SECONDS = 60
UNPACK_MEMORY_MB = 1024
UNPACK_FILE_MB = 1
ARCHIVE_SUFFIXES = ((".tar.gz", "tar"), (".tgz", "tar"), (".tar.bz2", "tar"),
                    (".tar.xz", "tar"), (".tar", "tar"), (".zip", "zip"))
ACCEPTED = "a folder, .zip, .tar, .tar.gz, .tgz, .tar.bz2 or .tar.xz"


class SubmissionError(RuntimeError):
    """The submission cannot be read at all (the message says why)."""


@dataclasses.dataclass
class Submission:
    """The exercise files found in a submission."""
    contents: dict    # exercise key -> bytes
    found_at: dict    # exercise key -> path inside the submission
    missing: list     # exercise keys not in the submission
    notes: list       # entries ignored, and why

    @property
    def empty(self):
        return not self.contents


def archive_kind(path):
    """'zip', 'tar' or None from a file name."""
    lower = str(path).lower()
    for suffix, kind in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            return kind
    return None


def submission_name(path):
    """A submission's name: its file name without the archive suffix, bytes
    that are not UTF-8 written as \\xNN."""
    name = printable(pathlib.Path(path).name)
    lower = name.lower()
    for suffix, _ in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name


def exercise_path(e):
    return f"{e.section}/{e.name}.cu"


def choose_layout(names, all_exercises):
    """{exercise key: member name} under the accepted prefix that holds the
    most exercise files (the shortest prefix on a tie)."""
    return unpack.choose_layout(names, {e.key: exercise_path(e) for e in all_exercises})


def _read_capped(stream, what, notes):
    return unpack.read_capped(stream, what, notes, MAX_SOURCE_BYTES)


def _regular_file_under(root, relative):
    """(True, None) when every component of root/relative is a real folder
    and the last a regular file, (False, the path of the first symbolic
    link met), or (False, None) when it is not there."""
    current = root
    parts = relative.split("/")
    for i, part in enumerate(parts):
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except OSError:
            return False, None
        if stat.S_ISLNK(info.st_mode):
            return False, "/".join(parts[:i + 1])
        last = i == len(parts) - 1
        expected = stat.S_ISREG if last else stat.S_ISDIR
        if not expected(info.st_mode):
            return False, None
    return True, None


def _open_regular_under(root, relative):
    """A descriptor of the regular file root/relative, reached one folder
    at a time, none of them through a link, and opened without waiting:
    the student may change the folder between the look above and this open
    (a folder swapped for a link would lead out of it; a file swapped for a
    pipe would hold the grader in open()). Raises OSError otherwise."""
    parts = relative.split("/")
    folder = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
            os.close(folder)
            folder = inner
        fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    finally:
        os.close(folder)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(0, "not a regular file")
    os.set_blocking(fd, True)
    return fd


def _read_folder(root, all_exercises, notes):
    root = os.path.realpath(root)
    try:
        tops = sorted(entry.name for entry in os.scandir(root))[:1000]
    except OSError as err:
        raise SubmissionError(f"cannot read the folder {printable(root)}: {err.strerror}") from None
    candidates = set()
    for prefix in ["", "starter/"] + [f"{t}/" for t in tops] + [f"{t}/starter/" for t in tops]:
        for e in all_exercises:
            relative = prefix + exercise_path(e)
            regular, link = _regular_file_under(root, relative)
            if link:
                notes.add(f"ignored {link}: a symbolic link (links are not followed)")
            elif regular:
                candidates.add(relative)
    chosen = choose_layout(candidates, all_exercises)
    contents = {}
    for key, relative in chosen.items():
        try:
            fd = _open_regular_under(root, relative)
        except OSError as err:
            notes.add(f"ignored {relative}: {err.strerror}")
            continue
        with os.fdopen(fd, "rb") as stream:
            data = _read_capped(stream, relative, notes)
        if data is not None:
            contents[key] = data
    return contents, chosen


GRADER_DIR = pathlib.Path(__file__).resolve().parent


def _python_folders():
    """The folders of this Python (interpreter, standard library) that lie
    outside the system folders the sandbox shows anyway (pyenv, a venv)."""
    found = []
    for folder in (sys.base_prefix, sys.prefix,
                   os.path.dirname(os.path.realpath(sys.executable))):
        folder = os.path.realpath(folder)
        if folder not in found and not any(folder == s or folder.startswith(s + "/")
                                           for s in sandbox.SYSTEM_FOLDERS):
            found.append(folder)
    return found


def _confined(argv, archive):
    """argv in a sandbox that shows the archive and grader/ (read-only) and
    nothing else of this machine's files; argv as it is where no sandbox
    starts here (the limits of _run_reader still hold)."""
    try:
        return sandbox.command(argv, read_only=[archive, GRADER_DIR, *_python_folders()],
                               cwd=GRADER_DIR.parent)
    except sandbox.Unavailable:
        return argv


def _run_reader(request, archive, display):
    """The reply of grader/unpack.py run as a child on one archive, under
    the limits; SubmissionError when it fails, overruns or is killed."""
    argv = [sys.executable, "-E", "-s", "-m", "grader.unpack"]
    argv = _confined(argv, archive)   # the one line that puts the reader in the sandbox
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    seconds = UNPACK_SECONDS
    try:
        proc = subprocess.Popen(argv, cwd=GRADER_DIR.parent, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True,
                                preexec_fn=sandbox.limits(cpu_seconds=seconds,
                                                          memory_mb=UNPACK_MEMORY_MB,
                                                          file_mb=UNPACK_FILE_MB))
    except OSError as err:
        raise SubmissionError(f"{display}: the archive reader could not start ({err})") from None
    try:
        out, err = proc.communicate(json.dumps(request).encode(), timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise SubmissionError(f"{display}: the archive could not be read within {seconds} s "
                              "(the reader was stopped; a damaged or hostile archive?)") from None
    except BaseException:
        _kill(proc)
        raise
    try:
        reply = json.loads(out)
    except ValueError:
        reply = None
    if proc.returncode == 0 and isinstance(reply, dict):
        return reply
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise SubmissionError(f"{display}: the archive could not be read within {seconds} s "
                              "of CPU time (the reader was stopped; a damaged or hostile "
                              "archive?)")
    said = err.decode("utf-8", "replace").strip().splitlines()
    raise SubmissionError(f"{display}: the archive could not be read (the reader ended with "
                          f"status {proc.returncode}"
                          + (f": {said[-1][:300]}" if said else "") + ")")


def _kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.communicate()


def _read_archive(path, kind, all_exercises):
    """({exercise key: bytes}, {exercise key: member name}, notes) read by
    grader/unpack.py in a child process (see there why)."""
    try:
        size = path.stat().st_size
    except OSError as err:
        raise SubmissionError(f"cannot read {printable(str(path))}: {err.strerror}") from None
    if size > MAX_ARCHIVE_BYTES:
        raise SubmissionError(f"{printable(path.name)} is larger than {MAX_ARCHIVE_BYTES >> 20} MiB")
    archive = os.path.realpath(path)
    request = {"archive": archive, "kind": kind, "display": path.name,
               "wanted": {e.key: exercise_path(e) for e in all_exercises},
               "limits": {"source_bytes": MAX_SOURCE_BYTES, "members": MAX_MEMBERS,
                          "unpacked_bytes": MAX_UNPACKED_BYTES, "notes": MAX_NOTES,
                          "header_bytes": MAX_HEADER_BYTES, "header_digits": MAX_HEADER_DIGITS}}
    reply = _run_reader(request, archive, printable(path.name))
    if "error" in reply:
        raise SubmissionError(str(reply["error"]))
    try:
        contents = {key: base64.b64decode(data, validate=True)
                    for key, data in reply["contents"].items() if key in request["wanted"]}
        chosen = {key: str(reply["found_at"][key]) for key in contents}
        notes = [str(n) for n in reply["notes"]][:MAX_NOTES + 1]
    except (KeyError, TypeError, AttributeError, binascii.Error) as err:
        raise SubmissionError(f"{printable(path.name)}: the archive reader's reply is malformed "
                              f"({type(err).__name__})") from None
    return contents, chosen, notes


def read(path, all_exercises=None):
    """The exercise files of a submission. Raises SubmissionError when the
    path is missing or of an unknown type, or the archive is unreadable."""
    path = pathlib.Path(path)
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    notes = unpack.Notes(MAX_NOTES)
    if path.is_symlink():
        # The grader reads with its own rights: a link placed where students
        # leave their work could lead to a folder its author may not read.
        raise SubmissionError(f"{printable(path.name)} is a symbolic link: the grader follows "
                              "no link (put the folder or archive itself there)")
    if not path.exists():
        raise SubmissionError(f"no such submission: {printable(str(path))}")
    if path.is_dir():
        contents, chosen = _read_folder(path, all_exercises, notes)
    else:
        kind = archive_kind(path)
        if kind is None:
            raise SubmissionError(f"{printable(path.name)}: unknown archive type "
                                  f"(a submission is {ACCEPTED})")
        contents, chosen, said = _read_archive(path, kind, all_exercises)
        notes.extend(said)
    found_at = {key: chosen[key] for key in contents}
    missing = [e.key for e in all_exercises if e.key not in contents]
    return Submission(contents, found_at, missing, [printable(n) for n in notes])


def write_if_changed(path, data):
    """Write data unless the file already holds it, so the build recompiles
    only exercises whose text changed (a fresh write gets a fresh mtime)."""
    path = pathlib.Path(path)
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    atomic_write(path, data)
    return True


def pristine_starter(e, root=wbex.ROOT):
    return e.starter_file(root).read_bytes()


def stage(contents, dest, all_exercises):
    """Write every exercise file into dest/<section>/<exercise>.cu: the
    student's where `contents` (exercise key -> bytes) has it, else the
    pristine starter (so the build always has every file; missing ones are
    scored by policy)."""
    for e in all_exercises:
        data = contents.get(e.key)
        write_if_changed(pathlib.Path(dest) / exercise_path(e),
                         data if data is not None else pristine_starter(e))
