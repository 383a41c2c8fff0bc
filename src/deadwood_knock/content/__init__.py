"""The trail's content: towns, venues, historic figures, posters, art and gazette text.

Call :func:`load_content` for the validated, cross-referenced bundle. The loader is
imported lazily so ``python -m deadwood_knock.content.schema`` runs the schema module
cleanly as a script.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deadwood_knock.content.loader import Content, ContentError, load_content, read_content

__all__ = ["Content", "ContentError", "load_content", "read_content"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from deadwood_knock.content import loader

        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
