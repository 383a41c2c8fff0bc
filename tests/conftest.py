"""Shared test setup."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _search_same_without_the_rival_chance(request: Any, monkeypatch: Any) -> Iterator[None]:
    """``tests/test_search_same.py`` checks the search's code path that the speed pass
    (branch ``fast17``) changed against values recorded before it, and stays untouched: its
    heads-up Knock Rummy positions run with ``search.KR_RIVAL_CHANCE`` off (the eighteenth
    Gin/Knock Rummy pass's playout rival, kept, changes those values by design;
    ``tests/test_rival_chance.py`` checks that the switch off is that path, sample for
    sample, and what the switch on does)."""
    if request.module.__name__.rsplit(".", 1)[-1] == "test_search_same":
        from deadwood_knock.bots import search

        monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 0)
    yield
