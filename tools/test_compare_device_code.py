#!/usr/bin/env python3
"""tools/compare_device_code.py under a stand-in cuobjdump: two builds whose functions differ only in
their order and in nvcc's per-translation-unit names (and the lengths that mangle them) are the same;
a changed instruction, a function more or an object missing is not; host-only objects pass."""

import pathlib
import subprocess
import sys
import tempfile
import unittest

TOOLS = pathlib.Path(__file__).resolve().parent
SCRIPT = TOOLS / "compare_device_code.py"
FAKE = TOOLS / "fake_cuobjdump.py"

HEADER = "\nFatbin elf code:\n================\narch = sm_90\n"
SPMV = ("\n\tFunction : _ZN5kspmv4cuda6detail{length}_GLOBAL__N__{h}_23_transposed_structure_cu_6b80acba_{n}"
        "6kernelEv\n\t/*0000*/ LDC R1, c[0x0][0x28] ;\n\t/*0010*/ EXIT ;\n")
SCALE = "\n\tFunction : _ZN5kspmv4cuda6detail12scale_kernelEv\n\t/*0000*/ FMUL R2, R2, R3 ;\n\t/*0010*/ EXIT ;\n"
PTX = "\nFatbin ptx code:\n================\n.visible .entry tmpxft_{t}_00000000_scale();\n"


def listing(h="e0456e80", n="7465", t="00001fc3", order=("spmv", "scale"), scale=SCALE, extra=""):
    parts = {"spmv": SPMV.format(h=h, n=n, length=57 + len(n)), "scale": scale}
    return HEADER + "".join(parts[p] for p in order) + extra + PTX.format(t=t)


class CompareDeviceCode(unittest.TestCase):
    def compare(self, a_objects, b_objects):
        with tempfile.TemporaryDirectory() as temporary:
            root = pathlib.Path(temporary)
            for build, objects in (("a", a_objects), ("b", b_objects)):
                for name, text in objects.items():
                    path = root / build / "backends/cuda/CMakeFiles/kspmv_cuda.dir" / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text)
            return subprocess.run([sys.executable, SCRIPT, root / "a", root / "b", "--cuobjdump", str(FAKE)],
                                  capture_output=True, text=True)

    def test_order_and_unit_names_do_not_count(self):
        a = {"raw_api_double.cu.o": listing(), "choice.cpp.o": "NO_DEVICE_CODE"}
        b = {"raw_api_double.cu.o": listing(h="40e57a5e", n="89361", t="000022de", order=("scale", "spmv")),
             "choice.cpp.o": "NO_DEVICE_CODE"}
        result = self.compare(a, b)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("raw_api_double.cu.o: same", result.stdout)
        self.assertIn("2 of 2 objects hold the same device code", result.stderr)

    def test_a_changed_instruction_differs_and_is_named(self):
        changed = SCALE.replace("FMUL R2, R2, R3", "FADD R2, R2, R3")
        result = self.compare({"raw_api_double.cu.o": listing()}, {"raw_api_double.cu.o": listing(scale=changed)})
        self.assertEqual(result.returncode, 1)
        self.assertIn("DIFFERENT: 1 blocks only in A (first: _ZN5kspmv4cuda6detail12scale_kernelEv)", result.stdout)

    def test_a_function_more_or_an_object_missing_differs(self):
        more = listing(extra=SCALE.replace("scale_kernel", "other_kernel"))
        result = self.compare({"x.cu.o": listing()}, {"x.cu.o": more})
        self.assertEqual(result.returncode, 1)
        self.assertIn("0 blocks only in A (first: ), 1 only in B (first: _ZN5kspmv4cuda6detail12other_kernelEv)",
                      result.stdout)
        result = self.compare({"x.cu.o": listing(), "y.cu.o": listing()}, {"x.cu.o": listing()})
        self.assertEqual(result.returncode, 1)
        self.assertIn("y.cu.o: missing", result.stdout)


if __name__ == "__main__":
    unittest.main()
