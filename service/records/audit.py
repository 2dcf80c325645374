"""The audit: is this history exactly what happened, provably?

1. Chain: every stored event decodes, versions run 1..N, each ``prev`` is the
   previous event's ``hash``, each ``hash`` is recomputed from the event, and
   the store's head (kept with the events) is the last event.
2. Randomness: the revealed seed (or, for an unfinished game, the store's
   secret) matches the commitment in ``GameCreated``; every chance outcome is
   recomputed from the key and its counter, and counters run without gaps.
3. Rules: every step is re-run through the game's rules from the state before
   it, with the recorded chance outcomes, and must give back exactly the
   recorded events; a refused decision or a differing event is a violation.

The first bad event is named with its version and a plain reason.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from uuid import UUID

from event_store.chain import chain_version, genesis, link
from event_store.signing import decision_message, verify
from service.logs import logger
from service.records.end import check_end, kept_end
from service.kernel.chance import ReplayChance, derive_key, recompute
from service.kernel.corrections import in_step, is_correction, retracted_versions
from service.kernel.errors import PrivateerError
from service.kernel.machine import BESIDE_STEPS, CHANCE_TYPES, Ev, Machine, same_events
from service.kernel.rules import Rules
from service.kernel.games import get_rules
from service.referee_key import referee_problem
from service.seat_keys import SIGNED_FIELDS, handed_over, signed_decision, signing_game

log = logger(__name__)


@dataclass
class AuditReport:
    game_id: str
    events: int = 0
    ok: bool = True
    first_bad: dict | None = None
    notes: list[str] = field(default_factory=list)

    def fail(self, version: int, type_: str, reason: str) -> "AuditReport":
        if self.ok:
            self.ok = False
            self.first_bad = {"version": version, "type": type_, "reason": reason}
        return self

    def as_dict(self) -> dict:
        return {"game_id": self.game_id, "ok": self.ok, "events": self.events,
                "first_bad": self.first_bad, "notes": self.notes}


class Envelope:
    """A decoded stored event (whatever class it decoded to)."""

    __slots__ = ("version", "timestamp", "type", "turn", "vis", "data", "prev", "hash", "salt")

    def __init__(self, e):
        self.version = e.originator_version
        self.timestamp = e.timestamp
        self.type = e.type
        self.turn = e.turn
        self.vis = e.visible_to
        self.data = e.data
        self.prev = e.prev
        self.hash = e.hash
        self.salt = getattr(e, "salt", None)

    def ev(self) -> Ev:
        return Ev(self.type, self.turn, self.vis, self.data)

    @classmethod
    def of_row(cls, row: dict) -> "Envelope":
        """An event row of a file (service/records/export_file.py ``read_game``)."""
        env = cls.__new__(cls)
        env.version, env.timestamp, env.type, env.turn = row["version"], row["timestamp"], row["type"], row["turn"]
        env.vis, env.data, env.prev, env.hash = row["visible_to"], row["data"], row["prev"], row["hash"]
        env.salt = row.get("salt")
        return env


def decode_all(game_id, stored, mapper, report: AuditReport) -> list[Envelope] | None:
    """The stored events decoded, each time as the ISO text stored: the hash
    chain hashes that text (event_store/chain.py), so a time rewritten in
    another form of the same instant is a change the chain shows."""
    mapper = _times_as_stored(mapper)
    out = []
    for s in stored:
        try:
            out.append(Envelope(mapper.to_domain_event(s)))
        except Exception as e:  # any decoding failure is a finding, not a crash (its traceback at DEBUG)
            log.debug("event %d cannot be decoded", s.originator_version, exc_info=True,
                      extra={"game_id": report.game_id})
            report.fail(s.originator_version, "?", f"stored bytes cannot be decoded ({type(e).__name__})")
            return None
    return out


def _times_as_stored(mapper):
    from eventsourcing.persistence import Mapper

    from event_store.codec import MsgPackTranscoder

    if not isinstance(mapper.transcoder, MsgPackTranscoder):
        return mapper
    return Mapper(transcoder=MsgPackTranscoder(times_as_text=True), compressor=mapper.compressor,
                  cipher=mapper.cipher)


def check_chain(game_id, envs: list[Envelope], head: dict | None, report: AuditReport) -> bool:
    if not envs or envs[0].type != "GameCreated":
        return not report.fail(1, envs[0].type if envs else "?", "a history must start with GameCreated")
    try:
        chain = chain_version(envs[0].data)
    except ValueError as err:
        return not report.fail(1, "GameCreated", str(err))
    report.notes.append(f"hash chain version {chain}")
    prev = genesis(game_id, chain)
    for i, e in enumerate(envs):
        expected_version = i + 1
        if e.version != expected_version:
            return not report.fail(expected_version, "(missing)",
                                   f"event {expected_version} is missing (versions jump from {i} to {e.version})")
        if e.prev != prev:
            return not report.fail(e.version, e.type,
                                   "its link to the previous event is broken (previous event changed or removed)")
        if chain == 1 and e.salt is not None:
            return not report.fail(e.version, e.type, "a salted event in a chain version 1 history")
        try:
            h = link(game_id, e.version, e.timestamp, e.type, e.turn, e.vis, e.data, e.prev, e.salt, chain)
        except Exception as exc:  # a finding (its traceback at DEBUG)
            log.debug("event %d cannot be hashed", e.version, exc_info=True, extra={"game_id": report.game_id})
            return not report.fail(e.version, e.type, f"cannot be hashed ({exc})")
        if h != e.hash:
            return not report.fail(e.version, e.type, "its content does not match its hash (the stored event was changed)")
        prev = e.hash
    if head is not None:
        last = envs[-1]
        if head["version"] != last.version or head["head"] != last.hash.hex():
            return not report.fail(last.version + 1 if head["version"] > last.version else last.version,
                                   last.type,
                                   f"the store's head is version {head['version']} but the history ends at "
                                   f"version {last.version} (events removed or added behind the store's back)")
    return True


def check_chance(envs: list[Envelope], seed: bytes | None, parents: list | None,
                 report: AuditReport) -> bool:
    """``parents``: ``[[version, seed or None], ...]``, oldest ancestor first: the
    chance events up to each version were drawn with that ancestor's seed
    (``ancestry``); the later ones with ``seed``."""
    counter = 0
    entropies: list[bytes] = []
    for e in envs:
        if e.type == "EntropyAdded":
            entropies.append(bytes.fromhex(e.data["entropy"]))
            continue
        if e.type not in CHANCE_TYPES:
            continue
        d = e.data
        if d.get("counter") is None:
            continue  # entered at the table
        if d["counter"] != counter:
            return not report.fail(e.version, e.type,
                                   f"chance counter {d['counter']} where the stream was at {counter} "
                                   "(outcomes skipped or redrawn)")
        use = next((a for upto, a in parents or () if e.version <= upto), seed)
        if use is not None:
            problems = recompute(derive_key(use, entropies), e.type, d)
            if problems:
                return not report.fail(e.version, e.type, problems[0])
        counter = d["counter"] + d["draws"]
    return True


def check_seed(envs: list[Envelope], secret: bytes | None, report: AuditReport) -> bytes | None:
    created = envs[0].data
    commitment = created.get("commitment")
    finished = [e for e in envs if e.type == "GameFinished"]
    if created["table"]:
        report.notes.append("table mode: chance outcomes were entered by the referee")
        return None
    revealed = finished[0].data.get("seed") if finished else None
    if revealed is not None:
        seed = bytes.fromhex(revealed)
        if hashlib.sha256(seed).hexdigest() != commitment:
            report.fail(finished[0].version, "GameFinished", "the revealed seed does not match the commitment")
            return None
        report.notes.append("chance checked against the revealed seed")
        return seed
    if secret is not None:
        if hashlib.sha256(secret).hexdigest() != commitment:
            report.fail(1, "GameCreated", "the store's secret seed does not match the commitment")
            return None
        report.notes.append("game unfinished: chance checked against the store's secret seed (matches the commitment)")
        return secret
    report.notes.append("seed not revealed and not in this store: chance outcomes checked for gaps only")
    return None


def rerun(envs: list[Envelope], report: AuditReport) -> bool:
    created = envs[0]
    try:
        rules = get_rules(created.data["game"])
    except PrivateerError as err:
        return not report.fail(1, "GameCreated", err.reason)
    machine = Machine(rules, created.ev())
    machine.apply(created.ev())
    revealed = next((e.data.get("seed") for e in envs if e.type == "GameFinished"), None)
    try:
        retracted = retracted_versions(envs)
    except Exception:  # a finding (its traceback at DEBUG)
        log.debug("a correction's retracted range cannot be read", exc_info=True, extra={"game_id": report.game_id})
        return not report.fail(1, "Corrected", "a correction's retracted range cannot be read")
    for e in envs:
        if e.type == "Corrected":
            report.notes.append(f"correction at version {e.version}: versions {e.data['retracted'][0]}-"
                                f"{e.data['retracted'][1]} retracted ({e.data.get('reason', '')})")
    i = 1
    n = len(envs)
    while i < n:
        e = envs[i]
        if e.version in retracted:  # in the chain and the stream, out of the line
            machine.apply_retracted(e.ev())
            i += 1
            continue
        if e.type == "EntropyAdded" or e.type in BESIDE_STEPS:
            machine.apply(e.ev())
            i += 1
            continue
        if e.type != "Decided":
            return not report.fail(e.version, e.type, "an event outside any decision (no Decided before it)")
        k = _region_end(envs, i)
        if _corrected_inside(envs[i:k], envs):  # the referee took back outcomes of this step
            folded = _region_agrees(machine, envs, i, k, revealed, report)
            if folded is None:
                return False
            machine = folded
            i = k
            continue
        j = _step_end(envs, i, retracted)
        # a seat named while a table step awaited an outcome: not one of the step's events
        named = [r for r in envs[i + 1:j] if r.type in BESIDE_STEPS]
        recorded = [r for r in envs[i:j] if r.type not in BESIDE_STEPS] if named else envs[i:j]
        if not _step_agrees(machine, recorded, revealed, retracted, report):
            return False
        if recorded[-1].type == "ChanceAwaited" and j < n:
            return not report.fail(envs[j].version, envs[j].type,
                                   "a new decision while a chance outcome was still awaited")
        for r in named:
            machine.apply(r.ev())
        i = j
    return rerun_retracted(envs, rules, retracted, revealed, report)


def _step_end(envs: list[Envelope], i: int, skip: set[int]) -> int:
    """The index after the last event of the step starting at ``envs[i]`` (events in ``skip`` end it)."""
    j = i + 1
    while j < len(envs) and envs[j].type not in ("Decided", "EntropyAdded") and envs[j].version not in skip:
        j += 1
    return j


def _region_end(envs: list[Envelope], i: int) -> int:
    """The index after the last event of the step starting at ``envs[i]``, through the
    corrections made inside it (and the events they retracted): up to the next step."""
    j = i + 1
    while j < len(envs) and not (envs[j].type == "EntropyAdded" or (
            envs[j].type == "Decided" and not in_step(envs[j].data.get("decision"), envs))):
        j += 1
    return j


def _corrected_inside(region: list[Envelope], envs: list[Envelope]) -> bool:
    return any(r.type == "Decided" and in_step(r.data.get("decision"), envs) for r in region[1:])


def _ranges_before(envs: list[Envelope], version: int) -> set[int]:
    """The versions retracted by the corrections before ``version``."""
    return retracted_versions([e for e in envs if e.version < version])


def _region_agrees(machine: Machine, envs: list[Envelope], i: int, k: int, revealed: str | None,
                   report: AuditReport, on_line: bool = True) -> Machine | None:
    """A step the referee corrected inside (service/kernel/corrections.py): the step as it
    stood before each correction, and as it stands after the last, is re-run from the state
    before it with the outcomes on its line then, and must give back exactly those events; each
    correction cuts the step before one of its outcomes and is exactly what the kernel records.
    Returns the machine folded through the step (along the line as it stands at the step's
    end), or None after a failure. ``on_line``: the step is on the game's line (not retracted
    whole later), so it cannot be left awaiting an outcome when the next step starts."""
    region = envs[i:k]
    own = {r.version for r in region if r.type == "Decided" and in_step(r.data.get("decision"), envs)}
    own |= {r.version for r in region if r.type == "Corrected" and r.version - 1 in own}
    cuts = sorted(v for v in own if envs[v - 1].type == "Decided")
    end = region[-1].version + 1
    for t in cuts + [end]:
        then = _ranges_before(envs, t)
        made = [r for r in region if r.version < t and r.version not in then and r.version not in own
                and r.type not in BESIDE_STEPS]
        if not _step_agrees(machine.copy(), made, revealed, then, report):
            return None
        if t == end and on_line and made[-1].type == "ChanceAwaited" and k < len(envs):
            report.fail(envs[k].version, envs[k].type, "a new decision while a chance outcome was still awaited")
            return None
        if t == end:
            break
        d = envs[t - 1]
        to = d.data["decision"].get("to_version")
        marker = envs[to - 1] if isinstance(to, int) and 1 <= to <= len(envs) else None
        places = [r.version for r in made if r.type == "ChanceAwaited"]
        if marker is None or to not in places or not any(r.version > to and r.type in CHANCE_TYPES for r in made):
            report.fail(d.version, d.type, "a correction inside a step that does not cut it just before "
                        "one of its outcomes")
            return None
        live = machine.copy()  # the game as the referee corrected it
        hypothetical = then | set(range(to + 1, t))
        for r in region:
            if r.version >= t:
                break
            (live.apply_retracted if r.version in hypothetical else live.apply)(r.ev())
        recorded = [r for r in region if r.version in (t, t + 1)]
        if not _step_agrees(live, recorded, revealed, hypothetical, report):
            return None
    folded = machine.copy()
    final = _ranges_before(envs, end)
    for r in region:
        (folded.apply_retracted if r.version in final else folded.apply)(r.ev())
    return folded


def _signed(e: Envelope) -> dict | None:
    """The signatures a ``Decided`` keeps as they were given: the seat's, the referee's."""
    return {k: e.data[k] for k in SIGNED_FIELDS if k in e.data} or None


def _step_agrees(machine: Machine, recorded: list[Envelope], revealed: str | None, retracted: set[int],
                 report: AuditReport) -> bool:
    """Re-run the step whose events are ``recorded`` (its ``Decided`` first) on ``machine``; it must
    give back exactly those events."""
    e = recorded[0]
    chance = ReplayChance([dict(r.data) for r in recorded
                           if r.type in CHANCE_TYPES and not r.data.get("face_down")], revealed,
                          seeded=not machine.kernel_state["table"])
    seat, decision = e.data.get("seat"), e.data.get("decision")
    try:
        if seat == 0 and is_correction(decision):
            if not (retracted >= set(range(decision.get("to_version", 0) + 1, e.version))):
                return not report.fail(e.version, e.type, "a correction whose retracted steps are not all retracted")
            produced = machine.correct(decision, e.version - 1, _signed(e))
        elif seat == 0 and isinstance(decision, dict) and "referee" in decision:
            produced = machine.referee(decision, chance, _signed(e))
        elif seat == 0:
            if machine.k["steps"] != 0:  # only seats' entropy may come before the setup
                return not report.fail(e.version, e.type, "a second setup step")
            produced = machine.setup(chance)
        else:  # a seat's signature (service/seat_keys.py) is kept in its Decided as it was given
            produced = machine.decide(seat, decision, chance, signed=_signed(e))
    except PrivateerError as err:
        return not report.fail(e.version, e.type, f"the rules refuse this decision: {err.reason}")
    except Exception as err:  # a finding (its traceback at DEBUG)
        log.debug("the rules cannot re-run event %d", e.version, exc_info=True, extra={"game_id": report.game_id})
        return not report.fail(e.version, e.type, f"the rules cannot re-run this step ({type(err).__name__}: {err})")
    want = [r.ev() for r in recorded if r.type != "ChanceAwaited"]
    got = [p for p in produced if p.type != "ChanceAwaited"]
    if not same_events(want, got):
        for k in range(max(len(want), len(got))):
            if k >= len(want) or k >= len(got) or not same_events([want[k]], [got[k]]):
                bad = [r for r in recorded if r.type != "ChanceAwaited"]
                at = bad[k] if k < len(bad) else recorded[-1]
                expect = f"{got[k].type} {got[k].data}" if k < len(got) else "nothing"
                return not report.fail(at.version, at.type,
                                       f"differs from what the rules derive (expected {expect})"[:400])
    return True


def rerun_retracted(envs: list[Envelope], rules: Rules, retracted: set[int], revealed: str | None,
                    report: AuditReport) -> bool:
    """A retracted step was a step of the game when it was made: each is re-run
    from the game as it stood then (the events before it, less those retracted
    by the corrections made before it), so a retracted step cannot be rewritten
    either."""
    corrections = [(e.version, range(e.data["retracted"][0], e.data["retracted"][1] + 1))
                   for e in envs if e.type == "Corrected"]
    for i, e in enumerate(envs):
        if e.version not in retracted or e.type != "Decided" or is_correction(e.data.get("decision")):
            continue
        then = {v for at, r in corrections if at < e.version for v in r}
        machine = Machine(rules, envs[0].ev())
        machine.apply(envs[0].ev())
        for before in envs[1:i]:
            (machine.apply_retracted if before.version in then else machine.apply)(before.ev())
        k = _region_end(envs, i)
        if _corrected_inside(envs[i:k], envs):  # corrected inside before it was retracted whole
            if _region_agrees(machine, envs, i, k, revealed, report, on_line=False) is None:
                _said_retracted(report)
                return False
            continue
        # the step as it was made: its events up to the next step (the correction that retracted it ends it too)
        j = _step_end(envs, i, {v for v in (x.version for x in envs) if v not in retracted})
        if not _step_agrees(machine, [r for r in envs[i:j] if r.type not in BESIDE_STEPS], revealed, then, report):
            _said_retracted(report)
            return False
    return True


def _said_retracted(report: AuditReport) -> None:
    """The failure found in a retracted step, said so."""
    if report.first_bad is not None:
        report.first_bad["reason"] = "(a retracted step) " + report.first_bad["reason"]


def audit_events(game_id, stored, mapper, head: dict | None, secret: bytes | None,
                 parents: list | None = None) -> AuditReport:
    report = AuditReport(game_id=game_id.hex)
    report.events = len(stored)
    if not stored:
        return report.fail(1, "?", "the game has no events")
    envs = decode_all(game_id, stored, mapper, report)
    if envs is None:
        return report
    return audit_envelopes(game_id, envs, head, secret, parents, report)


def audit_envelopes(game_id: UUID, envs: list[Envelope], head: dict | None, secret: bytes | None,
                    parents: list | None, report: AuditReport) -> AuditReport:
    """Chain, seats' signatures, seed, chance and rules over decoded events (from a store or a file)."""
    report.events = len(envs)
    if not check_chain(game_id, envs, head, report):
        return report
    if not check_seat_signatures(envs, report):  # the operator's words in a seat's name, named as such
        return report
    if not check_randomness(envs, secret, parents, report):
        return report
    if rerun(envs, report):  # the rules name a bad step first (the event on the line that differs)
        check_shapes(envs, report)
    _name_rules_version(envs[0].data, report)
    return report


