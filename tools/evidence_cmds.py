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
        rotate: Annotated[bool, typer.Option("--rotate", help="Make a new signing key, the rotation signed by the old "
                                                                "and the new; the old ones stay listed with their "
                                                                "life, so what they signed in it still checks.")] = False):
    """The service's public signing key (Ed25519), its fingerprint and the key history; made on first use.

    Publish the history: `tools verify FILE --key HISTORY` checks a file's signed heads against it, each
    signature within its key's life. The private key is in the key file (`$PRIVATEER_KEY_FILE`, else
    `<db>.key` beside an SQLite store), owner-only; never printed.

    Example: `tools key --json > service-key.json`; `tools key --rotate` (old keys stay listed).
    """
    a = open_app(db)
    if rotate:
        a.signer.rotate()
    history = a.signer.history()
    if json_out:
        return out_json(history)
    echo(f"public key  {history['public_key']}")
    echo(f"fingerprint {history['fingerprint']}")
    echo(f"since       {next(k['from'] for k in history['keys'] if k['signing'])}")
    for k in history["keys"]:
        if not k["signing"]:
            echo(f"also        {k['public_key']} (from {k['from']} until {k['until']}"
                 + (", rotation signed by both keys)" if k["rotation"] else ")"))


@app.command("seat-key")
@guarded
def seat_key(path: Annotated[str, typer.Argument(metavar="FILE", help="The seat key file to make (owner-only, 0600; refused if it exists).")],
             json_out: JsonOpt = False) -> None:
    """Make a seat's own signing key (Ed25519) in FILE, for a seat played from a terminal.

    `tools act GAME --seat N --seat-key FILE DECISION` registers its public key (a public event of the
    game, once) and signs each decision with it: the service then refuses the seat's decisions without
    its signature, and `tools verify` checks each one. Keep FILE: nobody else, the operator included,
    can sign in the seat's name.

    Example: `tools seat-key seat2.key`, then `tools act 3f2a9c --seat 2 --seat-key seat2.key 1`.
    The same file serves a table's referee: `tools table 3f2a9c --referee-key referee.key` signs every
    entry with it; and a seat moving to a new key file: `--seat-key new.key --previous-seat-key seat2.key`.
    """
    from event_store.signing import SeatKeyFile, fingerprint

    public = SeatKeyFile(path).make()
    if json_out:
        return out_json({"file": path, "public_key": public.hex(), "fingerprint": fingerprint(public)})
    echo(f"seat key    {path} (owner-only)")
    echo(f"public key  {public.hex()}")


@app.command()
@guarded
def verify(path: Annotated[str, typer.Argument(metavar="FILE", help="An export (`tools export`) or a record (`tools record`).")],
           key_: Annotated[Optional[list[str]], typer.Option("--key", metavar="PUBKEY", help="The service's published public key (hex, or a file holding it) or its key history (`tools key --json`, `GET /key`: each key counts within its life only); may be repeated.")] = None,
           receipt: Annotated[Optional[list[str]], typer.Option("--receipt", metavar="R", help="A seat's receipt (JSON, or a file of receipts); may be repeated.")] = None,
           json_out: JsonOpt = False):
    """Check a file's signed heads against a published key, and that it holds each seat's receipted step unchanged.

    Exit 0 when every step is signed and checks and every receipt's step is in the file; 1 names the first
    step whose signature fails or is missing, or the first receipt the file contradicts. Without --key a file
    is checked against the keys it carries, which anyone can make: it is then "consistent, not verified"
    (exit 0; `published_key` false with --json).

    Example: `tools verify final.pgame --key service-key.json`; `tools verify final.pgame --receipt mine.jsonl`.
    """
    from service.records.keys import published_keys
    from service.records.receipts import read_receipts
    from service.records.verify import verify_file

    verdict = verify_file(path, published_keys(key_ or []), read_receipts(receipt or []))
    if json_out:
        out_json(verdict.as_dict())
    elif verdict.ok and verdict.published:
        echo(f"ok: {path} ({verdict.kind}): " + "; ".join(verdict.checked))
    elif verdict.ok:  # its own keys: anyone can make a key and sign with it
        echo(f"consistent, not verified: {path} ({verdict.kind}) holds together with the keys it carries, which "
             "anyone can make; give --key (the service's published key history) to know the service signed it: "
             + "; ".join(verdict.checked))
    else:
        echo(f"VIOLATION: {path}: {(verdict.first_bad or {}).get('reason')}")
    if not verdict.ok:
        raise typer.Exit(1)
