"""Which set a matrix of a run belongs to, so that every report shows Auto's gain on matrices its
rules were never tuned on beside the gain on those they were:

- generated: the driver's families and shapes (testing/matrices);
- real: the real matrices listed in matrices/suitesparse.json, the set Auto's rules were set on;
- held out: every other real matrix (a file given with --matrices that is not in that list).
"""

import json
import os
import re

GENERATED = re.compile(r"^(stencil27|uniform|powerlaw|shortrows|fewdense|tallskinny|shape)_")
TUNING_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matrices",
                           "suitesparse.json")
SETS = ("generated", "real", "held out")


def _tuning_names():
    with open(TUNING_LIST, encoding="utf-8") as f:
        return frozenset(m["name"] for m in json.load(f)["matrices"])


TUNING_NAMES = _tuning_names()


def matrix_set(matrix):
    """'generated', 'real' (tuned on) or 'held out' (never tuned on)."""
    if GENERATED.match(matrix):
        return "generated"
    return "real" if matrix in TUNING_NAMES else "held out"
