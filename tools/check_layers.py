#!/usr/bin/env python3
"""The CUDA backend's layers depend one way (docs/design.md, "Layout"): instantiate/ on everything,
transposed/ on plan/ and below, plan/ on formats/ and below, formats/ on kernels/ and device/,
kernels/ on device/ only, device/ on nothing of the backend. Fails, naming the file and line, on an
include of the backend's own headers that goes the other way.

    tools/check_layers.py [BACKEND_SRC]   (default: backends/cuda/src beside this script)
"""

import pathlib
import re
import sys

# The backend folders each layer may include, besides its own.
ALLOWED = {
    "device": set(),
    "kernels": {"device"},
    "formats": {"kernels", "device"},
    "plan": {"formats", "kernels", "device"},
    "transposed": {"plan", "formats", "kernels", "device"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def violations(src):
    found = []
    for layer, allowed in ALLOWED.items():
        for path in sorted((src / layer).rglob("*")):
            if not path.is_file():
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                folder = match.group(1)
                if folder != layer and folder not in allowed and (src / folder).is_dir():
                    found.append(f"{path.relative_to(src)}:{number}: {layer}/ includes {folder}/ "
                                 f"({line.strip()}); {layer}/ may include only "
                                 f"{', '.join(sorted(allowed | {layer}))}/")
    return found


def main(argv):
    default = pathlib.Path(__file__).resolve().parent.parent / "backends" / "cuda" / "src"
    src = pathlib.Path(argv[1]) if len(argv) > 1 else default
    if not all((src / layer).is_dir() for layer in ALLOWED):
        print(f"check_layers: {src} lacks one of {', '.join(ALLOWED)}/", file=sys.stderr)
        return 2
    found = violations(src)
    for violation in found:
        print(f"check_layers: {violation}", file=sys.stderr)
    if not found:
        print(f"check_layers: {src}: every include goes down the layers")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
