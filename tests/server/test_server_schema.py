"""schemathesis against a running server (audit finding 10): every documented operation,
fed generated valid and invalid input, answers with no 5xx, only documented statuses,
content types and headers, and bodies that match the OpenAPI document. Bounded: a
few examples per operation and no shrinking, so it stays a matter of seconds; on
SQLite, and on PostgreSQL when DEADWOOD_TEST_DATABASE_URL is set."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from test_server_process import ServerProcess

#: Examples per operation (each one request); the whole run stays well under a minute.
EXAMPLES = 8

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture
def live(tmp_path: Path, database_url: str) -> Iterator[tuple[ServerProcess, dict[str, str]]]:
    server = ServerProcess(tmp_path / "data", database_url)
    server.start()
    try:
        token = httpx.post(server.base + "/api/players", timeout=30).json()["token"]
        yield server, {"Authorization": f"Bearer {token}"}
    finally:
        server.kill()


def _words(exc: BaseException) -> str:
    parts = [f"{type(exc).__name__}: {exc}"]
    if isinstance(exc, BaseExceptionGroup):
        parts += [_words(inner) for inner in exc.exceptions]
    return "\n".join(parts)[:1500]


def _run_operation(operation: Any, mode: GenerationMode, auth: dict[str, str]) -> list[str]:
    """Up to EXAMPLES generated requests for one operation; its first failure, in words."""
    failures: list[str] = []

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,  # the same requests every run
        phases=[Phase.generate],  # no shrinking: a failure is reported as found
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def run(case: Any) -> None:
        if failures:
            return  # one failure per operation and mode says enough
        try:
            case.call_and_validate(headers=auth, checks=CHECKS, timeout=30)
        except (Exception, BaseExceptionGroup) as exc:  # failed checks, or a failed request
            failures.append(f"{operation.label} [{mode}]\n{_words(exc)}")

    try:
        run()
    except Unsatisfiable:
        # Nothing to get wrong: an operation without parameters or body has no invalid input.
        assert mode is GenerationMode.NEGATIVE, operation.label
    return failures


def test_api_conforms_to_its_document(live: tuple[ServerProcess, dict[str, str]]) -> None:
    server, auth = live
    schema = schemathesis.openapi.from_url(server.base + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 25, [op.label for op in operations]
    failures: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            failures += _run_operation(operation, mode, auth)
    assert not failures, "\n\n".join(failures)


def test_real_answers_match_the_document(live: tuple[ServerProcess, dict[str, str]]) -> None:
    """Generated ids rarely name a real match; this walks real ones, every answer checked."""
    server, auth = live
    schema = schemathesis.openapi.from_url(server.base + "/openapi.json")

    def call(method: str, path: str, body: Any = None, **path_parameters: str) -> Any:
        operation = schema[path][method]
        extra = {} if body is None else {"body": body, "media_type": "application/json"}
        case = operation.Case(path_parameters=path_parameters, headers=auth, **extra)
        response = case.call_and_validate(checks=CHECKS, timeout=30)
        return response.json()

    call("PATCH", "/api/players/me", {"name": "Calamity", "large_print": True})
    created = 0
    for game, opponents, options in (
        ("toy", ["random"], {"turns": 3}),
        ("deadwood-knock", ["random"], {"rounds": 1}),
        ("knock-rummy", ["random", "random"], {}),
        ("gin", ["greedy"], {}),
    ):
        body = {"game": game, "opponents": opponents, "options": options}
        # The bots can end a match before the player's first turn (two random Knock Rummy
        # bots knocking at once, the player winning both hands on count): a finished
        # match has no action to post, so that game is dealt again (a few tries).
        for _ in range(5):
            match_id = call("POST", "/api/matches", body)["match_id"]
            created += 1
            deadline = time.monotonic() + 60
            view = call("GET", "/api/matches/{match_id}", match_id=match_id)
            while not view["legal_actions"] and view["status"] == "active":
                assert time.monotonic() < deadline, "bots never handed the turn back"
                time.sleep(0.05)
                view = call("GET", "/api/matches/{match_id}", match_id=match_id)
            if view["status"] == "active":
                break
            assert view["result"] is not None
        if game != "toy":
            call("GET", "/api/matches/{match_id}/hint", match_id=match_id)
        move = {"action": view["legal_actions"][0], "version": view["version"]}
        call("POST", "/api/matches/{match_id}/actions", move, match_id=match_id)
        call("POST", "/api/matches/{match_id}/forfeit", match_id=match_id)
    assert len(call("GET", "/api/matches")["matches"]) == created
    call("POST", "/api/backup/link", {"email": "calamity@example.org"})
    call("POST", "/api/backup/restore", {"email": "calamity@example.org"})
    (device,) = call("GET", "/api/players/me/devices")["devices"]
    assert device["current"]
    call("POST", "/api/players/me/devices/sign-out-others")
    for path in ("/api/games", "/api/health", "/api/trail", "/api/likenesses", "/api/records"):
        call("GET", path)
