#!/usr/bin/env python3
"""tools/check_layers.py: the backend as it is passes; an include that goes up a layer, planted in a
copy, fails naming its file and line; an include of the backend's own layer or of a public header
passes."""

import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

TOOLS = pathlib.Path(__file__).resolve().parent
SCRIPT = TOOLS / "check_layers.py"
SRC = TOOLS.parent / "backends" / "cuda" / "src"


def check(src):
    return subprocess.run([sys.executable, SCRIPT, src], capture_output=True, text=True)


class CheckLayers(unittest.TestCase):
    def test_the_backend_as_it_is(self):
        result = check(SRC)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_an_include_up_a_layer_fails(self):
        for layer, header in (("kernels", "plan/tuning.hpp"), ("formats", "plan/choice.hpp"),
                              ("device", "kernels/spmv_arguments.cuh"),
                              ("plan", "transposed/choice.hpp"),
                              ("transposed", "instantiate/plan_impl.cuh")):
            with self.subTest(layer=layer), tempfile.TemporaryDirectory() as temporary:
                copy = pathlib.Path(temporary) / "src"
                shutil.copytree(SRC, copy)
                planted = copy / layer / "planted.cuh"
                planted.write_text(f'#pragma once\n#include "{layer}/other.cuh"\n#include "kspmv/mode.hpp"\n'
                                   f'#include "{header}"\n')
                result = check(copy)
                self.assertEqual(result.returncode, 1)
                self.assertIn(f"{layer}/planted.cuh:4: {layer}/ includes {header.split('/')[0]}/",
                              result.stderr)
                self.assertNotIn("planted.cuh:2", result.stderr)
                self.assertNotIn("planted.cuh:3", result.stderr)


if __name__ == "__main__":
    unittest.main()
