"""The judges' figures live in :mod:`sumeval.plots.judges` (drawn in the house style with the others);
this name stays for the notebooks and modules that import it."""
from sumeval.plots.judges import *  # noqa: F401,F403
from sumeval.plots.judges import __all__  # noqa: F401