def check_shapes(envs: list[Envelope], report: AuditReport) -> bool:
    """What a verifier checks of a history's form without its rules (spec/SPEC.md):
    each correction's shape (§8), outcomes marked ``stated`` only in the setup of a
    game from a stated position and a seeded game's other outcomes all from the
    stream (§5.5), no counter in a table-mode game (§9). ``tools verify`` runs it
    before the chance (service/records/export.py, spec/verify.py's order); the audit
    (``tools audit``, ``tools import``) after the rules' re-run, which names the
    step a forged correction breaks."""
    for e in envs:
        if e.type != "Corrected":
            continue
        v, d = e.version, e.data
        before = envs[v - 2] if v >= 2 else None
        decision = before.data.get("decision") if before is not None and before.type == "Decided" else None
        to = d.get("to_version")
        if not (before is not None and isinstance(decision, dict) and is_correction(decision)
                and decision.get("to_version") == to
                and before.data.get("seat") == 0):
            return not report.fail(v, e.type, "not the consequence of a correction's Decided")
        if not (isinstance(to, int) and 1 <= to < v - 2 and d.get("retracted") == [to + 1, v - 2]):
            return not report.fail(v, e.type, f"its retracted range is not [to_version + 1, {v - 2}]")
        cut, after = envs[to - 1], envs[to]
        if not (after.type in ("Decided", "EntropyAdded") or after.type in BESIDE_STEPS
                or (cut.type == "ChanceAwaited" and after.type in CHANCE_TYPES)):
            return not report.fail(v, e.type, f"version {to} is neither a step boundary nor just before an outcome")
    created = envs[0].data
    setups, in_setup = 0, False
    for e in envs[1:]:
        d = e.data
        if e.type in ("Decided", "EntropyAdded"):
            in_setup = e.type == "Decided" and d.get("seat") == 0 and d.get("decision") == {"step": "setup"}
            setups += in_setup
            continue
        if e.type not in CHANCE_TYPES:
            continue
        if d.get("stated"):
            if created.get("position") is None or not in_setup or setups != 1 or d.get("counter") is not None:
                return not report.fail(e.version, e.type, "an outcome marked stated outside the setup of a game "
                                                          "from a stated position, or with a counter")
        elif created.get("table"):
            if d.get("counter") is not None:
                return not report.fail(e.version, e.type, "a counter in a table-mode game")
        elif d.get("counter") is None and not d.get("face_down"):
            return not report.fail(e.version, e.type, "an outcome of a seeded game without a counter (only a "
                                                      "stated position's are)")
    return True


