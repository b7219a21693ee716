// Port models in JavaScript (Node.js 20, no packages): the reference behind a proxy that does one
// behaviour the way a JavaScript port would, with the built-in called at run time (issue 45).
//
//   node models.mjs MODEL   speak protocol v1 on stdin/stdout, the reference being the child
//                           started with the command in CONFORM_REFERENCE
//   node models.mjs --list  one JSON object per line, per model
//
// The proxy forwards every request line to the reference as written (the raw bytes) and writes
// back its answer, except where the model's slip applies: there it answers itself. A model calls
// the reference with the raw line first and keeps any error it answers (a wrong shape, a member
// named twice), so that its slip is the only difference from the reference.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

// ---- the proxy

class Reference {
  constructor(command) {
    const argv = command.trim().split(/ +/);
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.child.on("error", (e) => fail(`CONFORM_REFERENCE: ${e.message}`));
    this.child.on("exit", (code) => process.exit(code ?? 1));
    this.buf = Buffer.alloc(0);
    this.waiting = [];
    this.child.stdout.on("data", (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      let i;
      while ((i = this.buf.indexOf(10)) >= 0) {
        const line = this.buf.subarray(0, i);
        this.buf = this.buf.subarray(i + 1);
        this.waiting.shift()(line);
      }
    });
  }
  // raw sends one line (a Buffer or string, without its LF) and resolves to the answer line.
  raw(line) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from("\n")]));
    });
  }
  async call(req) {
    return JSON.parse((await this.raw(JSON.stringify(req))).toString("utf8"));
  }
  async op(op, input) {
    const a = await this.call({ id: "portmodel", op, input });
    delete a.id;
    return a;
  }
}

function fail(msg) {
  process.stderr.write(`models.mjs: ${msg}\n`);
  process.exit(2);
}

// isBlank is PROTO-FRAME-008's test: only JSON white space a line can hold.
const isBlank = (s) => /^[ \t\r]*$/.test(s);

async function serve(model) {
  const cmd = process.env.CONFORM_REFERENCE;
  if (!cmd) fail("CONFORM_REFERENCE is not set (the command of the reference, e.g. \"conform serve --stdio\")");
  const ref = new Reference(cmd);
  const out = (b) => process.stdout.write(Buffer.concat([Buffer.from(b), Buffer.from("\n")]));
  let chain = Promise.resolve();
  let buf = Buffer.alloc(0);
  const handle = async (line) => {
    const text = line.toString("utf8");
    if (model.line) {
      const a = await model.line(text, line, ref);
      if (a !== undefined) {
        if (a !== null) out(a);
        return;
      }
    }
    if (isBlank(text)) return;
    let req;
    try {
      req = JSON.parse(text);
    } catch {
      req = undefined;
    }
    if (model.answer && req && typeof req === "object" && !Array.isArray(req) && typeof req.op === "string") {
      const first = await ref.raw(line);
      const a = JSON.parse(first.toString("utf8"));
      if (a.error) return out(first);
      let mine;
      try {
        mine = await model.answer(req, a, ref);
      } catch (e) {
        mine = { error: { kind: "internal", message: String(e && e.stack || e) } };
      }
      if (!mine) return out(first);
      return out(JSON.stringify({ id: a.id, ...mine }));
    }
    out(await ref.raw(line));
  };
  process.stdin.on("data", (d) => {
    buf = Buffer.concat([buf, d]);
    let i;
    while ((i = buf.indexOf(10)) >= 0) {
      const line = buf.subarray(0, i);
      buf = buf.subarray(i + 1);
      chain = chain.then(() => handle(line));
    }
  });
  process.stdin.on("end", () => {
    if (buf.length) {
      const line = buf;
      chain = chain.then(() => handle(line));
    }
    chain.then(() => ref.child.stdin.end());
  });
}

// ---- the models

const MODELS = [];
function model(m) {
  MODELS.push(m);
}

// identity forwards everything: it passes the whole corpus, which shows the proxy is faithful.
model({ model: "identity", row: null, class: null, ops: [], requirements: [], slip: "none: every request goes to the reference" });


// ---- helpers shared by the models

const PLATFORM = join(HERE, "../../../spec/data/platform.jsonl");

