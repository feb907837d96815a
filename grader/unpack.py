"""Reading a submission's archive: the code that runs in a child process.

Python's own archive readers are not safe on hostile input: Python 3.11.7's
tarfile takes time quadratic in the length of a run of digits in a pax
extended header (CVE-2024-6232), so a 20 KB .tgz held the grader at full CPU
for minutes. The grader therefore never opens an archive in its own process:
grader/submission.py runs this module as a child (`python3 -m grader.unpack`),
inside the sandbox where one starts, under limits on CPU time, address space
and file size and a wall-clock limit, and kills it when it overruns.

The child reads one JSON request on standard input:

  {"archive": path, "kind": "zip" | "tar",
   "wanted": {exercise key: "<section>/<exercise>.cu"},
   "limits": {"source_bytes", "members", "unpacked_bytes", "notes", "header_bytes",
              "header_digits"}}

and writes one JSON document on standard output: {"contents": {key: base64},
"found_at": {key: member name}, "notes": [...]}, or {"error": "why"} when the
archive cannot be read. Only the wanted exercise files are read (at most
source_bytes each); nothing is ever written to disk.

Standard library only: inside the sandbox the child sees this folder and the
Python interpreter, nothing else of the repository.
"""
import base64
import bz2
import gzip
import json
import lzma
import re
import stat
import sys
import tarfile
import zipfile
import zlib

# Errors the decompressors and readers raise on damaged or truncated input.
READ_ERRORS = (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError, zlib.error,
               lzma.LZMAError, ValueError)
BLOCK = 512
CHUNK = 256 * BLOCK
# Tar header types whose data the reader parses as metadata (pax extended
# headers: per file, global, Solaris; GNU long names and long link names).
EXTENSION_TYPES = frozenset(b"xgXLK")
PAX_TYPES = frozenset(b"xgX")


class ArchiveError(Exception):
    """The archive cannot be read (the message says why)."""


