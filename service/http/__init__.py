"""The HTTP service: FastAPI app (``app.py``), commands and queries (``core.py``),
roles (``auth.py``), bodies (``models.py``), a client and a server runner
(``client.py``). See ``README.md`` here."""