// selrefLabel is SELREF-LABEL-002 and -005 to -007 after a collapse done by the model: the space
// at either end removed, then the cap of 200 units with the ellipsis.
function selrefLabel(collapsed) {
  let label = collapsed.replace(/^ /, "").replace(/ $/, "");
  if (label.length > 200) {
    let cut = 200;
    const u = label.charCodeAt(199);
    if (u >= 0xd800 && u <= 0xdbff) cut = 199;
    label = label.slice(0, cut).replace(/ $/, "") + "\u2026";
  }
  return label;
}

// ingestLabel answers selref.ingest with the label collapsed by collapse and the rest (the
// addresses) as the reference decides them.
async function ingestLabel(req, ref, collapse) {
  const inp = req.input;
  if (!inp || typeof inp !== "object") return;
  let label = inp.label ?? "";
  if (typeof label !== "string") return;
  label = selrefLabel(collapse(label.toWellFormed()));
  if (label === "") return { output: { dropped: { code: "SELREF_BLANK_LABEL" } } };
  const b = await ref.op("selref.ingest", { ...inp, label: "x" });
  if (b.output && b.output.reference) b.output.reference.label = label;
  return b;
}

const ADDRESSES = ["url", "vanceUri"];

// specTrim removes selref's trim characters (U+0000 to U+0020) from both ends.
const specTrim = (s) => s.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, "");

// userOriginAnswer answers marker.locate as a port whose user-origin test is isUser.
async function userOriginAnswer(req, a, ref, isUser) {
  const inp = req.input;
  if (!inp || typeof inp.data_part_id !== "string") return;
  const rejected = !!(a.output && a.output.rejected);
  const mine = isUser(inp.data_part_id);
  if (mine === rejected) return;
  if (mine) return { output: { rejected: { code: "MARKER_USER_ORIGIN" } } };
  return ref.op("marker.locate", { ...inp, data_part_id: "tool_data_model" });
}

// locateLines answers marker.locate's line ranges with the lines split gives.
function locateLines(req, a, split) {
  const inp = req.input;
  if (!inp || typeof inp.value !== "string" || typeof inp.locator !== "string") return;
  const o = a.output;
  if (!o || o.rejected || o.malformed || !(o.lines || o.resolved === false)) return;
  const m = /^L([1-9][0-9]*)(?:-L([1-9][0-9]*))?$/.exec(inp.locator);
  if (!m) return;
  const n = Number(m[1]);
  const k = Number(m[2] ?? m[1]);
  const lines = split(inp.value);
  if (n > k || k > lines.length) return { output: { resolved: false } };
  return { output: { resolved: true, lines: lines.slice(n - 1, k) } };
}

// rewriteOffsets rewrites the start and end of an href's query as parse reads them, in canonical
// digits, so that the reference takes what the port's parser took.
function rewriteOffsets(href, parse) {
  const q = href.indexOf("?");
  if (q < 0) return href;
  const fields = href.slice(q + 1).split("&").map((f) => {
    const eq = f.indexOf("=");
    if (eq < 0) return f;
    const k = f.slice(0, eq);
    if (k !== "start" && k !== "end") return f;
    let d;
    try {
      d = decodeURIComponent(f.slice(eq + 1).replace(/\+/g, " "));
    } catch {
      return f;
    }
    const n = parse(d);
    if (Number.isSafeInteger(n) && n >= 0 && String(n) !== d) return `${k}=${n}`;
    return f;
  });
  return href.slice(0, q + 1) + fields.join("&");
}

// reencodeHref writes a reference's href again with the ids encoded by path and the query values
// by query (each given the decoded value).
function reencodeHref(href, path, query) {
  const prefix = "t3-citation://v1/";
  if (!href.startsWith(prefix)) return href;
  const rest = href.slice(prefix.length);
  const q = rest.indexOf("?");
  const ids = (q < 0 ? rest : rest.slice(0, q)).split("/");
  const out = ids.map((x) => (path ? path(decodeURIComponent(x)) : x)).join("/");
  if (q < 0) return prefix + out;
  const fields = rest.slice(q + 1).split("&").map((f) => {
    const eq = f.indexOf("=");
    if (eq < 0 || !query) return f;
    return f.slice(0, eq + 1) + query(decodeURIComponent(f.slice(eq + 1).replace(/\+/g, " ")));
  });
  return prefix + out + "?" + fields.join("&");
}