class Notes(list):
    """What was ignored in a submission, at most `limit` lines."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def add(self, text):
        if text in self:
            return
        if len(self) < self.limit:
            self.append(text)
        elif len(self) == self.limit:
            self.append("(more ignored entries not listed)")


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


def choose_layout(names, wanted):
    """{exercise key: member name} under the accepted prefix that holds the
    most exercise files (the shortest prefix on a tie); wanted: {exercise
    key: <section>/<exercise>.cu}."""
    prefixes = {"", "starter/"}
    for name in names:
        top = name.split("/", 1)[0]
        prefixes.update({f"{top}/", f"{top}/starter/"})
    best = {}
    for prefix in sorted(prefixes, key=lambda p: (len(p), p)):
        found = {key: prefix + relative for key, relative in wanted.items()
                 if prefix + relative in names}
        if len(found) > len(best):
            best = found
    return best


def read_capped(stream, what, notes, cap):
    data = stream.read(cap + 1)
    if len(data) > cap:
        notes.add(f"ignored {what}: larger than {cap >> 10} KiB")
        return None
    return data


# ---- tar: the extension headers, checked before tarfile parses them --------

def _tar_number(field):
    """A tar header's numeric field as tarfile reads it, or None when
    tarfile would refuse it."""
    try:
        return tarfile.nti(field)
    except (tarfile.HeaderError, ValueError):
        return None


def _is_extension_header(block):
    """Whether a 512-byte block is a header tarfile would accept (its
    checksum holds) of a type whose data it parses as metadata."""
    return (block[156] in EXTENSION_TYPES
            and _tar_number(block[148:156]) in tarfile.calc_chksums(block))


def _decompressed_streams(path):
    """Every way tarfile's 'r:*' may read the file (gzip, bzip2, xz or lzma,
    as it is): each opener whose first read succeeds."""
    for opener in (gzip.open, bz2.open, lzma.open, lambda p: open(p, "rb")):
        try:
            stream = opener(path)
            first = stream.read(CHUNK)
        except READ_ERRORS:
            continue
        yield stream, first


def _check_extension(kind, data, display, limits, digits):
    if kind in PAX_TYPES and digits.search(data):
        raise ArchiveError(f"{display} holds a tar extended header with a run of more than "
                           f"{limits['header_digits']} digits (a shape that makes Python's tar "
                           "reader take minutes: CVE-2024-6232)")


def check_tar_headers(path, display, limits):
    """Refuse a tar archive whose extension headers would make tarfile slow
    or hungry, before tarfile parses them: one larger than header_bytes, or
    a pax header with a run of more than header_digits digits (the shape of
    CVE-2024-6232). Every 512-byte block at a block boundary of every way
    the file decompresses is checked, so no header can hide from this check
    where tarfile would read one; reading stops with a refusal past what the
    entry and size limits allow. The child's time limit stays the guarantee;
    this makes the known bad shapes cheap to refuse."""
    cap = limits["header_bytes"]
    digits = re.compile(b"[0-9]{%d}" % (limits["header_digits"] + 1))
    most = limits["unpacked_bytes"] + (limits["members"] + 1) * 4 * BLOCK + (1 << 20)
    for stream, chunk in _decompressed_streams(path):
        with stream:
            pending = []    # [header type, bytes still to take, bytearray taken]
            seen = 0
            rest = b""      # the start of a block the last read cut
            while chunk:
                seen += len(chunk)
                if seen > most:
                    raise ArchiveError(f"{display} would unpack to more than "
                                       f"{limits['unpacked_bytes'] >> 20} MiB")
                chunk = rest + chunk
                whole = len(chunk) - len(chunk) % BLOCK
                rest = chunk[whole:]
                for at in range(0, whole, BLOCK):
                    if pending:
                        for item in pending:
                            take = min(item[1], BLOCK)
                            item[2] += chunk[at:at + take]
                            item[1] -= take
                            if item[1] == 0:
                                _check_extension(item[0], item[2], display, limits, digits)
                        pending = [item for item in pending if item[1] > 0]
                    block = chunk[at:at + BLOCK]
                    if block[156] in EXTENSION_TYPES and _is_extension_header(block):
                        size = _tar_number(block[124:136]) or 0
                        if size > cap:
                            raise ArchiveError(f"{display} holds a tar extended header of "
                                               f"{size} bytes (at most {cap} are read)")
                        if size > 0:
                            pending.append([block[156], size, bytearray()])
                try:
                    chunk = stream.read(CHUNK)
                except READ_ERRORS:
                    break   # damaged further on: tarfile says so when it gets there
            # A header cut short at the end: tarfile parses what there is.
            for item in pending:
                item[2] += rest[:item[1]]
            for kind, _, data in pending:
                _check_extension(kind, data, display, limits, digits)


def tar_members(path, display, notes, limits):
    check_tar_headers(path, display, limits)
    try:
        archive = tarfile.open(path, "r:*")
    except READ_ERRORS as err:
        raise ArchiveError(f"{display} is not a readable tar archive ({err})") from None
    members = {}
    declared = 0
    try:
        for count, info in enumerate(archive, 1):
            declared += max(info.size, 0)
            if count > limits["members"]:
                raise ArchiveError(f"{display} holds more than {limits['members']} entries")
            if declared > limits["unpacked_bytes"]:
                raise ArchiveError(f"{display} would unpack to more than "
                                   f"{limits['unpacked_bytes'] >> 20} MiB")
            name = safe_member_name(info.name)
            if name is None:
                notes.add(f"ignored {info.name!r}: a path outside the submission")
            elif info.issym() or info.islnk():
                notes.add(f"ignored {name}: a link")
            elif info.isreg():
                members[name] = info
    except READ_ERRORS as err:
        archive.close()
        raise ArchiveError(f"{display} is damaged ({err})") from None
    except BaseException:
        archive.close()
        raise
    return archive, members, archive.extractfile


def zip_members(path, display, notes, limits):
    try:
        archive = zipfile.ZipFile(path)
    except READ_ERRORS as err:
        raise ArchiveError(f"{display} is not a readable zip archive ({err})") from None
    infos = archive.infolist()
    if len(infos) > limits["members"]:
        raise ArchiveError(f"{display} holds more than {limits['members']} entries")
    if sum(i.file_size for i in infos) > limits["unpacked_bytes"]:
        raise ArchiveError(f"{display} would unpack to more than "
                           f"{limits['unpacked_bytes'] >> 20} MiB")
    members = {}
    for info in infos:
        name = safe_member_name(info.filename)
        if name is None:
            notes.add(f"ignored {info.filename!r}: a path outside the submission")
        elif stat.S_ISLNK(info.external_attr >> 16):
            notes.add(f"ignored {name}: a symbolic link")
        elif not info.is_dir():
            members[name] = info
    return archive, members, archive.open


def read_archive(path, kind, wanted, limits, display=None):
    """({exercise key: bytes}, {exercise key: member name}, notes) of the
    wanted exercise files in an archive. Raises ArchiveError."""
    display = display or str(path)
    notes = Notes(limits["notes"])
    opener = zip_members if kind == "zip" else tar_members
    archive, members, open_member = opener(path, display, notes, limits)
    contents = {}
    with archive:
        chosen = choose_layout(set(members), wanted)
        for key, name in chosen.items():
            try:
                with open_member(members[name]) as stream:
                    data = read_capped(stream, name, notes, limits["source_bytes"])
            except READ_ERRORS + (RuntimeError,) as err:
                notes.add(f"ignored {name}: cannot be read from the archive ({err})")
                continue
            if data is not None:
                contents[key] = data
    return contents, {key: chosen[key] for key in contents}, list(notes)


def main():
    request = json.load(sys.stdin)
    display = request.get("display") or request["archive"]
    try:
        contents, found_at, notes = read_archive(request["archive"], request["kind"],
                                                 request["wanted"], request["limits"], display)
        reply = {"contents": {k: base64.b64encode(v).decode("ascii")
                              for k, v in contents.items()},
                 "found_at": found_at, "notes": notes}
    except ArchiveError as err:
        reply = {"error": str(err)}
    except MemoryError:
        reply = {"error": f"{display} could not be read within the archive reader's memory "
                          "limit"}
    except RecursionError:
        reply = {"error": f"{display} is damaged (its headers nest too deeply)"}
    json.dump(reply, sys.stdout)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
