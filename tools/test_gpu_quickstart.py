#!/usr/bin/env python3
"""README.md's GPU commands are tools/gpu_quickstart.sh's, line for line: the script is what runs
on a GPU machine to check them, so the two must not drift apart."""

import pathlib
import re
import unittest

REPO = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "gpu_quickstart.sh"
README = REPO / "README.md"


def script_commands():
    text = SCRIPT.read_text()
    found = re.search(r"# gpu-quickstart:begin\n(.*?)# gpu-quickstart:end\n", text, re.S)
    if not found:
        raise AssertionError(f"{SCRIPT.name} lacks its gpu-quickstart:begin/end markers")
    return found.group(1).strip().splitlines()


def readme_commands():
    """The fenced block after the README's marker, less the lines that set the three prefixes."""
    text = README.read_text()
    found = re.search(r"<!-- commands of tools/gpu_quickstart\.sh -->\n```sh\n(.*?)```", text, re.S)
    if not found:
        raise AssertionError("README.md lacks the block after <!-- commands of tools/gpu_quickstart.sh -->")
    lines = found.group(1).strip().splitlines()
    return [line for line in lines if not re.match(r"^(KOKKOS_PREFIX|KOKKOSKERNELS_PREFIX|KSPMV_PREFIX)=", line)]


class GpuQuickstartInReadme(unittest.TestCase):
    def test_readme_lists_the_scripts_commands(self):
        self.assertEqual(readme_commands(), script_commands())

    def test_readme_sets_the_prefixes_the_commands_use(self):
        text = README.read_text()
        block = re.search(r"<!-- commands of tools/gpu_quickstart\.sh -->\n```sh\n(.*?)```", text, re.S)
        set_first = [line.split("=", 1)[0] for line in block.group(1).splitlines() if "=" in line.split()[0]]
        self.assertEqual(set_first[:3], ["KOKKOS_PREFIX", "KOKKOSKERNELS_PREFIX", "KSPMV_PREFIX"])

if __name__ == "__main__":
    unittest.main()