function formatWith(path, query) {
  return (req, a) => {
    if (req.op !== "quote.format" || !a.output || typeof a.output.href !== "string") return;
    const old = a.output.href;
    const href = reencodeHref(old, path, query);
    const output = { ...a.output, href };
    if (typeof output.link === "string") output.link = output.link.split(old).join(href);
    return { output };
  };
}

// markerRetry answers marker.strip with the retry of MARKER-STRIP-010 decided by the port's blank
// test: the reference says whether the markers call for it (every one of user origin), with U+FEFF,
// which the spec's white space leaves out and JavaScript's takes, asked as a space.
async function markerRetry(req, a, ref, blank) {
  const inp = req.input;
  if (req.op !== "marker.strip" || !a.output || typeof a.output.text !== "string" || typeof inp.text !== "string") return;
  let calls = !!a.output.retry;
  if (!calls && inp.text.includes("\ufeff")) {
    const b = await ref.op("marker.strip", { ...inp, text: inp.text.replace(/\ufeff/g, " ") });
    calls = !!(b.output && b.output.retry);
  }
  const output = { ...a.output };
  delete output.retry;
  if (calls && blank(a.output.text)) output.retry = true;
  return { output };
}


// namesTwice reports whether JSON text (already valid) has an object naming a member twice. Only
// such a line is decoded and encoded again by the duplicate model: re-encoding any other line would
// change its number spellings too, which is another slip.
function namesTwice(text) {
  const stack = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, j + 1));
        const seen = stack[stack.length - 1];
        if (seen.has(key)) return true;
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === "{") {
      stack.push(new Set());
      expectKey = true;
    } else if (c === "[") {
      stack.push(null);
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ",") {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
  return false;
}

// ---- the models of table rows

// /\s/ as selref's label space: label.replace(/\s+/g, " ") keeps the controls and U+0085 that
// label space holds and collapses U+FEFF (SELREF-LABEL-001).
model({
  model: "javascript:/\\s/@selref.ingest", row: "javascript:/\\s/", class: "selref.label", ops: ["selref.ingest"],
  requirements: ["SELREF-LABEL-001", "SELREF-LABEL-004"],
  slip: "collapses the label's runs of /\\s/ (label.replace(/\\s+/g, \" \")), not of label space",
  answer: (req, a, ref) => req.op === "selref.ingest" && ingestLabel(req, ref, (s) => s.replace(/\s+/g, " ")),
});

// /\s/u as MARKER-STRIP-010's white space: /^\s*$/u.test(text) takes U+FEFF and not U+0085.
model({
  model: "javascript:/\\s/u@marker.strip", row: "javascript:/\\s/u", class: "marker.space", ops: ["marker.strip"],
  requirements: ["MARKER-STRIP-010"],
  slip: "tests the output text for white space with /^\\s*$/u.test(text) before asking for a retry",
  answer: (req, a, ref) => markerRetry(req, a, ref, (t) => /^\s*$/u.test(t)),
});

// trimStart and trimEnd as MARKER-STRIP-010's blank test: text.trimStart() === "".
model({
  model: "javascript:String.trimStart@marker.strip", row: "javascript:String.trimStart", class: "marker.space", ops: ["marker.strip"],
  requirements: ["MARKER-STRIP-010"],
  slip: "tests the output text for white space with text.trimStart() === \"\" before asking for a retry",
  answer: (req, a, ref) => markerRetry(req, a, ref, (t) => t.trimStart() === ""),
});
model({
  model: "javascript:String.trimEnd@marker.strip", row: "javascript:String.trimEnd", class: "marker.space", ops: ["marker.strip"],
  requirements: ["MARKER-STRIP-010"],
  slip: "tests the output text for white space with text.trimEnd() === \"\" before asking for a retry",
  answer: (req, a, ref) => markerRetry(req, a, ref, (t) => t.trimEnd() === ""),
});

