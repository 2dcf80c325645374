"""The service's own pages: the OpenAPI document, the interactive API page at
/docs with Swagger UI's files from an installed package (``swagger-ui-bundle``,
so it works without a network; /redoc, which has no such package, leads to
/docs), and /health. The page starts Swagger UI from a file of its own
(``pages/docs.js``), not an inline script: the Content-Security-Policy
(service/http/headers.py) runs none."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]  # the package ships no types

from service.kernel.games import available_games

from . import models as m
from .route_params import Service

router = APIRouter()

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs-assets/swagger-ui.css">
<link rel="icon" href="/docs-assets/favicon-32x32.png">
<title>privateer API</title>
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs-assets/swagger-ui-bundle.js"></script>
<script src="/pages-assets/docs.js"></script>
</body>
</html>
"""


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    return HTMLResponse(DOCS_PAGE)


@router.get("/redoc", include_in_schema=False)
async def redoc() -> RedirectResponse:
    return RedirectResponse("/docs")


@router.get("/health", response_model=m.Health, tags=["service"])
def health(svc: Service) -> dict[str, Any]:
    return {"ok": True, "games": available_games(), "audit_runs": svc.audits.runs,
            "analyses": svc.analyses.running, "analysis_playouts": svc.analyses.playouts}


@router.get("/key", response_model=m.ServiceKey, tags=["service"])
def service_key(svc: Service) -> dict[str, Any]:
    """The service's public signing key and its key history (spec/SPEC.md §4): what its signed heads and
    receipts check against, each key within its life, and the rotations, signed by both keys."""
    return svc.app.signer.history()


class Api(FastAPI):
    """The application, whose OpenAPI document names the bearer scheme its routes' security refers to."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            doc = get_openapi(title=self.title, version=self.version, description=self.description,
                              routes=self.routes)
            doc.setdefault("components", {})["securitySchemes"] = {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "organiser key, referee key or seat token"}}
            self.openapi_schema = doc
        return self.openapi_schema


def mount_docs(api: FastAPI) -> None:
    """Swagger UI's files."""
    api.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")
