"""spiketrap_report.folded: folded stacks."""
import unittest

import support
from spiketrap_report import folded


class Folded(unittest.TestCase):
    def test_names_keep_to_their_frame_and_line(self):
        self.assertEqual(folded.folded_name("operator;()\nx\ty"), "operator:() x y")

    def test_self_time_in_whole_microseconds(self):
        rep = support.real()
        lines = folded.folded(rep).splitlines()
        self.assertEqual(lines[0], "# spiketrap folded spike stacks (microseconds): "
                                   "4 spikes, 0 dropped records")
        weights = dict(line.rsplit(" ", 1) for line in lines[1:])
        s = support.spike_of(rep, "load_asset")
        self.assertEqual(int(weights["main;tick;load_asset"]),
                         (s["duration_ns"] - s["child_spike_ns"] + 500) // 1000)
        self.assertEqual(sorted(weights), ["main;stuck", "main;tick",
                                           "main;tick;load_asset",
                                           "main;tick;load_asset;read_pak"])


if __name__ == "__main__":
    unittest.main()
