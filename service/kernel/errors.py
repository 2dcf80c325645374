"""Typed errors shared by every game, each with a CLI exit code and an HTTP status.

Every error carries a one-line human reason. Raising any of these before an
append guarantees that nothing is appended.
"""


class PrivateerError(Exception):
    exit_code = 2
    http_status = 400
    kind = "error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadInput(PrivateerError):
    """Malformed input: bad JSON, bad option, wrong shape of a decision."""

    exit_code = 2
    http_status = 400
    kind = "bad_input"


class IllegalDecision(PrivateerError):
    """The rules refuse the decision (the reason quotes the rule)."""

    exit_code = 3
    http_status = 422
    kind = "illegal"


class NotYourTurn(IllegalDecision):
    """The seat may not act now."""

    kind = "not_your_turn"


class StaleVersion(PrivateerError):
    exit_code = 4
    http_status = 409
    kind = "stale_version"


class UnknownGame(PrivateerError):
    exit_code = 5
    http_status = 404
    kind = "unknown_game"


class DamagedHistory(PrivateerError):
    """A game's stored rows do not read back as they were written (a row's
    bytes turned into text, say): its history does not verify."""

    exit_code = 1  # as the audit's finding of a history that does not verify
    http_status = 500
    kind = "damaged_history"


class DoesNotVerify(PrivateerError):
    """A history or a file that fails its audit or its signatures: the audit's
    finding (exit code 1), not malformed input."""

    exit_code = 1
    http_status = 422
    kind = "does_not_verify"


class ChanceRejected(BadInput):
    """A chance outcome entered at the table does not fit what is awaited."""

    kind = "bad_chance"


class NoChanceAwaited(IllegalDecision):
    kind = "no_chance_awaited"


class NeedChance(Exception):
    """Raised inside a step in table mode when the next chance outcome has not
    been entered yet. Not an error: the step pauses there."""

    def __init__(self, spec: dict) -> None:
        super().__init__(spec.get("why", "chance"))
        self.spec = spec
