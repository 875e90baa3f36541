"""Runs `export --format jsonl` over one report and over a directory of
many, and says whether the tool's peak memory stayed that of one report
(streaming) and how many rows it wrote. Arguments: the command that runs
the tool (%spiketrap_report: python3 -B and its path), the directory, one
report of it."""
import resource
import subprocess
import sys


def peak_mb(cmd):
    """The command's peak RSS: run in a child of its own, whose
    RUSAGE_CHILDREN is just its child's."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
             "stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe] + cmd, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return int(out) / 1024


*tool, directory, one = sys.argv[1:]
export = tool + ["export", "--format", "jsonl"]
rows = subprocess.run(export + [directory], check=True, stdout=subprocess.PIPE,
                      text=True).stdout.count("\n")
print("rows: %d" % rows)
small, large = peak_mb(export + [one]), peak_mb(export + [directory])
# The margin covers the interpreter's own growth (allocator, caches); a tool
# that held the reports or rows of the whole directory would need over
# 100 MB more here.
print("memory: %s" % ("bounded" if large < small + 20 else
                      "grew from %.0f MB to %.0f MB" % (small, large)))
