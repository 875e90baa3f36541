"""Prints how many spans each OTLP/JSON request of a file holds (those of
its first resource's first scope), one line per request.

otlp_span_counts.py FILE
"""
import json
import sys

for line in open(sys.argv[1]):
    print(len(json.loads(line)["resourceSpans"][0]["scopeSpans"][0]["spans"]))
