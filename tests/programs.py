"""The programs from Debian packages that tests use (skipped when missing, except under CI), and free ports."""

from __future__ import annotations

import os
import socket

import pytest


def debian_program(path: str | None, package: str) -> str:
    """``path`` of a program from a Debian package; when it is missing the test (or module) is skipped,
    except under CI (``.ci/run`` installs the package and sets ``CI``), where that is an error."""
    if path and os.path.exists(path):
        return path
    if os.environ.get("CI"):
        raise RuntimeError(f"{path or package} is missing: .ci/run installs the Debian package {package}")
    pytest.skip(f"no {path or package} (apt-get install {package})", allow_module_level=True)


def free_port() -> int:
    """A TCP port free on the local host right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
