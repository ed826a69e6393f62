"""The order pytest-xdist hands the tests out in (``tests/scheduling.py``)."""

from __future__ import annotations

import pytest


def test_every_test_marked_slow_is_collected_before_every_other(request):
    # the session's own collection: in the whole suite, slow tests and the others
    flags = [item.get_closest_marker("slow") is not None for item in request.session.items]
    assert flags == sorted(flags, reverse=True)


@pytest.mark.parametrize("slow", [True, False])
def test_slow_first_keeps_collection_order_within_each_part(slow):
    from scheduling import slow_first

    class Item:
        def __init__(self, name, marked):
            self.name, self.marked = name, marked

        def get_closest_marker(self, name):
            return object() if name == "slow" and self.marked else None

    items = [Item("a", False), Item("b", slow), Item("c", False), Item("d", True)]
    slow_first(items)
    expected = ["b", "d", "a", "c"] if slow else ["d", "a", "b", "c"]
    assert [item.name for item in items] == expected
