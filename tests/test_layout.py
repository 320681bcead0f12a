"""sim.kit.layout: named buffer regions never overlap and cover the buffer exactly."""

import numpy as np
import pytest

from sim.kit.layout import Layout


def test_fields_are_contiguous_and_named():
    L = Layout("demo")
    a = L.scalar("a")
    b, c = L.scalars("b", "c")
    h = L.block("hand", 12, "cards per type")
    assert (a, b, c, h) == (0, 1, 2, 3)
    assert L.size == 15
    assert L["hand"].stop == 15
    buf = np.arange(L.size)
    assert list(L.view(buf, "hand")) == list(range(3, 15))
    assert "hand" in L.describe()


def test_duplicate_or_negative_fields_are_refused():
    L = Layout("demo")
    L.scalar("a")
    with pytest.raises(ValueError):
        L.scalar("a")
    with pytest.raises(ValueError):
        L.block("b", -1)
