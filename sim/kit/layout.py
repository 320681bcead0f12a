"""Named layouts of the kernels' flat state buffers.

A kernel keeps the state of one game in one flat integer buffer. ``Layout`` declares that
buffer once, field by field, so that no offset is counted by hand: each declaration returns
the field's offset as a plain ``int`` (a compile-time constant for numba when bound to a
module-level name), and the layout knows every field's name, offset and size for the Python
wrapper, the docs and the tests.

    L = Layout("virus-dogs state")
    S_DECK_SIZE = L.scalar("deck_size")
    O_HANDS = L.block("hands", MAX_SEATS * N_TYPES)
    SIZE = L.size            # the buffer length to allocate
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One named region of a buffer: ``size`` slots from ``offset`` on."""

    name: str
    offset: int
    size: int
    doc: str = ""

    @property
    def stop(self) -> int:
        return self.offset + self.size


class Layout:
    """An append-only list of named, non-overlapping buffer regions."""

    def __init__(self, name: str):
        self.name = name
        self.fields: dict[str, Field] = {}
        self.size = 0

    def block(self, name: str, size: int, doc: str = "") -> int:
        """Reserve ``size`` slots under ``name``; return the first slot's offset."""
        if name in self.fields:
            raise ValueError(f"{self.name}: field '{name}' declared twice")
        size = int(size)
        if size < 0:
            raise ValueError(f"{self.name}: field '{name}' has negative size {size}")
        offset = self.size
        self.fields[name] = Field(name, offset, size, doc)
        self.size += size
        return offset

    def scalar(self, name: str, doc: str = "") -> int:
        """One slot under ``name``; return its offset."""
        return self.block(name, 1, doc)

    def scalars(self, *names: str) -> tuple[int, ...]:
        """One slot for each of ``names``, in order; return their offsets."""
        return tuple(self.scalar(n) for n in names)

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def view(self, buffer, name: str):
        """The slice of ``buffer`` that holds field ``name`` (for wrappers and tests)."""
        f = self.fields[name]
        return buffer[f.offset:f.stop]

    def describe(self) -> str:
        """One line per field: offset, size, name and doc."""
        rows = [f"{self.name}: {self.size} slots"]
        rows += [f"  [{f.offset:>5}, {f.stop:>5})  {f.name}  {f.doc}".rstrip() for f in self.fields.values()]
        return "\n".join(rows)
