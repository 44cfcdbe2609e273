#!/usr/bin/env python3
"""Tests of fetch_matrices.py without the internet: a local http.server on 127.0.0.1 serves small
generated matrices laid out as the collection's MM/<group>/<name>.tar.gz. Also checks the
committed list. Run: python3 perf_tests/test_fetch_matrices.py"""

import contextlib
import functools
import gzip
import http.server
import io
import json
import os
import socket
import sys
import tarfile
import tempfile
import threading
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fetch_matrices  # noqa: E402

GENERAL = b"""%%MatrixMarket matrix coordinate real general
% a comment line
3 4 5
1 1 1.5
1 4 -2
2 2 3
3 1 4
3 3 0.25
"""
SYMMETRIC = b"""%%MatrixMarket matrix coordinate pattern symmetric

4 4 3
1 1
3 1
4 2
"""


def entry(name, text, group="Tiny", collection_name=None):
    """A list entry describing `text`, as matrices/suitesparse.json does."""
    size = next(line for line in text.splitlines() if line and not line.startswith(b"%"))
    rows, cols, entries = map(int, size.split())
    return {"name": name, "group": group, "collection_name": collection_name or name, "id": 1,
            "rows": rows, "cols": cols, "nnz": entries, "pattern_entries": entries,
            "file_entries": entries, "field": "real", "symmetry": "general", "kind": "test"}


# The list the tests fetch from: what the server has, one it lacks and one whose size line the
# list gets wrong. `renamed` has another name in the collection, as fidapex6 has (FIDAP/ex6).
SERVED = {"general": GENERAL, "symmetric": SYMMETRIC, "ex6": GENERAL, "wrong_size": GENERAL}
LIST = [entry("general", GENERAL), entry("symmetric", SYMMETRIC, group="Other-Group"),
        entry("renamed", GENERAL, group="FIDAP", collection_name="ex6"),
        {**entry("wrong_size", GENERAL), "rows": 30},
        entry("not_served", GENERAL)]


