# Reads the watcher's verbosity=1 line: the ticks came, sampled, and cost
# at most twice the share given as argv[1] (percent).
import re, sys
text = sys.stdin.read()
m = re.search(r"(\d+) samples in (\d+) ticks .* costing them (\d+) us of (\d+) us "
              r"of CPU", text)
if not m:
    sys.exit("no watcher line:\n" + text)
samples, ticks, spent, cpu = map(int, m.groups())
share = float(sys.argv[1])
print(samples, ticks, spent, cpu)
if ticks < 10 or samples < 5:
    sys.exit("too few ticks or samples")
if spent * 100 > 2 * share * cpu:
    sys.exit("over the share: %d us of %d us" % (spent, cpu))