def check_seat_signatures(envs: list[Envelope], report: AuditReport) -> bool:
    """Seats' own signatures (spec/SPEC.md §6a): from a seat's ``SeatKeyRegistered`` on (the
    first of that seat's, in log order, retracted ones included; a second only with its old key's
    handover), each
    ``Decided`` of that seat carries its signature over the game id, the seat, the seat's own
    version before the ``Decided`` (how many events it may read, retracted ones included) and
    the decision it signed. A failure names the step: "not signed by seat N". Then the referee's
    signatures at a table (``check_referee``)."""
    keys: dict[int, bytes] = {}
    counts: dict[int, int] = {}
    gid = UUID(report.game_id).bytes
    created = envs[0].data
    for e in envs:
        d = e.data
        if e.type == "SeatKeyRegistered":
            seat = d.get("seat")
            try:
                new = bytes.fromhex(d["key"])
            except (KeyError, TypeError, ValueError):
                return not report.fail(e.version, e.type, f"seat {seat}'s key is not hex")
            if seat in keys:  # a new device: only with the old key's handover
                if not handed_over(keys[seat], new, d.get("handover"), signing_game(created, gid, e.version), seat):
                    return not report.fail(e.version, e.type, f"a second key for seat {seat} without a handover "
                                                              "signed by its old key")
            else:  # the seat's count before its key: how many events it may read up to there
                counts[seat] = sum(1 for x in envs[:e.version - 1] if x.vis == "all" or (isinstance(x.vis, list)
                                                                                           and seat in x.vis))
            keys[seat] = new
        elif e.type == "Decided" and d.get("seat") in keys:
            seat = d["seat"]
            where = f"not signed by seat {seat}: the decision at version {e.version}"
            sig = d.get("signature")
            if not isinstance(sig, str):
                return not report.fail(e.version, e.type, where + " carries no signature by the key the seat "
                                                                  "registered")
            try:
                decision = signed_decision(d)
                signed_for = signing_game(created, gid, e.version)
                ok = verify(keys[seat], bytes.fromhex(sig), decision_message(signed_for, seat, counts[seat],
                                                                             decision))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                return not report.fail(e.version, e.type, where + f" (its seat version {counts[seat]}): its "
                                                                  "signature does not check with the key the seat "
                                                                  "registered")
        for seat in keys if keys else ():  # what each seat with a key may read up to here
            if e.vis == "all" or (isinstance(e.vis, list) and seat in e.vis):
                counts[seat] += 1
    return check_referee(envs, report)


