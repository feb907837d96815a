"""Reading a submission (a folder or a .zip/.tar/.tar.gz/.tgz archive) and
staging its exercise files for the grading build.

Only the files named by the pristine solutions/ are taken, at one of the
accepted places: starter/<section>/<exercise>.cu, <section>/<exercise>.cu,
or either of those inside one wrapping folder. Nothing else in a submission
is read, and nothing is ever extracted under a name the submission chose, so
a submission cannot replace a test, the harness, a contract or a reference
answer, and an archive path such as ../../x cannot land anywhere. Symbolic
links (and hard links in tar files) are never followed; sizes are capped so
an archive bomb is refused rather than unpacked.
"""
import dataclasses
import lzma
import os
import pathlib
import re
import stat
import tarfile
import zipfile
import zlib

from wbcore import course as wbex
from wbcore.files import atomic_write

MAX_SOURCE_BYTES = 1 << 20          # one exercise file
MAX_ARCHIVE_BYTES = 100 << 20       # the archive file itself
MAX_MEMBERS = 10000                 # entries in an archive
MAX_UNPACKED_BYTES = 512 << 20      # sum of the sizes an archive declares
MAX_NOTES = 20                      # ignored entries reported per submission
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
    """A submission's name: its file name without the archive suffix."""
    name = pathlib.Path(path).name
    lower = name.lower()
    for suffix, _ in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name


def exercise_path(e):
    return f"{e.section}/{e.name}.cu"


