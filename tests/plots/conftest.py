"""Fixtures of the figure and table tests (tests/plots/)."""
from __future__ import annotations

import pytest


@pytest.fixture
def close_figures():
    """Close every matplotlib figure after the test (a file opts in with
    ``pytest.mark.usefixtures("close_figures")``)."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
