"""spiketrap_report.stats, the gate's statistics: the Mann-Whitney U test
(exact, with ties, and its normal approximation), Benjamini-Hochberg and
Fisher's exact test against published values and brute force."""
import itertools
import math
import unittest

import support  # noqa: F401  (the package on sys.path)
from spiketrap_report import stats


def brute_force_p(x, y):
    """P(U of y >= observed) over every split of the pooled values."""
    def u(a, b):
        return sum((p > q) + 0.5 * (p == q) for p in a for q in b)
    pooled, n2 = x + y, len(y)
    seen = u(y, x)
    hits = total = 0
    for pick in itertools.combinations(range(len(pooled)), n2):
        ys = [pooled[i] for i in pick]
        xs = [pooled[i] for i in range(len(pooled)) if i not in pick]
        total += 1
        hits += u(ys, xs) >= seen
    return hits / total


class MannWhitney(unittest.TestCase):
    # scipy.stats.mannwhitneyu's documented example (after Conover):
    # U1 = 17, two-sided p 0.1111 exact and 0.11134688653314041 asymptotic.
    males = [19, 22, 16, 29, 24]
    females = [20, 11, 17, 12]

    def test_exact(self):
        u, p = stats.mann_whitney_u(self.females, self.males, "exact")
        self.assertEqual(u, 17)
        self.assertAlmostEqual(2 * p, 0.1111111111111111, places=12)

    def test_normal(self):
        u, p = stats.mann_whitney_u(self.females, self.males, "normal")
        self.assertEqual(u, 17)
        self.assertAlmostEqual(2 * p, 0.11134688653314041, places=9)

    def test_exact_with_ties_is_the_permutation_distribution(self):
        for x, y in (([0, 0, 0, 1, 2], [1, 2, 2, 3, 3, 5]),
                     ([0] * 6, [0, 0, 1, 1, 2, 2]),
                     ([3, 1, 4, 1, 5], [9, 2, 6, 5, 3, 5])):
            self.assertAlmostEqual(stats.mann_whitney_u(x, y, "exact")[1],
                                   brute_force_p(x, y), places=12)

    def test_all_tied_is_no_evidence(self):
        self.assertEqual(stats.mann_whitney_u([0] * 6, [0] * 6)[1], 1.0)

    def test_complete_separation(self):
        # 6 against 6, every candidate above every baseline: 1 / C(12, 6).
        self.assertAlmostEqual(stats.mann_whitney_u([0] * 6, [1, 2, 3, 4, 5, 6])[1],
                               1 / 924, places=15)

    def test_normal_tie_correction(self):
        # 6 zeros against 6 distinct values: sigma^2 = n1 n2/12 ((n+1) -
        # sum(t^3 - t)/(n(n-1))) = 3 (13 - 210/132); z = (36 - 18 - 0.5)/sigma.
        z = 17.5 / math.sqrt(3 * (13 - 210 / 132))
        self.assertAlmostEqual(
            stats.mann_whitney_u([0] * 6, [1, 2, 3, 4, 5, 6], "normal")[1],
            0.5 * math.erfc(z / math.sqrt(2)), places=12)

    def test_direction(self):
        self.assertGreater(stats.mann_whitney_u([5, 6, 7], [1, 2, 3])[1], 0.9)


class FalseDiscoveryRate(unittest.TestCase):
    def test_benjamini_hochberg_1995(self):
        # The 15 p-values of Benjamini & Hochberg (1995), section 4: at
        # q = 0.05 the procedure rejects the four smallest.
        ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
              0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]
        qs = stats.benjamini_hochberg(ps)
        self.assertEqual([q <= 0.05 for q in qs], [True] * 4 + [False] * 11)

    def test_adjusted_values(self):
        # As R's p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH").
        for q, want in zip(stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005]),
                           [0.02, 0.04, 0.04, 0.02]):
            self.assertAlmostEqual(q, want, places=12)


class Fisher(unittest.TestCase):
    def test_new_in_every_candidate_run(self):
        self.assertAlmostEqual(stats.fisher_greater(0, 6, 6, 6), 1 / 924, places=15)

    def test_lady_tasting_tea(self):
        # Fisher's tea-tasting: 3 of 4 right, one-sided p = 17/70.
        self.assertAlmostEqual(stats.fisher_greater(1, 4, 3, 4), 17 / 70, places=15)


class Percentile(unittest.TestCase):
    def test_nearest_rank(self):
        self.assertEqual(stats.p95(list(range(1, 21))), 19)
        self.assertEqual(stats.p95([7]), 7)


if __name__ == "__main__":
    unittest.main(verbosity=2)