def safe_member_name(name):
    """The archive member name as a relative POSIX path, or None when it is
    absolute, climbs out with '..', or names a drive."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def choose_layout(names, all_exercises):
    """{exercise key: member name} under the accepted prefix that holds the
    most exercise files (the shortest prefix on a tie)."""
    prefixes = {"", "starter/"}
    for name in names:
        top = name.split("/", 1)[0]
        prefixes.update({f"{top}/", f"{top}/starter/"})
    best = {}
    for prefix in sorted(prefixes, key=lambda p: (len(p), p)):
        found = {e.key: prefix + exercise_path(e) for e in all_exercises
                 if prefix + exercise_path(e) in names}
        if len(found) > len(best):
            best = found
    return best


class _Notes(list):
    def add(self, text):
        if text in self:
            return
        if len(self) < MAX_NOTES:
            self.append(text)
        elif len(self) == MAX_NOTES:
            self.append("(more ignored entries not listed)")


def _read_capped(stream, what, notes):
    data = stream.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        notes.add(f"ignored {what}: larger than {MAX_SOURCE_BYTES >> 10} KiB")
        return None
    return data


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


def _read_folder(root, all_exercises, notes):
    root = os.path.realpath(root)
    try:
        tops = sorted(entry.name for entry in os.scandir(root))[:1000]
    except OSError as err:
        raise SubmissionError(f"cannot read the folder {root}: {err.strerror}") from None
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
            fd = os.open(os.path.join(root, relative), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError as err:
            notes.add(f"ignored {relative}: {err.strerror}")
            continue
        with os.fdopen(fd, "rb") as stream:
            data = _read_capped(stream, relative, notes)
        if data is not None:
            contents[key] = data
    return contents, chosen


def _zip_members(path, notes):
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as err:
        raise SubmissionError(f"{path.name} is not a readable zip archive ({err})") from None
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise SubmissionError(f"{path.name} holds more than {MAX_MEMBERS} entries")
    if sum(i.file_size for i in infos) > MAX_UNPACKED_BYTES:
        raise SubmissionError(f"{path.name} would unpack to more than "
                              f"{MAX_UNPACKED_BYTES >> 20} MiB")
    members = {}
    for info in infos:
        name = safe_member_name(info.filename)
        if name is None:
            notes.add(f"ignored {info.filename!r}: a path outside the submission")
        elif stat.S_ISLNK(info.external_attr >> 16):
            notes.add(f"ignored {name}: a symbolic link")
        elif not info.is_dir():
            members[name] = info
    return archive, members, lambda info: archive.open(info)


def _tar_members(path, notes):
    try:
        archive = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError, zlib.error, lzma.LZMAError) as err:
        raise SubmissionError(f"{path.name} is not a readable tar archive ({err})") from None
    members = {}
    declared = 0
    try:
        for count, info in enumerate(archive, 1):
            declared += max(info.size, 0)
            if count > MAX_MEMBERS:
                raise SubmissionError(f"{path.name} holds more than {MAX_MEMBERS} entries")
            if declared > MAX_UNPACKED_BYTES:
                raise SubmissionError(f"{path.name} would unpack to more than "
                                      f"{MAX_UNPACKED_BYTES >> 20} MiB")
            name = safe_member_name(info.name)
            if name is None:
                notes.add(f"ignored {info.name!r}: a path outside the submission")
            elif info.issym() or info.islnk():
                notes.add(f"ignored {name}: a link")
            elif info.isreg():
                members[name] = info
    except (tarfile.TarError, EOFError, zlib.error, lzma.LZMAError, OSError) as err:
        archive.close()
        raise SubmissionError(f"{path.name} is damaged ({err})") from None
    return archive, members, archive.extractfile


def _read_archive(path, kind, all_exercises, notes):
    try:
        size = path.stat().st_size
    except OSError as err:
        raise SubmissionError(f"cannot read {path}: {err.strerror}") from None
    if size > MAX_ARCHIVE_BYTES:
        raise SubmissionError(f"{path.name} is larger than {MAX_ARCHIVE_BYTES >> 20} MiB")
    opener = _zip_members if kind == "zip" else _tar_members
    archive, members, open_member = opener(path, notes)
    with archive:
        chosen = choose_layout(set(members), all_exercises)
        contents = {}
        for key, name in chosen.items():
            try:
                with open_member(members[name]) as stream:
                    data = _read_capped(stream, name, notes)
            except (zipfile.BadZipFile, tarfile.TarError, RuntimeError, OSError, EOFError,
                    zlib.error, lzma.LZMAError) as err:
                notes.add(f"ignored {name}: cannot be read from the archive ({err})")
                continue
            if data is not None:
                contents[key] = data
    return contents, chosen


def read(path, all_exercises=None):
    """The exercise files of a submission. Raises SubmissionError when the
    path is missing or of an unknown type, or the archive is unreadable."""
    path = pathlib.Path(path)
    all_exercises = wbex.exercises() if all_exercises is None else all_exercises
    notes = _Notes()
    if not path.exists():
        raise SubmissionError(f"no such submission: {path}")
    if path.is_dir():
        contents, chosen = _read_folder(path, all_exercises, notes)
    else:
        kind = archive_kind(path)
        if kind is None:
            raise SubmissionError(f"{path.name}: unknown archive type (a submission is {ACCEPTED})")
        contents, chosen = _read_archive(path, kind, all_exercises, notes)
    found_at = {key: chosen[key] for key in contents}
    missing = [e.key for e in all_exercises if e.key not in contents]
    return Submission(contents, found_at, missing, list(notes))


# A preprocessor include: '#' or the digraph '%:', maybe comments, 'include'.
INCLUDE_RE = re.compile(rb"^\s*(?:#|%:)(?:\s|/\*.*?\*/)*(?:include|include_next|import)\b(.*)$")
LITERAL_INCLUDE_RE = re.compile(rb"""^\s*(?:"([^"]*)"|<([^>]*)>)""")


def unsafe_includes(source):
    """The #include lines of an exercise file that could reach past the
    contracts and the system headers: a path with '..' or an absolute one
    (from chapters/ on the include path, ../solutions/ is the reference
    answer), or a computed include whose path a macro hides."""
    joined = re.sub(rb"\\\r?\n", b"", source)   # join continued lines first
    found = []
    for line in joined.splitlines():
        m = INCLUDE_RE.match(line)
        if not m:
            continue
        literal = LITERAL_INCLUDE_RE.match(m.group(1))
        path = (literal.group(1) or literal.group(2)) if literal else None
        if path is None or path.startswith(b"/") or b".." in path.replace(b"\\", b"/").split(b"/"):
            found.append(line.decode("utf-8", "replace").strip())
    return found


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
