"""The cost of signing each step's head, and of seats signing their decisions, as ratios of the unsigned step.

``python -m bench.signing [--rounds N] [--decisions N] [--json]``

The same seeded Loot game (fixed seed, the same random decisions) is played
step by step through ``Privateer.act`` (decide, chain, prepare, commit on an
SQLite file) by two applications in the same run: the service as it is (its
head signed with Ed25519 and the signature row written in the step's
transaction) and the same application whose ``prepare`` leaves the signature
out. Rounds alternate which goes first; each round measures CPU time per step
(``time.process_time``: the disk's waits are not counted, the signing is).
Reported: the median over rounds of each, and signed / unsigned.

A third application in the same run, ``seat_signed``, is the service as it is
playing the same game where every seat registered its own key (spec/SPEC.md
§6a): each decision carries the seat's Ed25519 signature, which the service
checks before the step and keeps in its ``Decided``. The seats' own signing
(the client's work, done in the browser or by ``tools act --seat-key``) is
timed apart and left out of the server's step; it is reported as
``seat_sign_us``.

Two more, ``table_unsigned`` and ``referee_signed``, play the same Loot game at a
table (spec/SPEC.md §9): the outcomes of chance are entered between the
decisions and left out of the time, each decision entered by the referee is
timed. ``table_unsigned`` is the application without signed heads whose game has
no referee's key; ``referee_signed`` the service as it is, its referee's key
registered (§9a): each entry carries the referee's signature over the version and
head it was entered at, checked before the step and kept in its ``Decided``. The
referee's own signing is timed apart (``referee_sign_us``). Reported:
``referee_signed_ratio``, referee_signed / table_unsigned.

What the extra of a signed step is made of, measured in the same run (the best of
repeated runs, ``timeit``): ``verify_us``, one Ed25519 verify of a referee's message
(what the service adds to a seat's or the referee's entry: the key's object is parsed
once, event_store/signing.py ``verify``), and ``head_sign_us``, the service's signing of
a step's head (``Signer.head_row``: the signing key's row read, the signature made),
which every signed step has. ``referee_extra_us`` and ``seat_extra_us``: each signed
step less its unsigned one, to set against them.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench.golden import entered_at_random
from event_store.index import IndexRow
from service.aggregate import Game
from service.app import Prepared, Privateer


class Unsigned(Privateer):
    """The application with its ``prepare`` as before signing: no signed head, no signature row."""

    def prepare(self, game: Game, secret: bytes | None = None, **service_rows: object) -> Prepared:
        index = IndexRow(self.index_row(game))
        return self._prepared([game], index=index, secret=(game.id.hex, secret) if secret is not None else None,
                              **service_rows)


def play(app: Privateer, decisions: int, seed: int, seat_keys: bool = False,
         client: list[float] | None = None) -> float:
    """CPU seconds per step of ``decisions`` decisions of one seeded game; ``seat_keys``: every
    seat registers its own key first and signs each of its decisions (that signing, the
    seat's work, is left out of the step's time and added to ``client``)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.signing import decision_message

    gid = app.create("loot", 3, seed=bytes([seed % 256]) * 32)
    keys = {}
    if seat_keys:
        for seat in (1, 2, 3):
            keys[seat] = Ed25519PrivateKey.generate()
            app.register_seat_key(gid, seat, keys[seat].public_key().public_bytes(Encoding.Raw,
                                                                                  PublicFormat.Raw).hex())
    rng = random.Random(seed)
    game = app.load(gid)
    start = time.process_time()
    aside = 0.0
    done = 0
    while done < decisions and not game.machine.finished:
        m = game.machine
        seat = m.to_act()[0]
        d = rng.choice(m.legal(seat))
        signature = None
        if keys:
            t = time.perf_counter()  # (the process clock may tick too coarsely for one signature)
            signature = keys[seat].sign(decision_message(gid.bytes, seat, m.seen(seat, game.version), d)).hex()
            aside += time.perf_counter() - t
        app.act(gid, seat, d, signature=signature)
        game = app.load(gid)
        done += 1
    if client is not None and done:
        client.append(aside / done)
    return (time.process_time() - start - aside) / max(done, 1)