def archive(collection_name, text):
    """A tar.gz as the collection makes them: <name>/<name>.mtx, here beside a right-hand side."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for member, data in ((f"{collection_name}/{collection_name}_b.mtx", b"%%not this one\n"),
                             (f"{collection_name}/{collection_name}.mtx", text)):
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests = []  # the paths asked for, across the test case

    def log_message(self, *args):
        pass

    def do_GET(self):
        QuietHandler.requests.append(self.path)
        super().do_GET()


class FetchMatricesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = tempfile.TemporaryDirectory()
        by_collection_name = {m["collection_name"]: m for m in LIST}
        for collection_name, text in SERVED.items():
            group = by_collection_name[collection_name]["group"]
            folder = os.path.join(cls.site.name, "MM", group)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{collection_name}.tar.gz"), "wb") as f:
                f.write(archive(collection_name, text))
        cls.list = os.path.join(cls.site.name, "list.json")
        with open(cls.list, "w", encoding="utf-8") as f:
            json.dump({"matrices": LIST}, f)
        # A CI machine's proxy must not stand between the script and the local server.
        cls.no_proxy = mock.patch.dict(os.environ, {"no_proxy": "127.0.0.1",
                                                    "NO_PROXY": "127.0.0.1"})
        cls.no_proxy.start()
        handler = functools.partial(QuietHandler, directory=cls.site.name)
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        cls.base_url = f"http://127.0.0.1:{cls.server.server_address[1]}"
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        cls.no_proxy.stop()
        cls.site.cleanup()

    def setUp(self):
        self.dest = tempfile.TemporaryDirectory()
        self.addCleanup(self.dest.cleanup)
        QuietHandler.requests.clear()

    def fetch(self, only, base_url=None):
        """fetch_matrices.main's exit status and everything it printed."""
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = fetch_matrices.main(["--dest", self.dest.name, "--list", self.list,
                                          "--base-url", base_url or self.base_url,
                                          "--only", only])
        return status, output.getvalue()

    def written(self, name):
        with gzip.open(os.path.join(self.dest.name, f"{name}.mtx.gz")) as f:
            return f.read()

    def test_fetches_then_keeps_what_is_present(self):
        status, output = self.fetch("general,symmetric,renamed")
        self.assertEqual(status, 0, output)
        self.assertEqual(self.written("general"), GENERAL)
        self.assertEqual(self.written("symmetric"), SYMMETRIC)
        self.assertEqual(self.written("renamed"), GENERAL)
        self.assertEqual(sorted(os.listdir(self.dest.name)),
                         ["general.mtx.gz", "renamed.mtx.gz", "symmetric.mtx.gz"])
        self.assertIn("fetch: [3/3] renamed: FIDAP/ex6 (id 1), 3 x 4, 5 nonzeros", output)
        self.assertIn("/MM/FIDAP/ex6.tar.gz", QuietHandler.requests)
        self.assertIn("fetch: all 3 matrices are in", output)

        QuietHandler.requests.clear()
        status, output = self.fetch("general,symmetric,renamed")
        self.assertEqual(status, 0, output)
        self.assertEqual(QuietHandler.requests, [])
        self.assertEqual(output.count(": present ("), 3, output)
        print("fetch: three matrices written as <name>.mtx.gz from MM/<group>/<collection "
              "name>.tar.gz; a second run downloads nothing")

    def test_a_plain_mtx_counts_as_present(self):
        with open(os.path.join(self.dest.name, "general.mtx"), "wb") as f:
            f.write(GENERAL)
        status, output = self.fetch("general")
        self.assertEqual(status, 0, output)
        self.assertEqual(os.listdir(self.dest.name), ["general.mtx"])
        print("fetch: a plain <name>.mtx is kept and no .mtx.gz is written beside it")

    def test_size_line_disagreeing_with_the_list_fails(self):
        status, output = self.fetch("wrong_size,general")
        self.assertEqual(status, 1, output)
        self.assertIn("the size line of wrong_size/wrong_size.mtx reads 3 4 5; the list says "
                      "30 4 5", output)
        self.assertIn("fetch: 1 of 2 matrices are not in", output)
        self.assertEqual(os.listdir(self.dest.name), ["general.mtx.gz"])  # no partial file
        print("fetch: a size line unlike the list's fails that matrix, leaves no file, and the "
              "others are fetched")

    def test_not_found_fails_naming_the_matrix(self):
        status, output = self.fetch("not_served,general")
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"\n  not_served: HTTP 404 .* for http://127\.0\.0\.1:\d+/MM/Tiny/"
                                 r"not_served\.tar\.gz")
        self.assertEqual(os.listdir(self.dest.name), ["general.mtx.gz"])
        print("fetch: a 404 names the matrix and its address, exit status 1")

    def test_unreachable_server_fails_every_matrix_clearly(self):
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        status, output = self.fetch("general,symmetric", base_url=f"http://127.0.0.1:{port}")
        self.assertEqual(status, 1, output)
        self.assertIn(f"general: cannot reach 127.0.0.1:{port}", output)
        self.assertIn(f"symmetric: not tried (cannot reach 127.0.0.1:{port}", output)
        self.assertEqual(os.listdir(self.dest.name), [])
        print("fetch: an unreachable server fails the first matrix and skips the rest, each named")

    def test_unknown_name_is_a_usage_error(self):
        with contextlib.redirect_stderr(io.StringIO()) as output, \
                self.assertRaises(SystemExit) as exit:
            fetch_matrices.main(["--dest", self.dest.name, "--list", self.list,
                                 "--only", "general,nonesuch"])
        self.assertEqual(exit.exception.code, 2)
        self.assertIn("nonesuch", output.getvalue())
        print("fetch: --only with a name not in the list exits 2")


class CommittedListTest(unittest.TestCase):
    def test_the_suites_list(self):
        matrices = fetch_matrices.read_list(fetch_matrices.DEFAULT_LIST)
        self.assertEqual(len(matrices), 26)
        self.assertEqual(len({m["name"] for m in matrices}), 26)
        self.assertEqual(len({m["id"] for m in matrices}), 26)
        for m in matrices:
            self.assertEqual(set(m), set(LIST[0]), m["name"])
            self.assertTrue(all(m[k] > 0 for k in ("id", "rows", "cols", "nnz")), m["name"])
            # The file holds every entry once, or one triangle of them under symmetric storage.
            self.assertLessEqual(m["nnz"], m["pattern_entries"], m["name"])
            if m["symmetry"] == "general":
                self.assertEqual(m["file_entries"], m["pattern_entries"], m["name"])
            else:
                self.assertLess(m["file_entries"], m["pattern_entries"], m["name"])
        print("fetch: matrices/suitesparse.json lists 26 matrices, names and ids unique, sizes "
              "consistent")


if __name__ == "__main__":
    unittest.main(verbosity=1)
