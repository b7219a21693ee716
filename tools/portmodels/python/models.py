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
import re
import shlex
import subprocess
import sys
import unicodedata
import urllib.parse

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
    # end of input: the reference ends too, before this process does, so that
    # nothing of it holds the runner's pipes open (transports.feature's exit)
    ref.proc.stdin.close()
    ref.proc.wait()


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


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def scalars(s):
    """The string as the spec reads it: a lone surrogate (json.loads keeps one) is U+FFFD."""
    return LONE_SURROGATE.sub("\ufffd", s)


def output(answer, member):
    """The reference's output when it holds member (an answer the slip can touch), else None."""
    out = answer.get("output")
    return out if isinstance(out, dict) and member in out else None


# --- quote.space / quote.trim: whitespace and trims ---------------------------


@model("python:str.isspace@quote.select", ["quote.select"],
       "refuses a selection of Python's str.isspace() characters as blank: U+001C to U+001F and U+0085 too",
       row="python:str.isspace", cls="quote.space", requirements=["QUOTE-ANCHOR-014"])
def select_isspace(ref, req, answer, dup):
    # if selected.isspace(): reject BLANK; the reference found the selection valid otherwise
    out = output(answer, "selector")
    if out is not None and isinstance(out["selector"].get("text"), str) and out["selector"]["text"].isspace():
        return {"id": answer.get("id"), "output": {"rejected": {"code": "QUOTE_SELECTION_BLANK"}}}
    return None


@model("python:re.\\s@quote.normalize", ["quote.normalize"],
       "collapses runs of Python's re \\s (U+001C to U+001F and U+0085 too, U+FEFF not) with re.sub(r\"\\s+\", \" \", text)",
       row="python:re.\\s", cls="quote.space", requirements=["QUOTE-ANCHOR-003", "QUOTE-ANCHOR-004"])
def normalize_re_s(ref, req, answer, dup):
    text = req["input"].get("text")
    if output(answer, "text") is None or not isinstance(text, str):
        return None
    return {"id": answer.get("id"), "output": {"text": re.sub(r"\s+", " ", scalars(text))}}


@model("python:str.strip@quote.comment", ["quote.comment"],
       "trims the comment with str.strip(): removes U+001C to U+001F and U+0085, keeps U+FEFF",
       row="python:str.strip", cls="quote.trim", requirements=["QUOTE-COMPOSE-001", "QUOTE-COMPOSE-002"])
def comment_strip(ref, req, answer, dup):
    comment = req["input"].get("comment")
    out = output(answer, "citation")
    if out is None or not isinstance(comment, str):
        return None
    trimmed = scalars(comment).strip()
    cit = dict(out["citation"])
    if trimmed == "":
        cit.pop("comment", None)
    else:
        cit["comment"] = trimmed
    return {"id": answer.get("id"), "output": {"citation": cit}}


# --- selref.label / selref.control ---------------------------------------------


def cap_label(label):
    """SELREF-LABEL-005 to -007 as the port does them: at most 200 UTF-16 units, a pair kept whole."""
    units = 0
    for i, c in enumerate(label):
        w = 2 if ord(c) > 0xFFFF else 1
        if units + w > 200:
            return label[:i].rstrip(" ") + "\u2026"
        units += w
    return label


@model("python:str.split@selref.ingest", ["selref.ingest"],
       "collapses the label with \" \".join(label.split()): controls other than U+001C to U+001F stay in the label",
       row="python:str.split", cls="selref.label", requirements=["SELREF-LABEL-001", "SELREF-LABEL-002", "SELREF-LABEL-004"])
def ingest_label_split(ref, req, answer, dup):
    label = req["input"].get("label")
    if not isinstance(label, str) or "output" not in answer:
        return None
    mine = cap_label(" ".join(scalars(label).split()))
    if mine == "":
        return {"id": answer.get("id"), "output": {"dropped": {"code": "SELREF_BLANK_LABEL"}}}
    out = output(answer, "reference")
    if out is None and output(answer, "dropped") is not None and answer["output"]["dropped"].get("code") == "SELREF_BLANK_LABEL":
        # the spec's label is blank, the port's is not: the rest of the reference as the reference makes it
        answer = ref.call({**req, "input": {**req["input"], "label": "x"}})
        out = output(answer, "reference")
    if out is None:
        return answer
    return {"id": req.get("id"), "output": {"reference": {**out["reference"], "label": mine}}}