def play_table(app: Privateer, decisions: int, seed: int, referee: bool = False,
               client: list[float] | None = None) -> float:
    """CPU seconds per decision entered at a table (the outcomes entered between them not
    counted); ``referee``: the referee's key registered first and each entry signed with it (that
    signing, the referee's work, left out and added to ``client``)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    gid = app.create("loot", 3, table=True)
    rng = random.Random(seed)
    key = Ed25519PrivateKey.generate()
    aside = [0.0]

    def signer(message: bytes) -> str:
        t = time.perf_counter()
        sig = key.sign(message).hex()
        aside[0] += time.perf_counter() - t
        return sig

    spent = 0.0
    done = 0
    while done < decisions:
        m = app.load(gid).machine
        if m.finished:
            break
        a = m.awaiting_chance()
        if a is not None:
            app.enter_chance(gid, entered_at_random(m.kernel_state["awaiting"], rng))
            continue
        if referee and not done and m.kernel_state.get("referee_key") is None:
            app.register_referee_key(gid, key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
            continue
        seat = m.to_act()[0]
        d = rng.choice(m.legal(seat))
        start = time.process_time()
        app.act(gid, seat, d, referee=signer if referee else None)
        spent += time.process_time() - start
        done += 1
    if client is not None and done:
        client.append(aside[0] / done)
    return (spent - aside[0]) / max(done, 1)


def parts(app: Privateer) -> dict[str, float]:
    """One Ed25519 verify of a referee's message, and one signing of a step's head by the
    service, in microseconds (best of repeated runs)."""
    import timeit

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.signing import referee_message, verify

    gid = app.create("loot", 3, table=True)
    game = app.load(gid)
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    message = referee_message(gid.bytes, game.version, game.head, 1, {"action": "draw"})
    signature = key.sign(message)
    assert verify(public, signature, message)

    def best(fn, n: int = 200) -> float:
        return round(min(timeit.repeat(fn, number=n, repeat=7)) / n * 1e6, 1)

    return {"verify_us": best(lambda: verify(public, signature, message)),
            "head_sign_us": best(lambda: app.signer.head_row(gid, game.version, game.head))}


def measure(rounds: int = 7, decisions: int = 150) -> dict:
    """The three applications' median CPU per step, side by side in one run, and their ratios."""
    tmp = Path(tempfile.mkdtemp(prefix="privateer-signing-"))
    try:
        apps = {"signed": Privateer(str(tmp / "signed.db")), "unsigned": Unsigned(str(tmp / "unsigned.db")),
                "seat_signed": Privateer(str(tmp / "seat-signed.db")),
                "table_unsigned": Unsigned(str(tmp / "table-unsigned.db")),
                "referee_signed": Privateer(str(tmp / "referee-signed.db"))}
        tables = ("table_unsigned", "referee_signed")

        def run(name: str, n: int, seed: int, aside: list[float] | None = None) -> float:
            if name in tables:
                return play_table(apps[name], n, seed, referee=name == "referee_signed", client=aside)
            return play(apps[name], n, seed, seat_keys=name == "seat_signed", client=aside)

        for name in apps:  # warm: the keys made, the rules imported
            run(name, 5, 999)
        times: dict[str, list[float]] = {name: [] for name in apps}
        client: list[float] = []
        referee_client: list[float] = []
        names = list(apps)
        for r in range(rounds):
            order = names[r % len(names):] + names[:r % len(names)]  # each goes first in turn
            for name in order:
                aside = client if name == "seat_signed" else referee_client if name == "referee_signed" else None
                times[name].append(run(name, decisions, r, aside))
        signed, unsigned = statistics.median(times["signed"]), statistics.median(times["unsigned"])
        seat_signed = statistics.median(times["seat_signed"])
        table_unsigned, referee_signed = statistics.median(times["table_unsigned"]), \
            statistics.median(times["referee_signed"])
        return {"rounds": rounds, "decisions_per_round": decisions, **parts(apps["signed"]),
                "seat_extra_us": round((seat_signed - unsigned) * 1e6, 1),
                "referee_extra_us": round((referee_signed - table_unsigned) * 1e6, 1),
                "signed_step_us": round(signed * 1e6, 1), "unsigned_step_us": round(unsigned * 1e6, 1),
                "ratio": round(signed / unsigned, 3),
                "seat_signed_step_us": round(seat_signed * 1e6, 1),
                "seat_signed_ratio": round(seat_signed / unsigned, 3),
                "seat_signing_over_signed_ratio": round(seat_signed / signed, 3),
                "seat_sign_us": round(statistics.median(client) * 1e6, 1),
                "table_unsigned_step_us": round(table_unsigned * 1e6, 1),
                "referee_signed_step_us": round(referee_signed * 1e6, 1),
                "referee_signed_ratio": round(referee_signed / table_unsigned, 3),
                "referee_sign_us": round(statistics.median(referee_client) * 1e6, 1),
                "per_round": {k: [round(x * 1e6, 1) for x in v] for k, v in times.items()}}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    """``python -m bench.signing``: the figures, in words or as JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--decisions", type=int, default=150)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    r = measure(a.rounds, a.decisions)
    if a.json:
        print(json.dumps(r, indent=2))
        return
    print(f"signing each step's head: {r['signed_step_us']} us CPU per signed step against "
          f"{r['unsigned_step_us']} us unsigned (median of {r['rounds']} interleaved rounds of "
          f"{r['decisions_per_round']} Loot decisions on SQLite): ratio {r['ratio']}")
    print(f"seats signing their decisions: {r['seat_signed_step_us']} us CPU per step on the server (the seat's "
          f"signature checked and kept) against {r['unsigned_step_us']} us unsigned: ratio {r['seat_signed_ratio']} "
          f"({r['seat_signing_over_signed_ratio']} of a step whose head alone is signed); the seat's own signing, "
          f"apart: {r['seat_sign_us']} us")
    print(f"a table's referee signing its entries: {r['referee_signed_step_us']} us CPU per decision entered on "
          f"the server (the head signed, the referee's signature checked and kept) against "
          f"{r['table_unsigned_step_us']} us unsigned at the same table: ratio {r['referee_signed_ratio']}; the "
          f"referee's own signing, apart: {r['referee_sign_us']} us")
    print(f"what the extra is made of: a seat-signed step {r['seat_extra_us']} us, a referee-signed entry "
          f"{r['referee_extra_us']} us more than unsigned; one Ed25519 verify {r['verify_us']} us, one head "
          f"signed by the service {r['head_sign_us']} us (best of repeated runs)")


if __name__ == "__main__":
    main()
