"""Atheris target for a Python quote.parse, with the conform fuzz kit.

    conform fuzzkit --op quote.parse --out kit
    python3 fuzz_quote_parse.py -dict=kit/ops/quote.parse/quote.parse.dict \
        -max_total_time=120 corpus kit/ops/quote.parse/seeds-raw

Each input is an href (the fuzzer's bytes as UTF-8). The target checks the
properties of kit/ops/quote.parse/PROPERTIES.md that need no other
implementation: no exception, a refusal code the specification names for
the op, the limits of an accepted citation. With CONFORM_SERVE set to a
command serving protocol v1 on stdio (such as 'conform serve --stdio', the
reference), it also compares each answer with that implementation's, and
writes a difference as a conform vector file under CONFORM_FINDINGS
(default: findings) before failing, for 'conform run --vectors findings'.
"""

import json
import os
import subprocess
import sys

import atheris

with atheris.instrument_imports():
    import quote_parse

CODES = {
    "QUOTE_BARE_FIELD", "QUOTE_COMMENT_TOO_LONG", "QUOTE_CONTEXT_TOO_LONG", "QUOTE_CREDENTIALS", "QUOTE_DOT_SEGMENT",
    "QUOTE_DUPLICATE_FIELD", "QUOTE_FRAGMENT", "QUOTE_HREF_TOO_LONG", "QUOTE_ID_EMPTY", "QUOTE_ID_TOO_LONG",
    "QUOTE_ID_WHITESPACE", "QUOTE_INVALID_CHARACTER", "QUOTE_MISSING_FIELD", "QUOTE_OFFSET_ORDER", "QUOTE_OFFSET_RANGE",
    "QUOTE_OFFSET_SYNTAX", "QUOTE_PATH", "QUOTE_PERCENT_ENCODING", "QUOTE_PORT", "QUOTE_SCHEME", "QUOTE_TEXT_EMPTY",
    "QUOTE_TEXT_TOO_LONG", "QUOTE_UNKNOWN_FIELD", "QUOTE_UNPAIRED_SURROGATE", "QUOTE_VERSION",
}

serve = None
if os.environ.get("CONFORM_SERVE"):
    serve = subprocess.Popen(os.environ["CONFORM_SERVE"], shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def reference(href):
    """The answer of the CONFORM_SERVE implementation to quote.parse of href."""
    line = json.dumps({"id": 1, "op": "quote.parse", "input": {"href": href}}) + "\n"
    serve.stdin.write(line.encode())
    serve.stdin.flush()
    return json.loads(serve.stdout.readline())


def write_finding(href, want, got):
    out = os.environ.get("CONFORM_FINDINGS", "findings")
    os.makedirs(os.path.join(out, "quote"), exist_ok=True)
    name = "quote.parse/atheris-%08x" % (hash(href) & 0xFFFFFFFF)
    vector = {"op": "quote.parse", "description": "Found by Atheris with the conform fuzz kit", "vectors": [{
        "id": name, "description": "an href on which the Python port and the reference differ",
        "requirements": ["QUOTE-LINK-020"], "tags": ["fuzz", "atheris"],
        "input": {"href": href}, "expect": {"output": want}}]}
    with open(os.path.join(out, "quote", name.replace("/", "-") + ".json"), "w") as f:
        json.dump(vector, f, indent=2)
    print("difference written as a conform vector; got", json.dumps(got), file=sys.stderr)


def check(data):
    href = data.decode("utf-8", "replace")
    answer = quote_parse.parse(href)  # property 1: no exception escapes
    if "rejected" in answer:
        assert answer["rejected"]["code"] in CODES, answer  # property 2
    else:
        c = answer["citation"]  # the limits of an accepted citation
        assert 0 <= c["start"] < c["end"] <= 2**53 - 1, c
        assert quote_parse.units(c["text"]) <= 8000 and quote_parse.units(c["prefix"]) <= 32, c
    if serve is not None:
        want = reference(href)
        if want.get("output") != answer:
            write_finding(href, want.get("output"), answer)
            raise AssertionError("differs from the reference: %s" % json.dumps(want))


if __name__ == "__main__":
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()
