"""spiketrap_report.cli: every subcommand registered, in order, and the
words after "--" given to the commands that take them."""
import unittest

import support
from spiketrap_report import cli


class CommandLine(unittest.TestCase):
    def test_subcommands_in_order(self):
        status, out, _ = support.cli("--help")
        self.assertEqual(status, 0)
        self.assertIn("{run,summary,convert,merge,compare,validate,export,ingest,"
                      "gate}", out)
        self.assertTrue(out.split("\n\n")[1].startswith(cli.__doc__.split("\n")[0]))

    def test_a_subcommand_is_needed(self):
        status, _, err = support.cli()
        self.assertEqual(status, 2)
        self.assertIn("the following arguments are required", err)

    def test_words_after_dashes_are_the_commands_own(self):
        # gate's candidates may look like options; so may run's program's
        # arguments.
        status, _, err = support.cli("gate", support.REAL, "--", "--fdr")
        self.assertEqual(status, 2)
        self.assertIn("spiketrap-report gate: --fdr: No such file or directory", err)

    def test_other_commands_keep_dashes_to_argparse(self):
        status, out, _ = support.cli("summary", "--", support.REAL)
        self.assertEqual(status, 0)
        self.assertIn("read_pak", out)


if __name__ == "__main__":
    unittest.main()
