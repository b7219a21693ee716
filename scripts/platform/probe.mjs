// The Node.js probe of 'make platform' (tools/platformtables reads what it prints): runs each
// JavaScript built-in a port would reach for over every code point (surrogates excluded), or over
// the spellings of inputs.json, and prints a line "row" and the built-in as JSON, then one line a
// code point ("cp", hex, JSON answer), a probe of a splitter ("line", name, JSON lines) or a
// spelling ("map", JSON spelling, JSON answer).
// Usage: node probe.mjs inputs.json
import { readFileSync, writeSync } from "node:fs";

const inputs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const version = "Node.js " + process.versions.node;
const note = `V8 ${process.versions.v8}, ICU ${process.versions.icu}, Unicode ${process.versions.unicode}`;
const splitProbes = {
  "CRLF": "a\r\nb", "final LF": "a\n", "final CRLF": "a\r\n", "final CR": "a\r", "empty": "", "empty line": "a\n\nb",
};
let out = [];
const flush = () => { writeSync(1, out.join("")); out = []; };
const row = (key, name, kind) => {
  flush();
  out.push("row\t" + JSON.stringify({ key: "javascript:" + key, language: "javascript", name, version, how: "measured", kind, note }) + "\n");
};
const cp = (c, v) => out.push("cp\t" + c.toString(16).toUpperCase() + "\t" + JSON.stringify(v) + "\n");
const each = (f) => {
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    f(c, String.fromCodePoint(c));
  }
};
const set = (key, name, kind, is) => { row(key, name, kind); each((c, s) => { if (is(s)) cp(c, ""); }); };
const forms = (key, name, kind, last, enc) => {
  row(key, name, kind);
  each((c, s) => { if (c <= last) { const f = enc(s); if (f !== s) cp(c, f); } });
};
const split = (key, name, f) => {
  set(key, name, "split", (s) => { const l = f("a" + s + "b"); return l.length === 2 && l[0] === "a" && l[1] === "b"; });
  for (const [n, s] of Object.entries(splitProbes)) out.push("line\t" + n + "\t" + JSON.stringify(f(s)) + "\n");
};
const ascii = (s) => s !== "" && /^[\x00-\x7f]+$/.test(s);
const fold = (key, name, match) => {
  row(key, name, "fold");
  each((c, s) => { if (c >= 0x80) { const m = match(s); if (m) cp(c, m); } });
};
const viaCase = (f) => (s) => { const m = f(s); return ascii(m) ? m.toLowerCase() : ""; };
const viaRegExp = (flags) => {
  const any = new RegExp("^[a-z]$", flags);
  const one = [..."abcdefghijklmnopqrstuvwxyz"].map((l) => [l, new RegExp("^" + l + "$", flags)]);
  return (s) => { if (!any.test(s)) return ""; for (const [l, re] of one) if (re.test(s)) return l; return ""; };
};
const parse = (key, name, f) => {
  row(key, name, "parse");
  for (const s of inputs.spellings) {
    const n = f(s);
    const a = Number.isNaN(n) ? "refused" : Number.isInteger(n) ? BigInt(n).toString() : String(n);
    out.push("map\t" + JSON.stringify(s) + "\t" + JSON.stringify(a) + "\n");
  }
};

set("/\\s/", "/\\s/.test(c)", "set", (s) => /\s/.test(s));
set("/\\s/u", "/\\s/u.test(c)", "set", (s) => /\s/u.test(s));
set("/\\p{Cc}/u", "/\\p{Cc}/u.test(c)", "set", (s) => /\p{Cc}/u.test(s));
set("String.trim", "s.trim()", "strip", (s) => (s + "x" + s).trim() === "x");
set("String.trimStart", "s.trimStart()", "strip", (s) => (s + "x").trimStart() === "x");
set("String.trimEnd", "s.trimEnd()", "strip", (s) => ("x" + s).trimEnd() === "x");
split("split(/\\r?\\n/)", "s.split(/\\r?\\n/)", (s) => s.split(/\r?\n/));
split("split(\"\\n\")", "s.split(\"\\n\")", (s) => s.split("\n"));
row("/\\d/", "/\\d/.test(c)", "digit");
each((c, s) => { if (/\d/.test(s)) cp(c, String(parseInt(s, 10))); });
parse("parseInt(s,10)", "parseInt(s, 10)", (s) => parseInt(s, 10));
parse("Number(s)", "Number(s)", (s) => Number(s));
fold("toLowerCase", "a.toLowerCase() === b.toLowerCase()", viaCase((s) => s.toLowerCase()));
fold("toUpperCase", "a.toUpperCase() === b.toUpperCase()", viaCase((s) => s.toUpperCase()));
fold("/x/i", "new RegExp(x, \"i\")", viaRegExp("i"));
fold("/x/iu", "new RegExp(x, \"iu\")", viaRegExp("iu"));
forms("JSON.stringify", "JSON.stringify(s)", "escape", 0x10ffff, (s) => JSON.stringify(s).slice(1, -1));
forms("encodeURIComponent", "encodeURIComponent(s)", "percent", 0x7f, encodeURIComponent);
forms("encodeURI", "encodeURI(s)", "percent", 0x7f, encodeURI);
forms("URLSearchParams", "new URLSearchParams({k: s}).toString()", "percent", 0x7f, (s) => new URLSearchParams({ k: s }).toString().slice(2));
flush();
