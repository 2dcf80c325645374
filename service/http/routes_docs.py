"""The service's own pages: the OpenAPI document, the interactive API page at
/docs with Swagger UI's files from an installed package (``swagger-ui-bundle``,
so it works without a network; /redoc, which has no such package, leads to
/docs), and /health. The page starts Swagger UI from a file of its own
(``pages/docs.js``), not an inline script: the Content-Security-Policy
(service/http/headers.py) runs none."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from service.kernel.rules import available_games

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
async def docs():
    return HTMLResponse(DOCS_PAGE)


@router.get("/redoc", include_in_schema=False)
async def redoc():
    return RedirectResponse("/docs")


@router.get("/health", response_model=m.Health, tags=["service"])
def health(svc: Service):
    return {"ok": True, "games": available_games(), "audit_runs": svc.audits.runs,
            "analyses": svc.analyses.running, "analysis_playouts": svc.analyses.playouts}


@router.get("/key", response_model=m.ServiceKey, tags=["service"])
def service_key(svc: Service):
    """The service's public signing key and its key history (spec/SPEC.md §4): what its signed heads and
    receipts check against, each key within its life, and the rotations, signed by both keys."""
    return svc.app.signer.history()


def mount_docs(api: FastAPI) -> None:
    """Swagger UI's files, and the OpenAPI document with the bearer scheme."""
    api.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    def openapi():
        if api.openapi_schema is None:
            doc = get_openapi(title=api.title, version=api.version, description=api.description, routes=api.routes)
            doc.setdefault("components", {})["securitySchemes"] = {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "organiser key, referee key or seat token"}}
            api.openapi_schema = doc
        return api.openapi_schema

    api.openapi = openapi
