#!/usr/bin/env node
// A minimal conform protocol v1 adapter for Node.js, standard library only.
//
// Copy this file, keep the loop, and fill OPS with your implementation's ops.
// conform runs it as a persistent child process:
//
//     conform run --stdio "node conform_adapter.js"
//
// Protocol v1 in one paragraph (spec/protocol.md has the rules): one JSON
// request per line on stdin, {"id", "op", "input"}; one JSON answer per line
// on stdout, {"id", "output"} or {"id", "error": {"kind", "message"}} with
// kind "unsupported", "bad_request" or "internal". Echo the id unchanged. A
// refusal of the input is an output ({"rejected": {"code": ...}}), never an
// error. Ignore request members you do not know. Exit when stdin ends. Log to
// stderr only.
'use strict';

const readline = require('node:readline');

const NAME = 'conform-node-example';
const VERSION = '0.1.0';

class BadRequest extends Error {}

// JavaScript's \s is exactly the whitespace of quote.normalize
// (spec/quote-anchor.md); a lone surrogate becomes U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function quoteNormalize(input) {
  const keys = Object.keys(input);
  if (keys.length !== 1 || typeof input.text !== 'string') {
    throw new BadRequest('input must be {"text": string}');
  }
  return { text: input.text.replace(LONE_SURROGATE, '\uFFFD').replace(/\s+/g, ' ') };
}

// The ops this adapter implements, and nothing else: hello lists exactly these.
const OPS = {
  'quote.normalize': quoteNormalize,
};

// JSON.parse keeps the last of two members silently, and a request or an
// input that names a member twice is a bad request (PROTO-ERROR-003):
// namedTwice reads the JSON text of the line and returns every member name
// an object repeats, each with the depth of that object (1: the request
// itself), in order. (An op whose input holds arbitrary JSON would check
// only the objects whose members it reads: PROTO-ERROR-005.)
function namedTwice(text) {
  const twice = [];
  const objects = []; // the names seen so far in each open object
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      let k = j + 1;
      while (' \t\r\n'.includes(text[k])) k++;
      const names = objects[objects.length - 1];
      if (text[k] === ':' && names) {
        const name = JSON.parse(text.slice(i, j + 1));
        if (names.has(name)) twice.push({ name, depth: objects.length });
        names.add(name);
      }
      i = j;
    } else if (c === '{') {
      objects.push(new Set());
    } else if (c === '}') {
      objects.pop();
    }
  }
  return twice;
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function answer(req, line) {
  if (!isObject(req)) {
    return { id: null, error: { kind: 'bad_request', message: 'not a request object' } };
  }
  const twice = namedTwice(line);
  if (twice.some((t) => t.depth === 1 && t.name === 'id')) {
    // Which of the two to echo is anybody's guess (PROTO-FRAME-009).
    return { id: null, error: { kind: 'bad_request', message: 'the request names its id twice' } };
  }
  // Number.isSafeInteger is PROTO-ID-005's test: 1.0 is the id 1, 1.5 and 2^53 are no ids.
  const id = req.id;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) {
    return { id: null, error: { kind: 'bad_request', message: 'id must be a string or an integer' } };
  }
  if (typeof req.op !== 'string' || !isObject(req.input)) {
    return { id, error: { kind: 'bad_request', message: 'op must be a string and input an object' } };
  }
  if (twice.length > 0) {
    return { id, error: { kind: 'bad_request', message: 'the request names a member twice: ' + twice[0].name } };
  }
  if (req.op === 'hello') {
    return { id, output: { protocol: 1, name: NAME, version: VERSION, language: 'javascript', ops: Object.keys(OPS).sort() } };
  }
  const handler = Object.hasOwn(OPS, req.op) ? OPS[req.op] : undefined;
  if (!handler) {
    return { id, error: { kind: 'unsupported', message: 'op not implemented: ' + req.op } };
  }
  try {
    return { id, output: handler(req.input) };
  } catch (e) {
    const kind = e instanceof BadRequest ? 'bad_request' : 'internal';
    return { id, error: { kind, message: String(e && e.message) } };
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  // A line of JSON white space only gets no answer (PROTO-FRAME-008); trim()
  // would also drop a line of U+00A0 or U+FEFF, which is not JSON.
  if (/^[ \t\r]*$/.test(line)) return;
  let resp;
  try {
    resp = answer(JSON.parse(line), line);
  } catch (e) {
    resp = { id: null, error: { kind: 'bad_request', message: 'not JSON: ' + e.message } };
  }
  // JSON.stringify escapes lone surrogates, so the line is valid UTF-8.
  process.stdout.write(JSON.stringify(resp) + '\n');
});
// When stdin ends, readline closes and Node exits once stdout is written.