@model("python:unicodedata.category==Cc@selref.ingest", ["selref.ingest"],
       "refuses an address holding a character whose unicodedata.category() is Cc: U+2028 and U+2029 pass",
       row="python:unicodedata.category==Cc", cls="selref.control", requirements=["SELREF-VANCE-004", "SELREF-URL-002"])
def ingest_control_cc(ref, req, answer, dup):
    # The port's control test is the built-in; every other check is the reference's. Each
    # non-ASCII character the built-in lets through goes to the reference as a private-use
    # stand-in (which no rule of the spec refuses) and comes back in the stored address.
    inp = dict(req["input"])
    back = {}
    for key in ("url", "vanceUri"):
        v = inp.get(key)
        if not isinstance(v, str) or any(0xF0000 <= ord(c) <= 0xFFFFD for c in v):
            continue
        chars = []
        for c in v:
            if ord(c) > 0x7F and unicodedata.category(c) != "Cc" and not ("\ud800" <= c <= "\udfff"):
                stand = back.setdefault(key, {}).get(c)
                if stand is None:
                    stand = chr(0xF0000 + len(back[key]))
                    back[key][c] = stand
                chars.append(stand)
            else:
                chars.append(c)
        inp[key] = "".join(chars)
    if not back:
        return None
    mine = ref.call({**req, "input": inp})
    out = output(mine, "reference")
    if out is not None:
        r = dict(out["reference"])
        for key, table in back.items():
            if isinstance(r.get(key), str):
                r[key] = r[key].translate({ord(s): c for c, s in table.items()})
        mine["output"] = {"reference": r}
    mine["id"] = answer.get("id")
    return mine


# --- marker.line: the lines of marker.locate -------------------------------------

LINE_RANGE = re.compile(r"L([1-9][0-9]{0,8})(?:-L([1-9][0-9]{0,8}))?", re.ASCII)


def locate_lines(req, answer, split):
    inp = req["input"]
    loc, value = inp.get("locator"), inp.get("value")
    out = answer.get("output")
    if not isinstance(out, dict) or "rejected" in out or out.get("malformed") or not isinstance(loc, str) or not isinstance(value, str):
        return None
    m = LINE_RANGE.fullmatch(loc)
    if not m:
        return None
    n = int(m.group(1))
    k = int(m.group(2) or m.group(1))
    lines = split(value)
    if n > k or k > len(lines):
        return {"id": answer.get("id"), "output": {"resolved": False}}
    return {"id": answer.get("id"), "output": {"resolved": True, "lines": lines[n - 1:k]}}


@model("python:str.splitlines@marker.locate", ["marker.locate"],
       "splits the value with str.splitlines(): VT, FF, a lone CR, U+001C to U+001E, U+0085, U+2028 and U+2029 end lines too",
       row="python:str.splitlines", cls="marker.line", requirements=["MARKER-LOCATE-006", "MARKER-LOCATE-012"])
def locate_splitlines(ref, req, answer, dup):
    return locate_lines(req, answer, lambda v: v.splitlines())


@model("python:str.split(\"\\n\")@marker.locate", ["marker.locate"],
       "splits the value with value.split(\"\\n\"): CRs stay, a final LF starts an empty line, the empty string is one line",
       row="python:str.split(\"\\n\")", cls="marker.line", requirements=["MARKER-LOCATE-006", "MARKER-LOCATE-012"])
def locate_split_lf(ref, req, answer, dup):
    return locate_lines(req, answer, lambda v: v.split("\n"))


# --- marker.digit / marker.index / quote.digit: digits and integers -----------------

LOCATOR_PIECES = re.compile(r"L([^-]+)(?:-L([^-]+))?")


def locate_digits(ref, req, answer, reading):
    """A line range whose numbers the port reads with reading(piece) -> ASCII digits or None;
    the locator goes to the reference spelt in ASCII."""
    loc = req["input"].get("locator")
    if not isinstance(loc, str) or "output" not in answer:
        return None
    m = LOCATOR_PIECES.fullmatch(loc)
    if not m:
        return None
    pieces = [reading(g) for g in m.groups() if g is not None]
    if None in pieces or any(not 1 <= len(p) <= 9 for p in pieces):
        return None
    ascii_loc = "-".join("L" + p for p in pieces)
    if ascii_loc == loc:
        return None
    mine = ref.call({**req, "input": {**req["input"], "locator": ascii_loc}})
    mine["id"] = answer.get("id")
    return mine


