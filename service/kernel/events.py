"""The kernel's event object (``Ev``) and the form an emitted event takes once folded (``_FoldedEv``).

Kept apart from service/kernel/machine.py, which emits and folds them: the folded form
reaches its ``data`` slot through the slot's descriptor and turns itself back into a
plain ``Ev`` by assigning ``__class__``, which a module compiled with mypyc cannot do
(docs/mypyc-probe.md); machine.py can be compiled, this module stays plain Python."""

from __future__ import annotations

import msgpack

# mypy takes a name ``TYPE_CHECKING`` as true; at run time ``typing`` is not imported (a quick
# `tools` call does without it: tests/store/test_direct_reads.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal, TypeAlias

    # who may read an event: everyone, the referee alone, or these seats (and the referee)
    Vis: TypeAlias = Literal["all", "referee"] | list[int]

_pack = msgpack.Packer(use_bin_type=True).pack
_unpack_kw = {"raw": False, "strict_map_key": False}


def may_read(vis: Vis, seat: int | None) -> bool:
    """Whether ``seat`` may read an event shown to ``vis``: the referee (None) reads every event,
    the public (0) the public ones, a seat the public ones and those shown to it."""
    return seat is None or vis == "all" or (vis != "referee" and seat in vis)


def count_readers(seen: list[int], vis: Vis, by: int = 1) -> None:
    """Count one event (``by``: -1 takes it back) for whoever may read it (``may_read``), in a
    game's readers' counts ``seen``: ``seen[0]`` the public's, ``seen[i]`` the events seat ``i``
    may read besides the public ones. The referee, who reads them all, has no count."""
    if vis == "all":
        seen[0] += by
    elif vis != "referee":
        for i in vis:
            seen[i] += by


class _EvSlots:
    __slots__ = ("type", "turn", "vis", "data", "packed")
    type: str
    turn: int
    vis: Vis
    data: dict
    packed: bytes | None


class Ev(_EvSlots):
    """One event of a game, as the rules see it.

    ``freeze()`` keeps the data's bytes as they are at that moment; the kernel
    freezes every event as it is emitted, and what is recorded and compared is
    that frozen copy (``frozen()``), so a rule that later changes a list it
    shared with an event's data cannot change the event. While the rules fold
    an emitted event its ``data`` is a plain attribute; once folded, the event
    becomes a ``_FoldedEv``, whose ``data`` is read back from the frozen bytes."""

    __slots__ = ()

    def __init__(self, type: str, turn: int, vis: Vis, data: dict) -> None:
        self.type = type
        self.turn = turn
        self.vis = vis
        self.data = data
        self.packed = None

    def freeze(self) -> "Ev":
        self.packed = _pack(self.data)
        return self

    def frozen(self) -> dict:
        if self.packed is None:
            return self.data
        return msgpack.unpackb(self.packed, **_unpack_kw)

    def visible_to(self, seat: int | None) -> bool:
        """``may_read``: seat None is the referee, who sees everything."""
        return may_read(self.vis, seat)

    def as_tuple(self) -> tuple[str, int, Vis, dict]:
        return (self.type, self.turn, self.vis, self.frozen())

    def live(self, data: dict) -> "Ev":
        """The event as a game's own ``evolve`` takes it while it is emitted: its data the
        very ``data`` emitted (``rules._Through``)."""
        return self

    def __reduce__(self) -> tuple[Callable[..., Ev], tuple[Any, ...]]:  # copied or pickled: a plain event with the data it was emitted with
        return (_rebuilt, (self.type, self.turn, self.vis, self.frozen(), self.packed))

    def __repr__(self) -> str:
        return f"Ev({self.type}, turn={self.turn}, vis={self.vis}, {self.data})"


_DATA_SLOT = _EvSlots.__dict__["data"]


def _rebuilt(type: str, turn: int, vis: Vis, data: dict, packed: bytes | None) -> Ev:
    ev = Ev(type, turn, vis, data)
    ev.packed = packed
    return ev


class _FoldedEv(Ev):
    """An emitted event (``Step.emit`` makes it so): the state may keep (and later
    change) what it was given, so the event's data is its frozen copy, unpacked
    the first time it is read (the event is then a plain ``Ev``)."""

    __slots__ = ()

    @property
    def data(self) -> dict:
        value = msgpack.unpackb(self.packed, **_unpack_kw)
        _DATA_SLOT.__set__(self, value)
        self.__class__ = Ev  # type: ignore[assignment]
        return value

    @data.setter
    def data(self, value: dict) -> None:
        _DATA_SLOT.__set__(self, value)
        self.__class__ = Ev  # type: ignore[assignment]

    def live(self, data: dict) -> Ev:
        return Ev(self.type, self.turn, self.vis, data)  # (its own ``data`` is the frozen copy)
