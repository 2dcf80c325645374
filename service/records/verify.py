"""``tools verify FILE``: an export or a text record, checked against the keys given."""

from __future__ import annotations

from pathlib import Path

from service.kernel.errors import BadInput
from service.records.export import verify_export
from service.records.export_file import read_game
from service.records.text_signed import verify_record
from service.records.verdict import Verdict


def verify_file(path: str, keys: dict | None, receipts: list[dict]) -> Verdict:
    raw = Path(path).read_bytes() if Path(path).is_file() else None
    if raw is None:
        raise BadInput(f"cannot read {path}")
    if raw.lstrip().startswith(b'[Record "PrivateerRecord'):
        verdict = verify_record(path, raw.decode("utf-8"), keys, receipts)
    else:
        verdict = verify_export(path, read_game(path, times_as_text=True), keys, receipts)
    verdict.published = keys is not None
    return verdict