// String.trim as selref's trim characters: url.trim() keeps the C0 controls U+0000 to U+0008 and
// U+000E to U+001F at the ends (then refused as address controls) and removes U+00A0, U+FEFF and
// the other Unicode spaces (SELREF-URL-001, SELREF-VANCE-001).
model({
  model: "javascript:String.trim@selref.ingest", row: "javascript:String.trim", class: "selref.trim", ops: ["selref.ingest"],
  requirements: ["SELREF-URL-001", "SELREF-VANCE-001"],
  slip: "trims the url and vanceUri with s.trim(), not of U+0000 to U+0020",
  answer: (req, a, ref) => {
    if (req.op !== "selref.ingest") return;
    const inp = { ...req.input };
    let changed = false;
    for (const k of ADDRESSES) {
      if (typeof inp[k] !== "string") continue;
      const t = inp[k].trim();
      // what is left at an end below U+0021 is a control: the port refuses the address.
      const v = /^[\x00-\x20]|[\x00-\x20]$/.test(t) ? null : t;
      if (v !== inp[k]) (inp[k] = v), (changed = true);
    }
    if (changed) return ref.op("selref.ingest", inp);
  },
});

// /\p{Cc}/u as selref's address controls: misses U+2028 and U+2029 (SELREF-URL-002, -VANCE-004).
model({
  model: "javascript:/\\p{Cc}/u@selref.ingest", row: "javascript:/\\p{Cc}/u", class: "selref.control", ops: ["selref.ingest"],
  requirements: ["SELREF-URL-002", "SELREF-VANCE-004"],
  slip: "refuses an address holding a control by /\\p{Cc}/u.test(s), which lets U+2028 and U+2029 through",
  answer: async (req, a, ref) => {
    if (req.op !== "selref.ingest") return;
    const inp = { ...req.input };
    const keep = {};
    for (const k of ADDRESSES) {
      if (typeof inp[k] !== "string") continue;
      const t = specTrim(inp[k].toWellFormed());
      if (/\p{Cc}/u.test(t) || !/[\u2028\u2029]/.test(t)) continue;
      // the port's check passes it: ask the rest of the gate with the separators as letters.
      keep[k] = t;
      inp[k] = t.replace(/[\u2028\u2029]/g, "x");
    }
    if (!Object.keys(keep).length) return;
    const b = await ref.op("selref.ingest", inp);
    const r = b.output && b.output.reference;
    for (const k of Object.keys(keep)) if (r && typeof r[k] === "string") r[k] = keep[k];
    return b;
  },
});

// toUpperCase as the url's scheme test: "maılto" and "httpſ" upper-case to MAILTO and HTTPS
// (SELREF-URL-004).
model({
  model: "javascript:toUpperCase@selref.ingest", row: "javascript:toUpperCase", class: "selref.scheme", ops: ["selref.ingest"],
  requirements: ["SELREF-URL-004"],
  slip: "compares the url's scheme with scheme.toUpperCase() === \"HTTP\" and the others: U+0131 and U+017F upper-case to I and S",
  answer: async (req, a, ref) => {
    if (req.op !== "selref.ingest" || !req.input || typeof req.input.url !== "string") return;
    const url = specTrim(req.input.url.toWellFormed());
    const colon = url.indexOf(":");
    if (colon <= 0) return;
    const scheme = url.slice(0, colon);
    const ascii = scheme.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const want = ["http", "https", "mailto"].find((w) => scheme.toUpperCase() === w.toUpperCase());
    if (!want || ascii === want) return;
    // the port's test passes it: ask the rest of the gate with the scheme it matched.
    const b = await ref.op("selref.ingest", { ...req.input, url: want + url.slice(colon) });
    const r = b.output && b.output.reference;
    if (r && typeof r.url === "string" && r.url.startsWith(want + ":")) r.url = scheme + r.url.slice(want.length);
    return b;
  },
});

// /x/iu as the user-origin test: /^user_(data|text)_/iu takes U+017F as s (MARKER-LOCATE-011).
model({
  model: "javascript:/x/iu@marker.locate", row: "javascript:/x/iu", class: "marker.user-origin", ops: ["marker.locate"],
  requirements: ["MARKER-LOCATE-011", "MARKER-STRIP-004"],
  slip: "tests a data_part_id for user origin with /^user_(data|text)_/iu, whose case folding takes U+017F for s",
  answer: (req, a, ref) => req.op === "marker.locate" && userOriginAnswer(req, a, ref, (id) => new RegExp("^user_(data|text)_", "iu").test(id)),
});