@model("python:str.isdigit@marker.locate", ["marker.locate"],
       "reads a line number's digits with c.isdigit() and unicodedata.digit(c): superscripts, circled and other scripts' digits count",
       row="python:str.isdigit", cls="marker.digit", requirements=["MARKER-LOCATE-007", "MARKER-LOCATE-010", "MARKER-LOCATE-013"])
def locate_isdigit(ref, req, answer, dup):
    def reading(g):
        if not all(c.isdigit() for c in g):
            return None
        return "".join(str(unicodedata.digit(c)) for c in g)
    return locate_digits(ref, req, answer, reading)


@model("python:re.\\d@marker.locate", ["marker.locate"],
       "matches a line range with re.fullmatch(r\"L(\\d+)(?:-L(\\d+))?\"): every Unicode decimal digit counts",
       row="python:re.\\d", cls="marker.digit", requirements=["MARKER-LOCATE-007", "MARKER-LOCATE-010", "MARKER-LOCATE-013"])
def locate_re_d(ref, req, answer, dup):
    def reading(g):
        if not re.fullmatch(r"\d+", g):
            return None
        return "".join(str(int(c)) for c in g)
    return locate_digits(ref, req, answer, reading)


@model("python:int@marker.locate", ["marker.locate"],
       "reads an array index with int(token): 01, +1, ' 1', 1_0 and other scripts' digits designate elements",
       row="python:int", cls="marker.index", requirements=["MARKER-LOCATE-004"])
def locate_int_index(ref, req, answer, dup):
    # The port walks the pointer with int(token) on arrays; the pointer goes to the reference
    # with each array token spelt as the index the port read.
    inp = req["input"]
    loc, value = inp.get("locator"), inp.get("value")
    if not isinstance(loc, str) or not loc.startswith("/") or "output" not in answer:
        return None
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in loc[1:].split("/")]
    spelt, changed = [], False
    for t in tokens:
        if isinstance(value, dict):
            value = value.get(t, _MISSING)
        elif isinstance(value, list):
            try:
                i = int(t)
            except ValueError:
                i = -1
            if 0 <= i < len(value):
                changed = changed or str(i) != t
                t = str(i)
                value = value[i]
            else:
                value = _MISSING
        else:
            value = _MISSING
        spelt.append(t.replace("~", "~0").replace("/", "~1"))
        if value is _MISSING:
            break
    if not changed:
        return None
    mine = ref.call({**req, "input": {**inp, "locator": "/" + "/".join(spelt)}})
    mine["id"] = answer.get("id")
    return mine


_MISSING = object()


@model("python:str.isdecimal@quote.parse", ["quote.parse"],
       "checks an href offset with c.isdecimal() and reads it with int(): other scripts' decimal digits are offsets",
       row="python:str.isdecimal", cls="quote.digit", requirements=["QUOTE-LINK-044"])
def parse_isdecimal(ref, req, answer, dup):
    href = req["input"].get("href")
    if not isinstance(href, str) or "?" not in href or "output" not in answer:
        return None
    base, _, query = href.partition("?")
    frag = ""
    if "#" in query:
        query, _, frag = query.partition("#")
        frag = "#" + frag
    fields, changed = [], False
    for f in query.split("&"):
        k, eq, v = f.partition("=")
        if k in ("start", "end") and eq:
            try:
                d = urllib.parse.unquote_plus(v, errors="strict")
            except UnicodeDecodeError:
                d = ""
            if 1 <= len(d) <= 16 and all(c.isdecimal() for c in d) and not d.isascii():
                v, changed = str(int(d)), True
        fields.append(k + eq + v)
    if not changed:
        return None
    mine = ref.call({**req, "input": {**req["input"], "href": base + "?" + "&".join(fields) + frag}})
    mine["id"] = answer.get("id")
    return mine


# --- marker.user-origin: the user-origin prefixes compared with a case fold --------

USER_PREFIXES = ("user_data_", "user_text_")


def locate_user_origin(req, answer, is_user):
    pid = req["input"].get("data_part_id")
    out = answer.get("output")
    if not isinstance(pid, str) or not isinstance(out, dict) or "rejected" in out or not is_user(pid):
        return None
    return {"id": answer.get("id"), "output": {"rejected": {"code": "MARKER_USER_ORIGIN"}}}


