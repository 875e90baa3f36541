"""Writing the tool's files as the runtime writes its reports
(runtime/spiketrap_report.cpp): never through a symbolic link, 0600 when
they carry the program's command line, and atomically: a temporary file in
the same directory renamed into place, so a reader never sees half a file
and a failed write leaves the old one. "-" is standard output; a FIFO or a
character device (/dev/null, /dev/stdout) is written as it is."""
import contextlib
import errno
import os
import stat
import sys
import tempfile

from .errors import CannotWrite


@contextlib.contextmanager
def output(path, private):
    """A text file to write path through; private: mode 0600, else 0666
    less the umask. CannotWrite when it cannot be written (nothing is left
    behind)."""
    if path == "-":
        yield sys.stdout
        return
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise CannotWrite(path, e.strerror)
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise CannotWrite(path, "it is a symbolic link")
    if st is not None and (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)):
        with _open(path, os.O_WRONLY | os.O_NOFOLLOW) as f:
            yield f
        return
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise CannotWrite(path, "it is not a regular file")
    directory = os.path.dirname(path) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".spiketrap-report.", dir=directory)
    except OSError as e:
        if st is None or e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise CannotWrite(path, e.strerror)
        # A file made for us in a directory we cannot write: in place.
        with _open(path, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW) as f:
            yield f
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
        if not private:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise CannotWrite(path, e.strerror) from None
        raise


@contextlib.contextmanager
def _open(path, flags):
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise CannotWrite(path, e.strerror)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yield f
    except OSError as e:
        raise CannotWrite(path, e.strerror)


def write(path, text, private):
    with output(path, private) as f:
        f.write(text)
