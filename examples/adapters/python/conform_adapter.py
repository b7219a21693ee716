#!/usr/bin/env python3
"""A minimal conform protocol v1 adapter, standard library only.

Copy this file, keep the loop, and fill OPS with your implementation's ops.
conform runs it as a persistent child process:

    conform run --stdio "python3 conform_adapter.py"

Protocol v1 in one paragraph (spec/protocol.md has the rules): one JSON
request per line on stdin, {"id", "op", "input"}; one JSON answer per line on
stdout, {"id", "output"} or {"id", "error": {"kind", "message"}} with kind
"unsupported", "bad_request" or "internal". Echo the id unchanged. A refusal of
the input is an output ({"rejected": {"code": ...}}), never an error. Ignore
request members you do not know. Exit when stdin ends. Log to stderr only.
"""

import json
import sys

NAME = "conform-python-example"
VERSION = "0.1.0"

# JavaScript's \s: the whitespace of quote.normalize (spec/quote-anchor.md).
WHITESPACE = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + ["\u0020", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"]
)


class BadRequest(Exception):
    """The input does not have the op's shape: answered as bad_request."""


class Members(dict):
    """A JSON object as read, remembering the names it had more than once:
    json.loads keeps the last of two members silently, and an input that
    names a member twice is a bad request (PROTO-ERROR-003)."""

    twice = frozenset()


def members(pairs):
    obj = Members(pairs)
    if len(obj) != len(pairs):
        seen = set()
        obj.twice = frozenset(k for k, _ in pairs if k in seen or seen.add(k))
    return obj


def quote_normalize(inp):
    """quote.normalize: each maximal run of whitespace becomes one space.

    A lone surrogate (which JSON can carry as an escape) becomes U+FFFD.
    """
    if set(inp) != {"text"} or not isinstance(inp["text"], str):
        raise BadRequest('input must be {"text": string}')
    out, in_run = [], False
    for ch in inp["text"]:
        if ch in WHITESPACE:
            if not in_run:
                out.append(" ")
            in_run = True
            continue
        in_run = False
        out.append("\ufffd" if "\ud800" <= ch <= "\udfff" else ch)
    return {"text": "".join(out)}


# The ops this adapter implements, and nothing else: hello lists exactly these.
OPS = {
    "quote.normalize": quote_normalize,
}


MAX_ID = 2**53 - 1


def request_id(rid):
    """The id to echo, or None when rid is not an id: a string, or a number
    whose value is an integer up to 2^53-1 however it is spelt (json.loads
    gives 1.0 a float; PROTO-ID-005)."""
    if isinstance(rid, str):
        return rid
    if isinstance(rid, bool) or not isinstance(rid, (int, float)):
        return None
    if isinstance(rid, float) and not rid.is_integer():
        return None  # 1.5, NaN and infinities
    return int(rid) if abs(rid) <= MAX_ID else None


def answer(req):
    """Returns the answer object for one decoded request."""
    if not isinstance(req, dict):
        return {"id": None, "error": {"kind": "bad_request", "message": "not a request object"}}
    if "id" in req.twice:  # which of the two to echo is anybody's guess (PROTO-FRAME-009)
        return {"id": None, "error": {"kind": "bad_request", "message": "the request names its id twice"}}
    rid = request_id(req.get("id"))
    if rid is None:
        return {"id": None, "error": {"kind": "bad_request", "message": "id must be a string or an integer"}}
    op, inp = req.get("op"), req.get("input")
    if not isinstance(op, str) or not isinstance(inp, dict):
        return {"id": rid, "error": {"kind": "bad_request", "message": "op must be a string and input an object"}}
    twice = req.twice | inp.twice
    if twice:
        return {"id": rid, "error": {"kind": "bad_request", "message": "the request names a member twice: " + ", ".join(sorted(twice))}}
    if op == "hello":
        return {"id": rid, "output": {"protocol": 1, "name": NAME, "version": VERSION,
                                      "language": "python", "ops": sorted(OPS)}}
    handler = OPS.get(op)
    if handler is None:
        return {"id": rid, "error": {"kind": "unsupported", "message": "op not implemented: " + op}}
    try:
        return {"id": rid, "output": handler(inp)}
    except BadRequest as e:
        return {"id": rid, "error": {"kind": "bad_request", "message": str(e)}}
    except Exception as e:  # a bug in the adapter: say so, keep serving
        return {"id": rid, "error": {"kind": "internal", "message": repr(e)}}


def main():
    out = sys.stdout
    for raw in sys.stdin.buffer:
        # A line of JSON white space only gets no answer (PROTO-FRAME-008);
        # bytes.strip() would also drop a line of \v or \f, which is not JSON.
        if not raw.rstrip(b"\n").strip(b" \t\r"):
            continue
        try:
            req = json.loads(raw.decode("utf-8"), object_pairs_hook=members)
        except ValueError as e:
            resp = {"id": None, "error": {"kind": "bad_request", "message": "not JSON: %s" % e}}
        else:
            resp = answer(req)
        # ASCII-only JSON is valid UTF-8 whatever the strings hold.
        out.write(json.dumps(resp, ensure_ascii=True, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
