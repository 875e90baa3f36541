"""spiketrap_report.output: files written as the runtime writes its
reports: atomically, never through a symbolic link, 0600 when private."""
import os
import stat
import unittest

import support
from spiketrap_report import errors, output


class Output(support.TempDir, unittest.TestCase):
    def mode(self, path):
        return stat.S_IMODE(os.stat(path).st_mode)

    def test_private_files_are_0600_others_follow_the_umask(self):
        old = os.umask(0o022)
        self.addCleanup(os.umask, old)
        output.write(self.path("p"), "x", private=True)
        output.write(self.path("q"), "x", private=False)
        self.assertEqual((self.mode(self.path("p")), self.mode(self.path("q"))),
                         (0o600, 0o644))

    def test_a_symbolic_link_is_refused_and_left_alone(self):
        victim = self.path("victim")
        with open(victim, "w") as f:
            f.write("secret")
        os.symlink(victim, self.path("link"))
        with self.assertRaises(errors.CannotWrite) as e:
            output.write(self.path("link"), "x", private=True)
        self.assertEqual(str(e.exception), "cannot write %s: it is a symbolic link"
                         % self.path("link"))
        with open(victim) as f:
            self.assertEqual(f.read(), "secret")

    def test_a_failed_write_leaves_the_old_file_and_no_temporary(self):
        path = self.path("r.html")
        output.write(path, "old", private=False)
        with self.assertRaises(RuntimeError):
            with output.output(path, private=False) as f:
                f.write("half")
                raise RuntimeError("stopped")
        with open(path) as f:
            self.assertEqual(f.read(), "old")
        self.assertEqual(os.listdir(self.tmp), ["r.html"])

    def test_devices_are_written_as_they_are(self):
        output.write(os.devnull, "x", private=True)
        self.assertTrue(stat.S_ISCHR(os.stat(os.devnull).st_mode))

    def test_a_directory_is_not_a_file(self):
        with self.assertRaises(errors.CannotWrite):
            output.write(self.tmp, "x", private=True)

    def test_a_long_name_needs_no_longer_temporary_one(self):
        path = self.path("n" * 255)
        output.write(path, "x", private=True)
        self.assertTrue(os.path.isfile(path))

    def test_the_command_line_says_it_in_one_line(self):
        os.symlink(self.path("none"), self.path("link"))
        status, _, err = support.cli("convert", "--to", "folded", "-o",
                                     self.path("link"), support.REAL)
        self.assertEqual((status, err), (1, "spiketrap-report: cannot write %s: "
                                         "it is a symbolic link\n" % self.path("link")))


if __name__ == "__main__":
    unittest.main()
