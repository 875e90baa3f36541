"""damage.py DIR: writes DIR/ok.json (a real report: the report tool's unit
test fixture), DIR/links.json (a stack level naming function 99) and
DIR/long-name.json (a function named with 100 MB)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "..", "unit", "report", "Inputs", "real.json")) as f:
    rep = json.load(f)
out = sys.argv[1]
with open(os.path.join(out, "ok.json"), "w") as f:
    json.dump(rep, f)
rep["spikes"][0]["stack"][0]["function"] = 99
with open(os.path.join(out, "links.json"), "w") as f:
    json.dump(rep, f)
rep["spikes"][0]["stack"][0]["function"] = 0
rep["functions"][0]["name"] = "f" * (100 << 20)
with open(os.path.join(out, "long-name.json"), "w") as f:
    json.dump(rep, f)
