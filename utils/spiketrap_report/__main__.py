"""python3 -m spiketrap_report: the same as the spiketrap-report launcher."""
import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
