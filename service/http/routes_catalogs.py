"""Printed-card catalogs the organiser loads (service/catalogs.py): a game is then
created with one by its digest (``POST /games`` ``catalog``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from service.catalogs import catalog_row, check_catalog
from service.kernel.text import game_name

from .auth import bearer
from .checks import now
from .models import REQUEST
from .route_params import ERRORS, NEEDS, Auth, Service

router = APIRouter()


class CatalogLoad(BaseModel):
    model_config = REQUEST
    game: str = Field(max_length=100, description="The game the catalog is for (GET /rules).")
    name: str = Field("", max_length=200, description="A name for it, as the organiser's page lists it.")
    catalog: dict[str, Any] = Field(description="The catalog: the JSON of the game's built-in one "
                                                "(service/aggregates/<game>/data/catalog.json) with the printed "
                                                "values, each entry's `source` saying where it comes from.")


class CatalogRow(BaseModel):
    digest: str = Field(description="What `POST /games` takes as `catalog`.")
    game: str
    name: str
    created: str


@router.post("/catalogs", response_model=CatalogRow, status_code=201, responses=ERRORS, tags=["organiser"], **NEEDS)
def load_catalog(body: CatalogLoad, svc: Service, authorization: Auth = None) -> CatalogRow:
    """Load a printed-card catalog (organiser): validated by the game's rules (a refusal names what is wrong),
    kept by its digest. The same catalog loaded twice is one. Bodies up to PRIVATEER_MAX_CATALOG bytes."""
    svc.callers.organiser(bearer(authorization))
    checked = check_catalog(body.game, body.catalog, "the catalog")
    row = catalog_row(body.game, game_name(body.name), checked, now())
    svc.app.recorder.insert_service_rows(catalog=row)
    stored = svc.app.recorder.select_catalog(row[0])
    if stored is None:  # kept just above (or by the first load of the same catalog): a store that lost it
        raise RuntimeError(f"the catalog {row[0]} was not kept")
    return CatalogRow(digest=stored["digest"], game=stored["game"], name=stored["name"], created=stored["created"])


@router.get("/catalogs", response_model=list[CatalogRow], responses=ERRORS, tags=["organiser"], **NEEDS)
def catalogs(svc: Service, authorization: Auth = None) -> list[CatalogRow]:
    """The catalogs loaded (organiser), oldest first."""
    svc.callers.organiser(bearer(authorization))
    return [CatalogRow(**r) for r in svc.app.recorder.select_catalogs()]