def check_referee(envs: list[Envelope], report: AuditReport) -> bool:
    """The referee's signatures at a table (spec/SPEC.md §9a; service/referee_key.py): "not signed by the referee"."""
    found = referee_problem(envs, UUID(report.game_id).bytes)
    return found is None or not report.fail(*found)


def check_randomness(envs: list[Envelope], secret: bytes | None, parents: list | None,
                     report: AuditReport) -> bool:
    """The seed against the commitment, then every chance outcome re-derived from
    it (a fork's inherited ones from its ancestors' seeds, ``parents``): what the
    audit, ``tools import`` and ``tools verify`` check of a game's chance."""
    seed = check_seed(envs, secret, report)
    if not report.ok:
        return False
    fork = envs[0].data.get("fork")
    if fork:
        report.notes.append(f"forked from {fork['parent']} at version {fork['version']}")
        if any(a is None for _, a in parents or [(0, None)]) and not envs[0].data["table"]:
            report.notes.append("an ancestor's seed is not available: its chance checked for gaps only")
    return check_chance(envs, seed, parents, report)


def file_parents(doc: dict) -> list | None:
    """An export's ``parents`` as ``check_chance`` takes them."""
    if not doc.get("parents"):
        return None
    return [[int(v), bytes(seed) if seed is not None else None] for v, seed in doc["parents"]]


