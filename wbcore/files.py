"""Writing a file so that a reader, or an interrupted writer, never sees half
of it: the grader's results and gradebook, the mutants' diagnosis records,
the student's progress, hint and pristine records."""
import os
import pathlib
import tempfile

# mkstemp creates files only their owner may read; outputs get the usual
# permissions (read at import, while the process has one thread).
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def printable(text):
    """text that any output takes: a name read from the file system or an
    archive may hold bytes that are not UTF-8 (Python keeps them as lone
    surrogates), which a UTF-8 file or terminal refuses; they become \\xNN."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:   # surrogates of another origin
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def atomic_write(path, text):
    """Replace path with text, or with bytes as they are (a temporary file in
    the same folder, then a rename), never leaving a partial file behind;
    makes the folder if needed."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)
        binary = isinstance(text, (bytes, bytearray))
        with (os.fdopen(fd, "wb") if binary
              else os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace",
                             newline="")) as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
