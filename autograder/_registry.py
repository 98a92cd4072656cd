"""A registry of named things (print formats, board families): what an assignment names in
its configuration is looked up here. Standard library only: a student bundle carries it."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

__all__ = ["Registry"]


class Named(Protocol):
    name: str


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    """Things of one kind (``what``: "output format", "board family") by their ``name``."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[str, T] = {}

    def register(self, item: T) -> T:
        """Make ``item`` known under ``item.name``; a second, different one is refused."""
        if self._items.get(item.name, item) is not item:
            raise ValueError(f"the {self.what} {item.name!r} is registered already")
        self._items[item.name] = item
        return item

    def get(self, name: str) -> T:
        """The one registered as ``name``; ``ValueError`` naming the known ones otherwise."""
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items))
            raise ValueError(f"unknown {self.what} {name!r} (known: {known})") from None

    def names(self) -> list[str]:
        return sorted(self._items)
