"""The ``tools`` command line (Typer)."""
