#!/usr/bin/env python3
"""A stand-in for `cuobjdump -sass -ptx OBJECT` in tools/test_compare_device_code.py: the test's
objects are text files holding the listing itself, which it prints; an object whose text is
NO_DEVICE_CODE is refused as cuobjdump refuses a host-only object."""

import pathlib
import sys

text = pathlib.Path(sys.argv[-1]).read_text()
if text.strip() == "NO_DEVICE_CODE":
    print(f"cuobjdump info    : File '{sys.argv[-1]}' does not contain device code", file=sys.stderr)
    sys.exit(255)
sys.stdout.write(text)
