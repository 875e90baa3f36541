# Counts the hotNN functions of grant-budget.c that stayed timed for their
# 20,001 calls (kept) versus those switched off at a look (~4,096 calls).
import json, sys

r = json.load(open(sys.argv[1]))
hot = [f for f in r["functions"] if f["name"].startswith("hot")]
kept = sum(1 for f in hot if f["calls"] > 10000)
print(f"kept timed: {kept} of {len(hot)}")
