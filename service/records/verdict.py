"""What ``tools verify`` says of a file: ok, or the first failure (event or step, and why)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Verdict:
    file: str
    kind: str                       # "export" or "record"
    ok: bool = True
    first_bad: dict | None = None   # {"version", "step": [first, last], "reason"}
    checked: list[str] = field(default_factory=list)
    published: bool = False         # its signatures were checked against keys the verifier was given

    def fail(self, where: dict) -> "Verdict":
        if self.ok:
            self.ok, self.first_bad = False, where
        return self

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "ok": self.ok, "first_bad": self.first_bad,
                "checked": self.checked, "published_key": self.published}
