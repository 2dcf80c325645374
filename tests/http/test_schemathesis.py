"""Schemathesis against the OpenAPI document of a live server: no server
error, no response outside the documented status codes, content types and
schemas. Half the generated cases are pointed at real games with real
credentials so the checks reach past 404 and 401."""


import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis.checks import (content_type_conformance, negative_data_rejection,  # noqa: E402
                                 not_a_server_error, response_headers_conformance,
                                 response_schema_conformance, status_code_conformance)

from .conftest import Table  # noqa: E402

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance, negative_data_rejection]


@pytest.fixture(scope="session")
def api_schema(server):
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json")
    # an invalid body past the 64 KiB limit is refused before it is read: 413 is a rejection too
    rejection = schema.config.checks.negative_data_rejection
    rejection.expected_statuses = [*rejection.expected_statuses, "413"]
    return schema


@pytest.fixture(scope="session")
def targets(server, tmp_path_factory):
    from service.http.client import Api

    org = Api(server.url, server.key)
    plain = Table(server, org, "letter-of-marque", 2)
    table = Table(server, org, "letter-of-marque", 2, table=True)
    waiting = org.create("letter-of-marque", 3, wait_for_seats=True)["game_id"]
    games = [plain.gid, table.gid, waiting, plain.gid[:8]]
    creds = [None, server.key, plain.referee_key, plain.tokens[1], plain.tokens[2], table.referee_key,
             table.tokens[1], "not-a-token"]
    yield games, creds
    plain.close()
    table.close()
    org.close()


def operations(schema):
    for result in schema.get_all_operations():
        yield result.ok()


# The pytest plugin of schemathesis 4.32.5 does not run under pytest 9 ('Function' object
# has no attribute '_nodeid'), so the strategies are driven with hypothesis directly.
@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_openapi_conformance(api_schema, server, targets, mode):
    from schemathesis import GenerationMode

    games, creds = targets
    gen_mode = GenerationMode.POSITIVE if mode == "positive" else GenerationMode.NEGATIVE
    seen = 0
    for op in operations(api_schema):
        @settings(max_examples=40 if mode == "positive" else 20, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=op.as_strategy(generation_mode=gen_mode), pick=st.randoms(use_true_random=False))
        def run(case, pick):
            headers = {}
            # positive cases are pointed at real games with real credentials; negative cases are
            # left as generated (fixing one of their parts could make an invalid request valid)
            if mode == "positive" and pick.random() < 0.6:
                if case.path_parameters and "game_id" in case.path_parameters:
                    case.path_parameters["game_id"] = pick.choice(games)
                token = pick.choice(creds)
                if token:
                    headers["Authorization"] = f"Bearer {token}"
            live = op.path.endswith("/stream") or op.path.startswith("/streams/")  # noqa: B023 - called in this iteration
            given = (case.query or {}).get("timeout")
            valid = given is None or (isinstance(given, (int, float)) and not isinstance(given, bool)
                                      and 0 < given <= 3600)
            if live and (mode == "positive" or valid):
                # a live stream stays open until its timeout (its first batch is sent however short it is); a
                # negative case keeps a timeout that is invalid (it may be what makes the case invalid)
                case.query = dict(case.query or {}, timeout=0.01)
            if op.path.endswith("/analysis") and mode == "positive":  # noqa: B023 - run() is called in this iteration
                given = (case.query or {}).get("playouts")  # an analysis is long work: keep it short here
                case.query = dict(case.query or {}, playouts=min(given, 30) if isinstance(given, int) else 30)
            case.call_and_validate(base_url=server.url, headers=headers, checks=CHECKS, timeout=30)

        try:
            run()
        except Unsatisfiable:
            assert mode == "negative"  # nothing in this operation can be made invalid (e.g. /health)
        seen += 1
    assert seen >= 12

