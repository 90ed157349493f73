"""Berthier: Python client for the berthierd referee, and an independent
verifier of its game logs.

    from berthier.client import Client
    from berthier.verify import verify_file

The generated protocol modules (berthier.v1.berthier_pb2, and one module per
ruleset such as duel.v1.duel_pb2) are made by the build (`make build` or
cmake) into <build>/python. They are found when <build>/python is on
PYTHONPATH, in berthier/_generated when the package was installed with pip
(pyproject.toml), or, when the package is run from the source tree, in the
source tree's build/python (see clients/python/README.md). BERTHIER_PYTHON_GEN
may name that directory explicitly. The verifier needs none of them.
"""

import os
import sys
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

__version__ = "0.1.0"


def _generated_dirs():
    env = os.environ.get("BERTHIER_PYTHON_GEN")
    if env:
        yield env
    # an installed package (pip install clients/python) carries its own
    yield os.path.join(os.path.dirname(os.path.abspath(__file__)), "_generated")
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    yield os.path.join(src, "build", "python")


def _find_generated():
    """Add the generated modules' directory to the package path (and sys.path,
    for ruleset packages such as duel.v1) when it is not already reachable."""
    for d in _generated_dirs():
        sub = os.path.join(d, "berthier")
        if os.path.isdir(sub):
            if sub not in __path__:
                __path__.append(sub)
            if d not in sys.path:
                sys.path.append(d)
            return


_find_generated()
