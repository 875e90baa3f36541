"""The gate's statistics: Mann-Whitney U, Fisher's exact test,
Benjamini-Hochberg, the nearest-rank p95."""
import math


def mann_whitney_u(x, y, method="auto"):
    """Mann-Whitney U test of "y tends to be larger than x" (one-sided).
    Returns (U of y, p). Exact for up to 24 values in all, ties included:
    the permutation distribution of y's rank sum over the midranks actually
    seen (counted by dynamic programming); beyond that the normal
    approximation with tie correction and continuity correction (method
    "exact" or "normal" forces one)."""
    n1, n2 = len(x), len(y)
    if not n1 or not n2:
        return None, 1.0
    values = sorted(x + y)
    n = n1 + n2
    # Twice the midrank of each value: integers.
    rank2, i = {}, 0
    while i < n:
        j = i
        while j < n and values[j] == values[i]:
            j += 1
        rank2[values[i]] = i + j + 1  # 2 * ((i+1 + j) / 2)
        i = j
    r2 = sum(rank2[v] for v in y)
    u = r2 / 2 - n2 * (n2 + 1) / 2
    if method == "exact" or (method == "auto" and n <= 24):
        # counts[k][s]: ways to pick k values whose doubled ranks sum to s.
        ranks = [rank2[v] for v in values]
        top = sum(sorted(ranks)[-n2:])
        counts = [dict() for _ in range(n2 + 1)]
        counts[0][0] = 1
        for r in ranks:
            for k in range(min(n2, n) - 1, -1, -1):
                for s, c in counts[k].items():
                    if s + r <= top:
                        counts[k + 1][s + r] = counts[k + 1].get(s + r, 0) + c
        tail = sum(c for s, c in counts[n2].items() if s >= r2)
        return u, tail / math.comb(n, n2)
    ties = sum(t ** 3 - t for t in
               (values.count(v) for v in set(values)))
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return u, 1.0
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(var)
    return u, 0.5 * math.erfc(z / math.sqrt(2))


def fisher_greater(a, n1, b, n2):
    """One-sided Fisher exact test: a of n1 baseline runs and b of n2
    candidate runs show something; p of b or more under no difference."""
    k, n = a + b, n1 + n2
    total = math.comb(n, n2)
    return sum(math.comb(k, x) * math.comb(n - k, n2 - x)
               for x in range(b, min(k, n2) + 1)) / total


def benjamini_hochberg(ps):
    """q-values (adjusted p-values) controlling the false discovery rate,
    in the order of ps."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    qs, running = [0.0] * m, 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        qs[i] = running
    return qs


def p95(values):
    """Nearest rank, as the reports' p95_ns."""
    v = sorted(values)
    return v[(95 * len(v) + 99) // 100 - 1]
