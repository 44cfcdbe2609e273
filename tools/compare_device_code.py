#!/usr/bin/env python3
"""Whether two builds hold the same GPU code: for every object file of BUILD_A's CUDA backend, the
SASS and PTX of each function against those of the same object in BUILD_B, the proof that a
restructuring (moved headers, renamed types) left every kernel as it was.

    tools/compare_device_code.py BUILD_A BUILD_B [--objects-under DIR] [--cuobjdump PATH]

Objects are the *.o files under DIR in each build (default backends/cuda/CMakeFiles), matched by their
path. Functions are compared as a set, whatever their order in the object. Names are compared with
the numbers nvcc derives from a translation unit's path and text (anonymous namespaces, internal
linkage, temporary files) blanked out, so that builds from two checkouts compare. Prints a line an
object; exit status 0 when every object's functions are the same, 1 otherwise (naming the first
functions that differ), 2 on a usage error.
"""

import argparse
import collections
import pathlib
import re
import subprocess
import sys

# nvcc's per-translation-unit names: _GLOBAL__N__<hash>_<n>_<file>_cu_<hash>_<number> (anonymous
# namespaces), _INTERNAL_<hash>_... (internal linkage), tmpxft_<id>_<id> (temporary files); in a
# mangled name each comes after its length, which the number's digits change.
UNIT_NAMES = [
    (re.compile(r"\d*_(GLOBAL__N__|INTERNAL_)[0-9a-f]{8}_(\d+_[A-Za-z0-9_]+?_cu)_[0-9a-f]{8}_\d+"),
     lambda m: f"N_{m.group(1)}x_{m.group(2)}_x_"),
    (re.compile(r"\d*_GLOBAL__N__[0-9a-f]{8}"), lambda m: "N_GLOBAL__N__x"),
    (re.compile(r"tmpxft_[0-9a-f]{8}_[0-9a-f]{8}"), lambda m: "tmpxft_x"),
]
# Where cuobjdump starts a function's SASS or an embedded PTX or ELF image.
BLOCK_START = re.compile(r"\n(?=\s*(?:Function : |Fatbin (?:elf|ptx) code:))")


def normalised(text):
    for pattern, replacement in UNIT_NAMES:
        text = pattern.sub(replacement, text)
    return text


def functions(cuobjdump, obj):
    """The object's device code as a multiset of blocks (a function's SASS, a PTX image)."""
    listing = subprocess.run([cuobjdump, "-sass", "-ptx", str(obj)], capture_output=True, text=True,
                             errors="replace")
    if listing.returncode != 0 and "does not contain device code" not in listing.stderr:
        raise RuntimeError(f"{cuobjdump} failed on {obj}: {listing.stderr.strip()}")
    return collections.Counter(b for b in BLOCK_START.split(normalised(listing.stdout)) if b.strip())


def block_name(block):
    found = re.search(r"Function : (\S+)", block)
    return found.group(1) if found else block.strip().splitlines()[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_a", type=pathlib.Path)
    parser.add_argument("build_b", type=pathlib.Path)
    parser.add_argument("--objects-under", default="backends/cuda/CMakeFiles")
    parser.add_argument("--cuobjdump", default="cuobjdump")
    args = parser.parse_args(argv)

    objects_a = sorted((args.build_a / args.objects_under).rglob("*.o"))
    if not objects_a:
        parser.error(f"no object files under {args.build_a / args.objects_under}")
    differing = 0
    for obj_a in objects_a:
        relative = obj_a.relative_to(args.build_a)
        obj_b = args.build_b / relative
        if not obj_b.is_file():
            print(f"{relative}: missing from {args.build_b}")
            differing += 1
            continue
        a, b = functions(args.cuobjdump, obj_a), functions(args.cuobjdump, obj_b)
        if a == b:
            print(f"{relative}: same ({sum(a.values())} blocks)")
            continue
        differing += 1
        only_a = sorted(block_name(x) for x in (a - b))
        only_b = sorted(block_name(x) for x in (b - a))
        print(f"{relative}: DIFFERENT: {len(only_a)} blocks only in A (first: "
              f"{', '.join(only_a[:3])}), {len(only_b)} only in B (first: {', '.join(only_b[:3])})")
    print(f"compare_device_code: {len(objects_a) - differing} of {len(objects_a)} objects hold the same "
          f"device code", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
