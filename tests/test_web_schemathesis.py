"""A bounded schemathesis run against the server's OpenAPI document: no request answers 500.

Every operation gets a few dozen generated requests (valid and invalid bodies, paths, queries) on a
fresh SQLite database; starting a lab is left out (each starts a process of self-play games).
"""

from __future__ import annotations

import dataclasses
import tempfile

import pytest

schemathesis = pytest.importorskip("schemathesis")
pytest.importorskip("fastapi")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from morphchess.web import create_app  # noqa: E402
from morphchess.web.limits import Limits  # noqa: E402

EXAMPLES = 30  # per operation: about a minute for the whole API on one core
pytestmark = pytest.mark.slow

_folder = tempfile.mkdtemp(prefix="morphchess-schemathesis-")
_limits = dataclasses.replace(Limits.every_rate(10**6), engine_seconds=0.2, engine_games=1)
app = create_app(f"sqlite:///{_folder}/games.db", _limits)
schema = (schemathesis.openapi.from_asgi("/openapi.json", app).exclude(path="/api/lab", method="POST")
          .exclude(path="/api/lobby/events"))  # a stream without parameters never ends: tests/test_web_lobbyfeed.py


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_request_answers_500(case):
    case.call_and_validate(checks=[not_a_server_error])
