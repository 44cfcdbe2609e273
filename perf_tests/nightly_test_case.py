"""The scaffolding the tests of nightly.py share: a temporary output directory per test and a run
of nightly.main with its output captured."""

import contextlib
import io
import os
import tempfile
import unittest

import nightly


class NightlyTestCase(unittest.TestCase):
    # Arguments every run of the test case passes before its own.
    common_arguments = ()

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.output = os.path.join(self.dir.name, "quick")

    def nightly(self, *arguments):
        """nightly.main's exit status and everything it printed."""
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = nightly.main(["--output-dir", self.output, *self.common_arguments, *arguments])
        return status, output.getvalue()