def _name_rules_version(created: dict, report: AuditReport) -> None:
    """A game recorded under other rules than this build's: say so; when the
    re-run disagrees, that is the likely reason and the report names it."""
    try:
        current = get_rules(created["game"]).rules_version
    except PrivateerError:
        return
    recorded = str(created.get("rules_version", "1"))
    if recorded == current:
        return
    if report.ok:
        report.notes.append(f"recorded under rules version {recorded}; re-run with this build's version "
                            f"{current}, which agrees")
    elif report.first_bad is not None:
        report.first_bad["reason"] = (f"recorded under rules version {recorded}, this build has version {current}; "
                                      f"audit it with a build of version {recorded}: "
                                      + report.first_bad["reason"])[:500]


# the store's side: what the audit needs, gathered ------------------------------
def audit_game(app, game_id: UUID) -> AuditReport:
    """Audit a stored game (its events, the store's head and secrets)."""
    stored = app.recorder.select_events(game_id)
    rows = app.recorder.select_games(prefix=game_id.hex)
    head = {"version": rows[0]["version"], "head": bytes(rows[0]["head"]).hex()} if rows else None
    secret = app.recorder.select_secret(game_id.hex)
    try:
        first = app.mapper.to_domain_event(stored[0]) if stored else None
    except Exception:  # undecodable: audit_events reports it
        log.debug("the first event cannot be decoded", exc_info=True, extra={"game_id": game_id.hex})
        first = None
    parents = ancestry(app, first.data) if first is not None and isinstance(first.data, dict) else None
    report = audit_events(game_id, stored, app.mapper, head, secret, parents)
    if report.ok:
        _audit_kept_end(app, game_id, report)
    return report


