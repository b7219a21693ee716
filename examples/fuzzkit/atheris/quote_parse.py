"""A small quote.parse, written for the fuzz kit's check: it follows the main
rules of spec/quote-link.md, not all of them, and carries one planted bug
(PLANTED below): a '%' within the last two characters of a value is read
past the end of the string, which raises IndexError. The Atheris target in
fuzz_quote_parse.py must find it."""

KEYS = ("text", "start", "end", "prefix", "suffix", "comment")
PREFIX = "t3-citation://v1/"
MAX_SAFE = 2**53 - 1


class Refused(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def units(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def pct_decode(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == "%":
            pair = s[i + 1] + s[i + 2]  # PLANTED: no check that two characters follow
            try:
                out.append(int(pair, 16))
            except ValueError:
                raise Refused("QUOTE_PERCENT_ENCODING")
            i += 3
        else:
            out += s[i].encode("utf-8")
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("QUOTE_PERCENT_ENCODING")


def offset(v):
    if not (1 <= len(v) <= 16) or not v.isascii() or not v.isdigit():
        raise Refused("QUOTE_OFFSET_SYNTAX")
    n = int(v)
    if n > MAX_SAFE:
        raise Refused("QUOTE_OFFSET_RANGE")
    return n


def parse(href):
    """Returns {"citation": {...}} or {"rejected": {"code": ...}}."""
    try:
        return {"citation": _parse(href)}
    except Refused as r:
        return {"rejected": {"code": r.code}}


def _parse(href):
    if not href.startswith(PREFIX):
        raise Refused("QUOTE_SCHEME")
    if units(href) > 160000:
        raise Refused("QUOTE_HREF_TOO_LONG")
    if any(not ("\x21" <= c <= "\x7e") for c in href):
        raise Refused("QUOTE_INVALID_CHARACTER")
    if "#" in href:
        raise Refused("QUOTE_FRAGMENT")
    path, _, query = href[len(PREFIX):].partition("?")
    segments = path.split("/")
    if len(segments) != 3:
        raise Refused("QUOTE_PATH")
    ids = [pct_decode(s).strip() for s in segments]
    for i in ids:
        if not i:
            raise Refused("QUOTE_ID_EMPTY")
        if i in (".", ".."):
            raise Refused("QUOTE_DOT_SEGMENT")
        if units(i) > 512:
            raise Refused("QUOTE_ID_TOO_LONG")
    fields = {}
    for part in query.split("&") if query else []:
        if "=" not in part:
            raise Refused("QUOTE_BARE_FIELD")
        key, value = part.split("=", 1)
        key, value = pct_decode(key.replace("+", " ")), pct_decode(value.replace("+", " "))
        if key not in KEYS:
            raise Refused("QUOTE_UNKNOWN_FIELD")
        if key in fields:
            raise Refused("QUOTE_DUPLICATE_FIELD")
        fields[key] = value
    if any(k not in fields for k in ("text", "start", "end", "prefix", "suffix")):
        raise Refused("QUOTE_MISSING_FIELD")
    if not fields["text"].strip():
        raise Refused("QUOTE_TEXT_EMPTY")
    if units(fields["text"]) > 8000:
        raise Refused("QUOTE_TEXT_TOO_LONG")
    if "comment" in fields and units(fields["comment"]) > 8000:
        raise Refused("QUOTE_COMMENT_TOO_LONG")
    start, end = offset(fields["start"]), offset(fields["end"])
    if end <= start:
        raise Refused("QUOTE_OFFSET_ORDER")
    if units(fields["prefix"]) > 32 or units(fields["suffix"]) > 32:
        raise Refused("QUOTE_CONTEXT_TOO_LONG")
    citation = {"version": 1, "environmentId": ids[0], "threadId": ids[1], "messageId": ids[2], "text": fields["text"]}
    if "comment" in fields:
        citation["comment"] = fields["comment"]
    citation.update({"start": start, "end": end, "prefix": fields["prefix"], "suffix": fields["suffix"]})
    return citation