@model("python:str.upper@marker.locate", ["marker.locate"],
       "finds a user-origin id with id.upper().startswith(...): U+017F LONG S upper-cases to S",
       row="python:str.upper", cls="marker.user-origin", requirements=["MARKER-LOCATE-011", "MARKER-STRIP-004"])
def locate_upper(ref, req, answer, dup):
    return locate_user_origin(req, answer, lambda i: i.upper().startswith(tuple(p.upper() for p in USER_PREFIXES)))


@model("python:str.casefold@marker.locate", ["marker.locate"],
       "finds a user-origin id with id.casefold().startswith(...): U+017F LONG S folds to s",
       row="python:str.casefold", cls="marker.user-origin", requirements=["MARKER-LOCATE-011", "MARKER-STRIP-004"])
def locate_casefold(ref, req, answer, dup):
    return locate_user_origin(req, answer, lambda i: i.casefold().startswith(USER_PREFIXES))


@model("python:re.IGNORECASE@marker.locate", ["marker.locate"],
       "finds a user-origin id with re.match(r\"user_(data|text)_\", id, re.IGNORECASE): U+017F LONG S matches s",
       row="python:re.IGNORECASE", cls="marker.user-origin", requirements=["MARKER-LOCATE-011", "MARKER-STRIP-004"])
def locate_ignorecase(ref, req, answer, dup):
    return locate_user_origin(req, answer, lambda i: re.match(r"user_(data|text)_", i, re.IGNORECASE) is not None)


# --- quote.json: the expansion block's data ---------------------------------------

BLOCK_OPEN, BLOCK_CLOSE = "<assistant_citations>\n", "\n</assistant_citations>"


def expand_block(answer, dumps):
    """The expansion with its block's data written again by dumps(data)."""
    out = output(answer, "text")
    if out is None or not isinstance(out["text"], str):
        return None
    text = out["text"]
    i = text.find(BLOCK_OPEN)
    if i < 0:
        return None
    j = text.find("\n[", i)
    k = text.find(BLOCK_CLOSE, j)
    if j < 0 or k < 0:
        return None
    data = json.loads(text[j + 1:k])
    return {"id": answer.get("id"), "output": {**out, "text": text[:j + 1] + dumps(data) + text[k:]}}


@model("python:json.dumps@quote.expand", ["quote.expand"],
       "writes the block's data with json.dumps(data, indent=2) (then escapes <, > and &): every non-ASCII character becomes \\uXXXX",
       row="python:json.dumps", cls="quote.json", requirements=["QUOTE-COMPOSE-016"])