def _audit_kept_end(app, game_id: UUID, report: AuditReport) -> None:
    """An imported finished game's signed end, kept from its file (spec/SPEC.md §4a), still binds
    its last head, its seed and the parents it was signed over. (The store's own games' ends are
    signed when they are written out: nothing kept to check.)"""
    kept = kept_end(app, game_id)
    if kept is None:
        return
    end, parents = kept
    events = app.stored_events(game_id)
    rows = [{"version": e.originator_version, "type": e.type, "hash": e.hash} for e in events]
    problem = check_end(game_id, rows, app.recorder.select_secret(game_id.hex), parents, end,
                        app.signer.public_keys({end[2]}), None)
    if problem is not None:
        report.fail(rows[-1]["version"], rows[-1]["type"], problem["reason"])
    else:
        report.notes.append(f"its signed end (version {end[0]}, kept from the imported file) checks")


def ancestry(app, created: dict, revealed_only: bool = False) -> list | None:
    """A fork's ancestors' seeds, as the chance it inherited was drawn: ``[[version,
    seed or None], ...]``, oldest first; the events up to each version were drawn
    with that ancestor's seed (a fork of a fork inherits its grandparent's draws
    through its parent). ``revealed_only``: only seeds an ancestor has revealed
    (finished); else also those this store holds. None for a game that is no fork."""
    out: list[list] = []
    fork = created.get("fork")
    while isinstance(fork, dict) and fork.get("parent"):
        try:
            parent = UUID(str(fork["parent"]))
        except ValueError:
            break
        seed = revealed_seed_of(app, parent)
        if seed is None and not revealed_only:
            seed = app.recorder.select_secret(parent.hex)
        out.insert(0, [fork["version"], seed])
        first = next(iter(app.events.get(parent, lte=1)), None)
        fork = first.data.get("fork") if first is not None else None
    return out or None


def revealed_seed_of(app, game: UUID) -> bytes | None:
    for e in app.events.get(game, desc=True, limit=1):
        if e.type == "GameFinished" and e.data.get("seed"):
            seed = e.data["seed"]
            return bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
    return None
