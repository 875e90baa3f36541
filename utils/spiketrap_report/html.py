"""The HTML page: utils/spiketrap-report.html with the report embedded."""
import json
import os

from . import DATA
from .errors import fail

PAGE = os.path.join(DATA, "spiketrap-report.html")
PLACEHOLDER = "@SPIKETRAP_REPORT_JSON@"


def html(rep):
    try:
        with open(PAGE, encoding="utf-8") as f:
            page = f.read()
    except OSError as e:
        fail("cannot read the HTML page %s: %s" % (PAGE, e))
    # '<' escaped so no string can end the <script> it sits in.
    data = json.dumps(rep).replace("<", "\\u003c")
    return page.replace(PLACEHOLDER, data)
