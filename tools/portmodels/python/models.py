#!/usr/bin/env python3
"""Python port models: the reference behind a proxy that does one behaviour the
way a Python port would, with the Python built-in called at run time.

usage: models.py MODEL     speak protocol v1 on stdin/stdout (spec/protocol.md)
       models.py --list    one JSON object per model (tools/portmodels contract)

The reference runs as a child, started with the command in CONFORM_REFERENCE
(for example "/path/to/conform serve --stdio"). Every request line goes to it
as written; its answer comes back as written, except where the model's slip
applies: there the model computes the answer itself. Standard library only.
"""
import json
import os
import shlex
import subprocess
import sys

# --- the proxy ---------------------------------------------------------------


class Reference:
    """The reference server as a child process, one answer line per request line."""

    def __init__(self, command):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def raw(self, line):
        """Forward a request line as written; return the answer line as written."""
        if not line.endswith(b"\n"):
            line += b"\n"
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise SystemExit("models.py: the reference closed its output")
        return answer

    def call(self, req):
        """Send a request the model built itself; return the decoded answer."""
        return json.loads(self.raw(encode(req)))


def encode(msg):
    # ensure_ascii keeps a lone surrogate an escape, as a JSON text can hold it
    return json.dumps(msg, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def decode_request(line):
    """The request as a Python port's json.loads reads it, and whether some object
    of it names a member twice; None when it is not a request whose input is an object."""
    dup = [False]

    def pairs(items):
        if len({k for k, _ in items}) != len(items):
            dup[0] = True
        return dict(items)

    try:
        req = json.loads(line.decode("utf-8"), object_pairs_hook=pairs)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, False
    if not isinstance(req, dict) or not isinstance(req.get("op"), str) or not isinstance(req.get("input"), dict):
        return None, False
    return req, dup[0]


def serve(model):
    ref = Reference(os.environ["CONFORM_REFERENCE"])
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if line.strip(b" \t\r\n") == b"":
            continue  # PROTO-FRAME-008: no request, no answer (the reference gives none either)
        answer = ref.raw(line)
        req, dup = decode_request(line)
        if req is not None and req["op"] in model.ops and (not dup or model.duplicates):
            mine = model.answer(ref, req, json.loads(answer), dup)
            if mine is not None:
                answer = encode(mine)
        out.write(answer)
        out.flush()


# --- the models ----------------------------------------------------------------


class Model:
    """One slip. answer(ref, req, answer, dup) gets the request as json.loads read
    it and the reference's answer to it; it returns the port's answer, or None to
    keep the reference's."""

    row = None
    case = None
    cls = None
    requirements = ()
    duplicates = False  # whether the model sees requests that name a member twice

    def __init__(self, name, ops, slip, fn, row=None, case=None, cls=None, requirements=(), duplicates=False):
        self.name, self.ops, self.slip, self.fn = name, list(ops), slip, fn
        self.row, self.case, self.cls, self.requirements, self.duplicates = row, case, cls, list(requirements), duplicates

    def answer(self, ref, req, answer, dup):
        return self.fn(ref, req, answer, dup)

    def listing(self):
        d = {"model": self.name, "row": self.row}
        if self.case is not None:
            d["case"] = self.case
        d.update({"class": self.cls, "ops": self.ops, "requirements": self.requirements, "slip": self.slip})
        return d


MODELS = []


def model(name, ops, slip, **kw):
    def register(fn):
        MODELS.append(Model(name, ops, slip, fn, **kw))
        return fn
    return register


# identity: forwards everything; it must pass the whole corpus, which shows the proxy is faithful.
MODELS.append(Model("identity", [], "none: every request goes to the reference and its answer comes back", lambda *a: None))


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        for m in MODELS:
            print(json.dumps(m.listing(), ensure_ascii=False))
        return 0
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    byname = {m.name: m for m in MODELS}
    if argv[1] not in byname:
        print("models.py: no model %r (models.py --list names them)" % argv[1], file=sys.stderr)
        return 2
    if not os.environ.get("CONFORM_REFERENCE"):
        print("models.py: CONFORM_REFERENCE is not set (the reference's command, e.g. \"conform serve --stdio\")", file=sys.stderr)
        return 2
    serve(byname[argv[1]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
