# The Python probe of 'make platform' (tools/platformtables reads what it prints): runs each
# Python built-in a port would reach for over every code point (surrogates excluded), or over the
# spellings of inputs.json, and prints a line "row" and the built-in as JSON, then one line a code
# point ("cp", hex, JSON answer), a probe of a splitter ("line", name, JSON lines) or a spelling
# ("map", JSON spelling, JSON answer).
# Usage: python3 probe.py inputs.json
import json
import platform
import re
import sys
import unicodedata
import urllib.parse

inputs = json.load(open(sys.argv[1], encoding="utf-8"))
version = "Python " + platform.python_version()
note = "Unicode " + unicodedata.unidata_version
split_probes = {"CRLF": "a\r\nb", "final LF": "a\n", "final CRLF": "a\r\n", "final CR": "a\r", "empty": "", "empty line": "a\n\nb"}
out = []


def flush():
    sys.stdout.write("".join(out))
    out.clear()


def js(v):
    return json.dumps(v, ensure_ascii=False)


def row(key, name, kind):
    flush()
    out.append("row\t" + js({"key": "python:" + key, "language": "python", "name": name, "version": version,
                              "how": "measured", "kind": kind, "note": note}) + "\n")


def cp(c, v):
    out.append("cp\t%X\t%s\n" % (c, js(v)))


def chars():
    for c in range(0x110000):
        if not 0xD800 <= c <= 0xDFFF:
            yield c, chr(c)


def members(key, name, kind, is_member):
    row(key, name, kind)
    for c, s in chars():
        if is_member(s):
            cp(c, "")


def forms(key, name, kind, last, enc):
    row(key, name, kind)
    for c, s in chars():
        if c > last:
            break
        f = enc(s)
        if f != s:
            cp(c, f)


def split(key, name, f):
    members(key, name, "split", lambda s: f("a" + s + "b") == ["a", "b"])
    for n, s in split_probes.items():
        out.append("line\t%s\t%s\n" % (n, js(f(s))))


def is_ascii(s):
    return s != "" and s.isascii()


def fold(key, name, match):
    row(key, name, "fold")
    for c, s in chars():
        if c >= 0x80:
            m = match(s)
            if m:
                cp(c, m)


def via_case(f):
    return lambda s: f(s).lower() if is_ascii(f(s)) else ""


def via_re(flags):
    any_letter = re.compile("[a-z]", flags)
    one = [(chr(l), re.compile(chr(l), flags)) for l in range(ord("a"), ord("z") + 1)]

    def match(s):
        if not any_letter.fullmatch(s):
            return ""
        return next((l for l, p in one if p.fullmatch(s)), "")
    return match


def digit(key, name, is_digit, value):
    row(key, name, "digit")
    for c, s in chars():
        if is_digit(s):
            cp(c, str(value(s)))


def parse_int(s):
    try:
        return str(int(s))
    except ValueError:
        return "refused"


space = re.compile(r"\s")
members("str.isspace", "c.isspace()", "set", str.isspace)
members("re.\\s", "re.compile(r\"\\s\")", "set", lambda s: space.match(s) is not None)
members("str.split", "s.split()", "set", lambda s: len(("a" + s + "b").split()) == 2)
members("unicodedata.category==Cc", "unicodedata.category(c) == \"Cc\"", "set", lambda s: unicodedata.category(s) == "Cc")
members("str.strip", "s.strip()", "strip", lambda s: (s + "x" + s).strip() == "x")
split("str.splitlines", "s.splitlines()", str.splitlines)
split("str.split(\"\\n\")", "s.split(\"\\n\")", lambda s: s.split("\n"))
digit("str.isdigit", "c.isdigit() and unicodedata.digit(c)", str.isdigit, unicodedata.digit)
digit("str.isdecimal", "c.isdecimal() and unicodedata.decimal(c)", str.isdecimal, unicodedata.decimal)
digit_re = re.compile(r"\d")
digit("re.\\d", "re.compile(r\"\\d\")", lambda s: digit_re.match(s) is not None, unicodedata.decimal)
row("int", "int(s)", "parse")
for s in inputs["spellings"]:
    out.append("map\t%s\t%s\n" % (js(s), js(parse_int(s))))
fold("str.lower", "a.lower() == b.lower()", via_case(str.lower))
fold("str.upper", "a.upper() == b.upper()", via_case(str.upper))
fold("str.casefold", "a.casefold() == b.casefold()", via_case(str.casefold))
fold("re.IGNORECASE", "re.compile(x, re.IGNORECASE)", via_re(re.IGNORECASE))
forms("json.dumps", "json.dumps(s)", "escape", 0x10FFFF, lambda s: json.dumps(s)[1:-1])
forms("json.dumps(ensure_ascii=False)", "json.dumps(s, ensure_ascii=False)", "escape", 0x10FFFF,
      lambda s: json.dumps(s, ensure_ascii=False)[1:-1])
forms("urllib.parse.quote", "urllib.parse.quote(s)", "percent", 0x7F, urllib.parse.quote)
forms("urllib.parse.quote(safe='')", "urllib.parse.quote(s, safe=\"\")", "percent", 0x7F, lambda s: urllib.parse.quote(s, safe=""))
forms("urllib.parse.quote_plus", "urllib.parse.quote_plus(s)", "percent", 0x7F, urllib.parse.quote_plus)
forms("urllib.parse.urlencode", "urllib.parse.urlencode({\"k\": s})", "percent", 0x7F, lambda s: urllib.parse.urlencode({"k": s})[2:])
flush()
