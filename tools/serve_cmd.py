"""`tools serve`: the HTTP service (registered on the main Typer app)."""

from tools.cli import app  # noqa: F401  (commands are added to this app)