// split("\n") and split(/\r?\n/) as marker.locate's lines (MARKER-LOCATE-006, -012).
model({
  model: "javascript:split(\"\\n\")@marker.locate", row: "javascript:split(\"\\n\")", class: "marker.line", ops: ["marker.locate"],
  requirements: ["MARKER-LOCATE-006", "MARKER-LOCATE-012"],
  slip: "splits a string value into lines with value.split(\"\\n\"): CRs kept, a final LF starting a line, \"\" one line",
  answer: (req, a) => req.op === "marker.locate" && locateLines(req, a, (v) => v.split("\n")),
});
model({
  model: "javascript:split(/\\r?\\n/)@marker.locate", row: "javascript:split(/\\r?\\n/)", class: "marker.line", ops: ["marker.locate"],
  requirements: ["MARKER-LOCATE-006", "MARKER-LOCATE-012"],
  slip: "splits a string value into lines with value.split(/\\r?\\n/): a final LF starting a line, a final CR kept, \"\" one line",
  answer: (req, a) => req.op === "marker.locate" && locateLines(req, a, (v) => v.split(/\r?\n/)),
});

// Number(s) as a JSON Pointer's array index: "01", "+1", " 1", "1e0", "0x1" are indexes to it
// (MARKER-LOCATE-004).
model({
  model: "javascript:Number(s)@marker.locate", row: "javascript:Number(s)", class: "marker.index", ops: ["marker.locate"],
  requirements: ["MARKER-LOCATE-004"],
  slip: "reads a pointer token on an array with Number(token) and takes any integer it gives in range",
  answer: async (req, a, ref) => {
    const inp = req.input;
    if (req.op !== "marker.locate" || typeof inp.locator !== "string" || !inp.locator.startsWith("/")) return;
    if (!a.output || a.output.rejected || a.output.malformed) return;
    const tokens = inp.locator.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    let v = inp.value;
    let changed = false;
    for (let i = 0; i < tokens.length; i++) {
      if (Array.isArray(v)) {
        const n = Number(tokens[i]);
        if (!Number.isInteger(n) || n < 0 || n >= v.length) break;
        if (String(n) !== tokens[i]) (tokens[i] = String(n)), (changed = true);
        v = v[n];
      } else if (v && typeof v === "object" && Object.hasOwn(v, tokens[i])) {
        v = v[tokens[i]];
      } else break;
    }
    if (!changed) return;
    const locator = "/" + tokens.map((t) => t.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    return ref.op("marker.locate", { ...inp, locator });
  },
});

// parseInt(s, 10) as an href's offsets: "+1", " 1", "1.0", "1e0", 17 digits all read
// (QUOTE-LINK-044).
model({
  model: "javascript:parseInt(s,10)@quote.parse", row: "javascript:parseInt(s,10)", class: "quote.offset", ops: ["quote.parse"],
  requirements: ["QUOTE-LINK-044", "QUOTE-LINK-045"],
  slip: "reads an href's decoded start and end with parseInt(s, 10) and takes any safe integer it gives",
  answer: (req, a, ref) => {
    if (req.op !== "quote.parse" || typeof req.input.href !== "string") return;
    const href = rewriteOffsets(req.input.href, (d) => parseInt(d, 10));
    if (href !== req.input.href) return ref.op("quote.parse", { ...req.input, href });
  },
});

// JSON.stringify as the expansion block's data: <, > and & stay as they are (QUOTE-COMPOSE-017).
model({
  model: "javascript:JSON.stringify@quote.expand", row: "javascript:JSON.stringify", class: "quote.json", ops: ["quote.expand"],
  requirements: ["QUOTE-COMPOSE-016", "QUOTE-COMPOSE-017"],
  slip: "writes the block's data with JSON.stringify(data, null, 2) and no escape of <, > and & after it",
  answer: (req, a) => {
    if (req.op !== "quote.expand" || !a.output || typeof a.output.text !== "string") return;
    const t = a.output.text;
    const open = t.indexOf("<assistant_citations>");
    const close = t.lastIndexOf("</assistant_citations>");
    if (open < 0 || close < open) return;
    const from = t.indexOf("\n[", open);
    const to = t.lastIndexOf("]\n", close);
    if (from < 0 || to < from) return;
    const data = JSON.parse(t.slice(from + 1, to + 1));
    return { output: { ...a.output, text: t.slice(0, from + 1) + JSON.stringify(data, null, 2) + t.slice(to + 1) } };
  },
});

// The percent-encoders as quote.format's (QUOTE-LINK-010, QUOTE-LINK-011).
const urlSearchParams = (s) => new URLSearchParams({ k: s }).toString().slice(2);
model({
  model: "javascript:encodeURIComponent@quote.format", row: "javascript:encodeURIComponent", class: "quote.query", ops: ["quote.format"],
  requirements: ["QUOTE-LINK-010", "QUOTE-LINK-011"],
  slip: "encodes the ids and the query values with encodeURIComponent: ! ' ( ) * and ~ literal, a space %20",
  answer: formatWith(encodeURIComponent, encodeURIComponent),
});
model({
  model: "javascript:encodeURI@quote.format", row: "javascript:encodeURI", class: "quote.query", ops: ["quote.format"],
  requirements: ["QUOTE-LINK-010", "QUOTE-LINK-011"],
  slip: "encodes the ids and the query values with encodeURI: the reserved characters literal",
  answer: formatWith(encodeURI, encodeURI),
});
model({
  model: "javascript:URLSearchParams@quote.format", row: "javascript:URLSearchParams", class: "quote.path", ops: ["quote.format"],
  requirements: ["QUOTE-LINK-010"],
  slip: "encodes the path's ids as the query's values, with URLSearchParams: a space +, * literal, ~ %7E",
  answer: formatWith(urlSearchParams, null),
});

// ---- Chromium's element roles

// The roles of QUOTE-ANCHOR-008, -009 and -040 (the spec's side).
const SPEC_BLOCK = new Set("address article aside blockquote dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul".split(" "));
const SPEC_EXCLUDED = new Set("button input textarea select script style template noscript svg".split(" "));
const specRole = (n) => (n === "br" ? "line-break" : SPEC_BLOCK.has(n) ? "block" : SPEC_EXCLUDED.has(n) ? "excluded" : "inline");

// chromiumRoles reads a chromium row's element roles from spec/data/platform.jsonl: that is the
// measured built-in (getComputedStyle in Chromium), which Node cannot run.
function chromiumRoles(key) {
  for (const line of readFileSync(PLATFORM, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    const row = JSON.parse(line);
    if (row.key === key) return new Map(row.map.map(([name, role]) => [name, role]));
  }
  fail(`no row ${key} in ${PLATFORM}`);
}

// domTextAs answers quote.dom_text as a port whose roles are Chromium's: the reference is asked
// with every element whose role differs renamed to one of the port's role (div for a block, span
// for inline, wbr for a line break) or given the hidden attribute (excluded).
function domTextAs(key) {
  let roles;
  const as = { block: "div", inline: "span", "line-break": "wbr" };
  return (req, a, ref) => {
    if (req.op !== "quote.dom_text" || typeof req.input.html !== "string") return;
    roles ??= chromiumRoles(key);
    let changed = false;
    const html = req.input.html.replace(/<(\/?)([A-Za-z][^\s/>]*)/g, (all, end, name) => {
      const n = name.toLowerCase();
      const mine = roles.get(n) ?? "inline";
      if (mine === specRole(n)) return all;
      changed = true;
      if (mine === "excluded") return end ? all : `${all} hidden`;
      return `<${end}${as[mine]}`;
    });
    if (changed) return ref.op("quote.dom_text", { ...req.input, html });
  };
}
for (const key of ["chromium:display:block", "chromium:display!=inline"]) {
  model({
    model: `${key}@quote.dom_text`, row: key, class: "quote.elements", ops: ["quote.dom_text"],
    requirements: ["QUOTE-ANCHOR-008", "QUOTE-ANCHOR-009", "QUOTE-ANCHOR-040"],
    slip: `takes an element's role from Chromium's ${key.slice(9)} (the roles measured in Chromium, read from spec/data/platform.jsonl), not from the spec's lists`,
    answer: domTextAs(key),
  });
}

// ---- structural cases

// duplicate-member-last-wins: JSON.parse keeps the last of a member named twice, and the port
// does not check (PROTO-ERROR-003, PROTO-ERROR-005).
model({
  model: "duplicate-member-last-wins@quote.format", row: null, case: "duplicate-member-last-wins", class: null, ops: ["quote.format"],
  requirements: ["PROTO-ERROR-003", "PROTO-ERROR-005"],
  slip: "decodes the request with JSON.parse, which keeps the last of two members of one name, and never checks",
  line: async (text, raw, ref) => {
    let req;
    try {
      req = JSON.parse(text);
    } catch {
      return;
    }
    if (!req || req.op !== "quote.format" || !namesTwice(text)) return;
    return ref.raw(JSON.stringify(req));
  },
});

// loop-once: String.prototype.replace with a regex without the g flag replaces the first match
// only, where the spec says each run.
model({
  model: "loop-once@quote.normalize", row: null, case: "loop-once", class: null, ops: ["quote.normalize"],
  requirements: ["QUOTE-ANCHOR-004"],
  slip: "collapses with text.replace(/\\s+/, \" \"), no g flag: only the first run of whitespace",
  answer: (req, a) => {
    if (req.op !== "quote.normalize" || !a.output || typeof req.input.text !== "string") return;
    const t = req.input.text;
    if (t.replace(/\s+/g, " ") !== a.output.text) return;
    return { output: { ...a.output, text: t.replace(/\s+/, " ") } };
  },
});
const LABEL_SPACE = /[\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
model({
  model: "loop-once@selref.ingest", row: null, case: "loop-once", class: null, ops: ["selref.ingest"],
  requirements: ["SELREF-LABEL-001"],
  slip: "collapses the label with label.replace(/[label space]+/, \" \"), no g flag: only the first run",
  answer: (req, a, ref) => req.op === "selref.ingest" && ingestLabel(req, ref, (s) => s.replace(LABEL_SPACE, " ")),
});

// envelope-typed: a typed envelope decoder answers every bad request with id null, the id it
// could read lost with the envelope (PROTO-FRAME-006, PROTO-FRAME-009).
model({
  model: "envelope-typed@protocol", row: null, case: "envelope-typed", class: null, ops: [], check: "features",
  requirements: ["PROTO-FRAME-006", "PROTO-FRAME-009"],
  slip: "answers every bad_request with id null, the request's id never read apart from the envelope",
  line: async (text, raw, ref) => {
    if (isBlank(text)) return null;
    const b = await ref.raw(raw);
    const a = JSON.parse(b.toString("utf8"));
    if (!a.error || a.error.kind !== "bad_request") return b;
    return JSON.stringify({ ...a, id: null });
  },
});

// blank-line-answered: a blank line goes to JSON.parse and is answered bad_request (PROTO-FRAME-008).
model({
  model: "blank-line-answered@protocol", row: null, case: "blank-line-answered", class: null, ops: [], check: "features",
  requirements: ["PROTO-FRAME-008"],
  slip: "passes a blank line to JSON.parse and answers its failure with bad_request",
  line: async (text) => {
    if (!isBlank(text)) return;
    try {
      JSON.parse(text);
    } catch (e) {
      return JSON.stringify({ id: null, error: { kind: "bad_request", message: e.message } });
    }
  },
});
// ... or a line of U+00A0 (or U+FEFF, U+3000, VT, FF) skipped as blank by line.trim() === "".
model({
  model: "blank-line-answered@protocol:trim", row: null, case: "blank-line-answered", class: null, ops: [], check: "features",
  requirements: ["PROTO-FRAME-008", "PROTO-FRAME-006"],
  slip: "skips a line as blank when line.trim() === \"\", so a line of U+00A0 gets no answer",
  line: async (text) => (text.trim() === "" ? null : undefined),
});

// ---- main

const arg = process.argv[2];
if (arg === "--list") {
  for (const m of MODELS) {
    const o = { model: m.model, row: m.row, class: m.class, ops: m.ops, requirements: m.requirements, slip: m.slip };
    if (m.case) o.case = m.case;
    if (m.check) o.check = m.check;
    process.stdout.write(JSON.stringify(o) + "\n");
  }
} else {
  const m = MODELS.find((x) => x.model === arg);
  if (!m) fail(`usage: node models.mjs MODEL | --list; no model ${JSON.stringify(arg)}`);
  serve(m);
}
