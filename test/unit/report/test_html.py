"""spiketrap_report.html: the page with the report in it."""
import json
import re
import unittest

import support
from spiketrap_report import html


class Page(unittest.TestCase):
    def test_the_report_is_the_page_data(self):
        rep = support.real()
        page = html.html(rep)
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertNotIn(html.PLACEHOLDER, page)
        data = re.search(r'<script type="application/json" id="spiketrap-data">(.*?)'
                         r'</script>', page, re.S).group(1)
        self.assertEqual(json.loads(data), rep)

    def test_no_string_ends_its_script(self):
        rep = support.real()
        rep["functions"][0]["name"] = "</script><script>alert(1)//"
        page = html.html(rep)
        self.assertNotIn("</script><script>alert", page)
        self.assertIn("\\u003c/script>\\u003cscript>alert(1)//", page)


if __name__ == "__main__":
    unittest.main()