def expand_dumps(ref, req, answer, dup):
    return expand_block(answer, lambda d: json.dumps(d, indent=2).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@model("python:json.dumps(ensure_ascii=False)@quote.expand", ["quote.expand"],
       "writes the block's data with json.dumps(data, indent=2, ensure_ascii=False), trusting it to escape <, > and & as Go's encoder does: it does not",
       row="python:json.dumps(ensure_ascii=False)", cls="quote.json", requirements=["QUOTE-COMPOSE-017"])
def expand_dumps_unicode(ref, req, answer, dup):
    return expand_block(answer, lambda d: json.dumps(d, indent=2, ensure_ascii=False))


# --- quote.path / quote.query: the href's percent-encoding --------------------------

HREF_HEAD = "t3-citation://v1/"
ID_KEYS = ("environmentId", "threadId", "messageId")
QUERY_KEYS = ("text", "start", "end", "prefix", "suffix")


def format_href(req, answer, path=None, query=None):
    """The reference's href with its path (path(ids)) or its query (query(pairs)) written again."""
    out = output(answer, "href")
    cit = req["input"].get("citation")
    if out is None or not isinstance(cit, dict) or not out["href"].startswith(HREF_HEAD):
        return None
    old = out["href"]
    head, _, tail = old.partition("?")
    if path is not None:
        head = HREF_HEAD + "/".join(path(cit[k]) for k in ID_KEYS)
    if query is not None:
        # start and end as the reference spelt them (the input may write 1E0 or -0)
        spelt = dict(f.partition("=")[::2] for f in tail.split("&"))
        pairs = [(k, spelt.get(k, "") if k in ("start", "end") else cit[k]) for k in QUERY_KEYS]
        if "comment" in cit:
            pairs.append(("comment", cit["comment"]))
        tail = query(pairs)
    href = head + "?" + tail
    res = dict(out, href=href)
    if isinstance(out.get("link"), str):
        res["link"] = out["link"].replace(old, href)
    return {"id": answer.get("id"), "output": res}


@model("python:urllib.parse.quote@quote.format", ["quote.format"],
       "percent-encodes each id with urllib.parse.quote(id): its default safe=\"/\" leaves / in a path segment",
       row="python:urllib.parse.quote", cls="quote.path", requirements=["QUOTE-LINK-010"])
def format_quote_path(ref, req, answer, dup):
    return format_href(req, answer, path=lambda v: urllib.parse.quote(v))


@model("python:urllib.parse.quote(safe='')@quote.format", ["quote.format"],
       "percent-encodes each query value with urllib.parse.quote(v, safe=\"\"): space is %20, * is %2A, ~ stays",
       row="python:urllib.parse.quote(safe='')", cls="quote.query", requirements=["QUOTE-LINK-011"])
def format_quote_query(ref, req, answer, dup):
    return format_href(req, answer, query=lambda pairs: "&".join(k + "=" + urllib.parse.quote(v, safe="") for k, v in pairs))


@model("python:urllib.parse.quote_plus@quote.format", ["quote.format"],
       "percent-encodes each query value with urllib.parse.quote_plus(v): * is %2A, ~ stays",
       row="python:urllib.parse.quote_plus", cls="quote.query", requirements=["QUOTE-LINK-011"])
def format_quote_plus(ref, req, answer, dup):
    return format_href(req, answer, query=lambda pairs: "&".join(k + "=" + urllib.parse.quote_plus(v) for k, v in pairs))


@model("python:urllib.parse.urlencode@quote.format", ["quote.format"],
       "writes the query with urllib.parse.urlencode(pairs): * is %2A, ~ stays",
       row="python:urllib.parse.urlencode", cls="quote.query", requirements=["QUOTE-LINK-011"])
def format_urlencode(ref, req, answer, dup):
    return format_href(req, answer, query=lambda pairs: urllib.parse.urlencode(pairs))


# --- structural cases ---------------------------------------------------------------


@model("duplicate-member-last-wins@quote.format", ["quote.format"],
       "reads the input with json.loads, which keeps the last of two members of one name, at the top level or nested: no bad_request",
       case="duplicate-member-last-wins", requirements=["PROTO-ERROR-003", "PROTO-ERROR-005"], duplicates=True)
def format_last_wins(ref, req, answer, dup):
    if not dup:
        return None
    mine = ref.call(req)  # the request as json.loads left it: one member of each name
    mine["id"] = answer.get("id")
    return mine


CITATION_MEMBERS = ("version", "environmentId", "threadId", "messageId", "text", "comment", "start", "end", "prefix", "suffix")


@model("nested-member-ignored@quote.comment", ["quote.comment"],
       "decodes the citation into a typed record that drops members it does not know, so an unknown or miscased member is no bad_request",
       case="nested-member-ignored", requirements=["PROTO-ERROR-003", "PROTO-ERROR-005"])
def comment_nested_ignored(ref, req, answer, dup):
    cit = req["input"].get("citation")
    if not isinstance(cit, dict) or all(k in CITATION_MEMBERS for k in cit):
        return None
    known = {k: v for k, v in cit.items() if k in CITATION_MEMBERS}
    mine = ref.call({**req, "input": {**req["input"], "citation": known}})
    mine["id"] = answer.get("id")
    return mine


# the spec's whitespace (QUOTE-ANCHOR-003) as a Python class, so that only the count is wrong
QUOTE_SPACE = re.compile("[\t-\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


@model("loop-once@quote.normalize", ["quote.normalize"],
       "collapses whitespace with QUOTE_SPACE.sub(\" \", text, count=1): only the first run becomes a space",
       case="loop-once", requirements=["QUOTE-ANCHOR-004"])
def normalize_once(ref, req, answer, dup):
    text = req["input"].get("text")
    if output(answer, "text") is None or not isinstance(text, str):
        return None
    return {"id": answer.get("id"), "output": {"text": QUOTE_SPACE.sub(" ", scalars(text), count=1)}}


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
