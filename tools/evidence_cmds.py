"""`tools key` and `tools verify`: the service's signing key, and a file
(an export or a record) checked against a published key or a seat's receipts."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tools.common import DbOpt, JsonOpt, app, guarded, open_app
from tools.plain import echo, out_json


@app.command()
@guarded
def key(db: DbOpt = None, json_out: JsonOpt = False,
        rotate: Annotated[bool, typer.Option("--rotate", help="Make a new signing key; the old ones stay listed, "
                                                                "so what they signed still checks.")] = False):
    """The service's public signing key (Ed25519) and its fingerprint; made on first use.

    Publish it: `tools verify FILE --key PUBKEY` checks a file's signed heads against it.

    Example: `tools key --json > service-key.json`; `tools key --rotate` (old keys stay listed).
    """
    a = open_app(db)
    if rotate:
        a.signer.rotate()
    keys = a.signer.describe()
    active = next(k for k in keys if k["signing"])
    if json_out:
        return out_json({"fingerprint": active["fingerprint"], "public_key": active["public_key"], "keys": keys})
    echo(f"public key  {active['public_key']}")
    echo(f"fingerprint {active['fingerprint']}")
    for k in keys:
        if not k["signing"]:
            echo(f"also        {k['public_key']} (retired {k['retired']})")


@app.command()
@guarded
def verify(path: Annotated[str, typer.Argument(metavar="FILE", help="An export (`tools export`) or a record (`tools record`).")],
           key_: Annotated[Optional[list[str]], typer.Option("--key", metavar="PUBKEY", help="The service's published public key (hex, or a file holding it or `tools key --json`); may be repeated.")] = None,
           receipt: Annotated[Optional[list[str]], typer.Option("--receipt", metavar="R", help="A seat's receipt (JSON, or a file of receipts); may be repeated.")] = None,
           json_out: JsonOpt = False):
    """Check a file's signed heads against a published key, and that it holds each seat's receipted step unchanged.

    Exit 0 when every step is signed and checks and every receipt's step is in the file; 1 names the first
    step whose signature fails or is missing, or the first receipt the file contradicts.

    Example: `tools verify final.pgame --key service-key.json`; `tools verify final.pgame --receipt mine.jsonl`.
    """
    from service.evidence import published_keys, read_receipts, verify_file

    verdict = verify_file(path, published_keys(key_ or []), read_receipts(receipt or []))
    if json_out:
        out_json(verdict.as_dict())
    elif verdict.ok:
        echo(f"ok: {path} ({verdict.kind}): " + "; ".join(verdict.checked))
    else:
        echo(f"VIOLATION: {path}: {verdict.first_bad['reason']}")
    if not verdict.ok:
        raise typer.Exit(1)
