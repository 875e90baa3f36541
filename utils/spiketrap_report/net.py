"""The servers the tool sends to (ClickHouse, an OTLP receiver): their URLs
checked as options, and what a failed request can raise."""
import argparse
import http.client
import urllib.error
import urllib.parse

# What a request can end in besides an answer: no server, a refused or
# broken connection, an answer that is not HTTP.
FAILURES = (urllib.error.URLError, OSError, http.client.HTTPException)


def http_url(text):
    """An option's URL: http:// or https://, with a host (and a port that
    is a number)."""
    try:
        url = urllib.parse.urlsplit(text)
        url.port  # raises on a port that is not a number
    except ValueError as e:
        raise argparse.ArgumentTypeError("%r is not a URL: %s" % (text, e))
    if url.scheme not in ("http", "https") or not url.hostname:
        raise argparse.ArgumentTypeError(
            "%r is not an http:// or https:// URL with a host "
            "(such as http://localhost:8123)" % text)
    return text
