"""The API's documentation page works without a network: Swagger UI's files
are served by the service itself (no CDN)."""

import re

import httpx


def test_docs_load_their_files_from_the_service(server):
    page = httpx.get(server.url + "/docs")
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and not [s for s in sources if s.startswith("http")]  # nothing from elsewhere
    for s in sources:
        got = httpx.get(server.url + s)
        assert got.status_code == 200 and len(got.content) > 200, s
    assert httpx.get(server.url + "/redoc", follow_redirects=False).headers["location"] == "/docs"
