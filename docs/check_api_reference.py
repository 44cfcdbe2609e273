#!/usr/bin/env python3
"""Fails when kspmv's API reference is incomplete (ctest: kspmv_api_reference_complete).

Runs doxygen on a configuration that turns on every warning about missing or wrong documentation
and makes doxygen's exit status non-zero after any (WARN_AS_ERROR = FAIL_ON_WARNINGS); doxygen
prints the warnings itself. Doxygen before 1.9.5 does not warn about an undocumented enumerator
(WARN_IF_UNDOC_ENUM_VAL came later), so this script also reads the XML output that configuration
writes and names every public enumerator without documentation, at its enumeration's line.

usage (from the source root, where docs/Doxyfile's paths start):
    check_api_reference.py DOXYGEN DOXYFILE XML_DIR
Exit status: 0 when doxygen warned about nothing and every enumerator is documented, else 1.
"""

import glob
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree


def has_text(element):
    return element is not None and "".join(element.itertext()).strip() != ""


def undocumented_enumerators(xml_dir):
    """'file:line: warning: ...' for each public enumerator with neither a brief nor a detailed
    description, once each (an enumeration appears in its namespace's and its file's XML)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(xml_dir, "*.xml"))):
        root = ElementTree.parse(path).getroot()
        for enum in root.iter("memberdef"):
            if enum.get("kind") != "enum" or enum.get("prot") != "public":
                continue
            location = enum.find("location")
            where = "{}:{}".format(location.get("file"), location.get("line"))
            scope = enum.findtext("qualifiedname") or enum.findtext("name")
            for value in enum.findall("enumvalue"):
                if value.get("prot") != "public" or value.get("id") in found:
                    continue
                if has_text(value.find("briefdescription")) or has_text(
                        value.find("detaileddescription")):
                    continue
                found[value.get("id")] = "{}: warning: enumerator {}::{} is not documented.".format(
                    where, scope, value.findtext("name"))
    return sorted(found.values())


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    doxygen, doxyfile, xml_dir = argv[1:]
    # A stale file of a removed entity would otherwise still be read.
    shutil.rmtree(xml_dir, ignore_errors=True)
    sys.stdout.flush()
    status = subprocess.call([doxygen, doxyfile])
    if status != 0:
        print("check_api_reference: doxygen exited with {} (the warnings above)".format(status))
    missing = undocumented_enumerators(xml_dir) if os.path.isdir(xml_dir) else []
    for line in missing:
        print(line)
    if status != 0 or missing:
        print("check_api_reference: the API reference is incomplete: document each entity named "
              "above (docs/Doxyfile lists the headers it reads)")
        return 1
    print("check_api_reference: every public entity is documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
