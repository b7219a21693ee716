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
      if (mine === undefined || mine === null) return out(first);
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
