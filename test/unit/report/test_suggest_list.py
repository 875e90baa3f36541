"""spiketrap_report.suggest_list: the list file the next compile reads."""
import unittest

import support
from spiketrap_report import suggest_list as sl


class Escaping(unittest.TestCase):
    def test_a_glob_that_matches_just_the_name(self):
        self.assertEqual(sl.list_name("f*[x]?{}\\"), "f\\*\\[x\\]\\?\\{\\}\\\\")
        self.assertEqual(sl.list_name("operator=="), "operator??")
        self.assertEqual(sl.list_name("a b "), "a b[ ]")

    def test_names_that_cannot_be_entries(self):
        self.assertEqual(sl.list_entry(""), "# left out: a function whose name is empty")
        self.assertEqual(sl.list_entry("a\nfun:*"),
                         "# left out: a function whose name has a control character")
        self.assertEqual(sl.list_comment("x\ny"), "x?y")

    def test_durations_as_lists_spell_them(self):
        for ns, text in ((2 * 10**9, "2s"), (20 * 10**6, "20ms"), (500000, "500us"),
                         (1500, "1500ns")):
            self.assertEqual(sl.list_duration(ns), text)


class List(unittest.TestCase):
    def test_a_section_per_threshold(self):
        rep = support.real()
        text = sl.suggest_list(rep)
        lines = text.splitlines()
        self.assertTrue(lines[0].startswith("# spiketrap suggestions (pid %d, started "
                                            % rep["runs"][0]["pid"]))
        self.assertEqual([l for l in lines if not l.startswith("#")],
                         ["[threshold=50ms]", "fun:read_pak",
                          "[threshold=100ms]", "fun:load_asset",
                          "[threshold=500ms]", "fun:stuck"])
        self.assertIn("# spiked on 1 of 1 calls, worst ", text)
        self.assertIn(", fixture.c:24\nfun:read_pak", text)


if __name__ == "__main__":
    unittest.main()
