"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` package (apt),
``initdb`` in a temporary directory and ``pg_ctl`` on a free loopback port, stopped and
deleted afterwards.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
``postgres`` system user that the Debian package creates (``runuser``). Anything
missing is a :class:`Unavailable` with the reason, for the test to skip with.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class Unavailable(RuntimeError):
    """No PostgreSQL server can be started here (the message says why)."""


def _bin_dir() -> Path:
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    # Debian keeps the server's programs out of PATH, one directory per major version.
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                  key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not dirs:
        raise Unavailable("no PostgreSQL server programs (apt-get install postgresql)")
    return Path(dirs[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """Start a PostgreSQL server; yields a SQLAlchemy URL (psycopg 3) of an empty database."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise Unavailable("psycopg is not installed (pip install '.[web]')") from None
    bindir = _bin_dir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        try:
            import pwd

            user = pwd.getpwnam("postgres")
        except KeyError:
            raise Unavailable("running as root and there is no 'postgres' user to run "
                              "the server as (PostgreSQL refuses root)") from None
        if runuser is None:
            raise Unavailable("running as root without runuser(1)")
        prefix = [runuser, "-u", "postgres", "--"]
    base = Path(tempfile.mkdtemp(prefix="spyglass-pg-"))
    if prefix:
        os.chown(base, user.pw_uid, user.pw_gid)
    data, port = base / "data", _free_port()

    def run(*cmd: str, timeout: float = 120) -> None:
        out = subprocess.run([*prefix, *cmd], capture_output=True, text=True,
                             timeout=timeout, cwd=base)
        if out.returncode != 0:
            raise Unavailable(f"{Path(cmd[0]).name} failed: "
                              f"{(out.stderr or out.stdout).strip()[-400:]}")

    started = False
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "spyglass", "--auth=trust",
            "-E", "UTF8", "--no-sync")
        opts = (f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off")
        run(str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(base / "log"),
            "-w", "-t", "60", "start")
        started = True
        run(str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "spyglass",
            "spyglass")
        yield f"postgresql+psycopg://spyglass@127.0.0.1:{port}/spyglass"
    finally:
        if started:
            subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m",
                            "immediate", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)
