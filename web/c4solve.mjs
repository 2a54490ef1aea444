// c4solve.mjs: c4solve's solver as a JavaScript module, in node (18 and
// up) and in the browser, from the engine built for WebAssembly
// (c4solve.wasm and Go's wasm_exec.js beside this file: sh build.sh).
//
//   import { solve, analyze, bestMove, review } from "./c4solve.mjs";
//   await solve("4453")            // {pos: "4453", score: -2, nodes, seconds}, as c4solve -json
//   await analyze("4453")          // what GET /analyze?pos=4453 of c4solve serve answers
//   await bestMove("4453", {level: 5})   // GET /move
//   await review("4453", {size: "6x5"})  // GET /review
//
// Positions are the columns played, from 1, as the command takes them;
// size is "WxH" (7x6 when absent). A bad position rejects with the error
// the command or the server gives. In node the engine runs in this thread:
// a call holds it until its answer. In the browser it runs in Web Workers
// (worker.js), one by default: with more (configure), an analysis's moves
// are shared out among them, and other calls go to the first; each
// worker answers its calls one at a time, in order. A
// call given an AbortSignal ({signal}) that fires stops its search: its
// workers are ended, and the next call starts others, with empty tables.
// configure() sets the tables, the limit of the server's calls and the
// workers before the first call.

const inNode = typeof process === "object" && process.versions != null && process.versions.node != null &&
  typeof window === "undefined";

let config = { tableMiB: 64, timeoutSeconds: 0, workers: 0 };
let engine; // node: a Promise of globalThis.c4solve; browser: the WorkerEngines

// configure sets the engine's settings: tableMiB (each board's table),
// timeoutSeconds (analyze's, bestMove's and review's limit, as serve's
// -timeout: past it bestMove answers the best found, analyze the bounds
// found; 0 for none), workers (in a browser, the Web Workers that share an
// analysis's moves, each with its own table; 1 by default: one move's
// search is most of an analysis, and two workers measured no faster, see
// docs/web.md). It must come before the first call.
export function configure(settings) {
  if (engine) throw new Error("c4solve: configure must come before the first call");
  config = { ...config, ...settings };
}

// solve resolves to the exact score of pos, as c4solve -json prints it.
// nobook searches positions the book holds, as -nobook does; clear
// empties the table first, as c4solve bench does before each position.
export async function solve(pos, { size = "", nobook = false, clear = false, signal } = {}) {
  return JSON.parse(await call("solve", [String(pos), size, { nobook, clear }], signal));
}

// analyze resolves to each move's score, the best moves and the line of
// perfect play: GET /analyze's answer.
export function analyze(pos, { size = "", signal } = {}) {
  return get("analyze", { pos, size }, signal);
}

// bestMove resolves to the move of a player of level 1 to 10 (10, the
// default, plays perfectly): GET /move's answer. seed fixes a weaker
// level's choice among its moves.
export function bestMove(pos, { size = "", level = 10, seed, signal } = {}) {
  return get("move", { pos, size, level, seed }, signal);
}

// review resolves to the review of the game pos: GET /review's answer.
export function review(pos, { size = "", signal } = {}) {
  return get("review", { pos, size }, signal);
}

// request resolves to the server's answer to method url (a path with its
// query, "analyze?pos=4453"), body a POST's: {status, type, retryAfter,
// body}, type and retryAfter the headers', the body as text, whatever the
// status. The page of c4solve site asks this.
// In a browser with several workers (configure), GET analyze?... is
// answered by all of them (see analyzeSplit).
export function request(method, url, body = "", { signal } = {}) {
  if (!inNode && method === "GET" && workers().length > 1) {
    const q = new URL(url, "http://c4solve/").searchParams;
    if (url.startsWith("analyze?") && q.has("pos") && !q.has("width") && !q.has("height")) {
      return analyzeSplit(url, q.get("pos"), q.get("size") || "", signal);
    }
  }
  return call("request", [method, url, body], signal);
}

// analyzeSplit answers GET url, an /analyze of pos on the board size, as
// the service does, the moves shared out among the workers: each scores
// the next move not taken, center first, until none is left; then the
// one that scored the best move finds the line of perfect play, from the
// table that move's search filled. Past the time limit it answers the
// bounds found, as the service does. What the engine refuses (a bad
// position or board) the service answers, asked by the first worker: its
// error.
async function analyzeSplit(url, pos, size, signal) {
  const start = performance.now();
  const seconds = () => (performance.now() - start) / 1000;
  const limit = config.timeoutSeconds > 0 ? config.timeoutSeconds : 0;
  const left = () => (limit > 0 ? Math.max(limit - seconds(), 0.001) : 0);
  let order;
  try {
    order = await call("order", [pos, size], signal);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return call("request", ["GET", url, ""], signal);
  }
  const queue = order.cols.slice();
  const lows = Array(order.width).fill(null), highs = Array(order.width).fill(null);
  const by = Array(order.width); // the worker that scored each move
  let nodes = 0;
  await Promise.all(workers().map(async (w) => {
    while (queue.length > 0) {
      const r = await w.call("moves", [pos, size, [queue.shift()], left()], signal);
      nodes += r.nodes;
      for (const m of r.moves) [lows[m.col - 1], highs[m.col - 1], by[m.col - 1]] = [m.lo, m.hi, w];
    }
  }));
  const sum = await call("summary", [lows, highs], signal);
  const json = (v) => ({ status: 200, type: "application/json", body: JSON.stringify(v) + "\n" });
  const incomplete = (what) => json({
    pos, incomplete: true, lower: sum.lower, upper: sum.upper, lows, highs, best_found: sum.best_found,
    note: `${what} ${limit} s`, nodes, seconds: seconds(),
  });
  if (!sum.exact) return incomplete("not proved in");
  let line;
  try {
    line = await by[sum.best_found - 1].call("pv", [pos, size, sum.lower, left()], signal);
  } catch (err) {
    if (err.name === "AbortError" || limit === 0) throw err;
    return incomplete("every score proved; the line of perfect play not found in");
  }
  return json({ pos, score: sum.lower, scores: lows, best: sum.best, pv: line.pv, nodes: nodes + line.nodes, seconds: seconds() });
}

// get resolves to the JSON of GET path with the query of params (pos
// always, "" for the empty board; the others where not undefined nor ""),
// or rejects with the server's error.
async function get(path, params, signal) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (k === "pos" || v !== undefined && v !== "") q.set(k, String(v ?? ""));
  }
  const r = await request("GET", path + "?" + q, "", { signal });
  const v = JSON.parse(r.body);
  if (r.status !== 200 && !(r.status === 503 && v.incomplete)) {
    throw new Error(v.error || `${path}: status ${r.status}`);
  }
  return v;
}

// call calls the engine's fn: in node in this thread, in a browser in the
// first worker.
function call(fn, args, signal) {
  if (signal && signal.aborted) return Promise.reject(abortError());
  if (inNode) {
    engine ??= startInNode();
    return engine.then((c4) => c4[fn](...args));
  }
  return workers()[0].call(fn, args, signal);
}

// workers returns the browser's WorkerEngines, made at the first call:
// config.workers of them, at least one.
function workers() {
  engine ??= Array.from({ length: Math.max(1, config.workers) }, () => new WorkerEngine());
  return engine;
}

function abortError() {
  return new DOMException("the call was aborted", "AbortError");
}

async function startInNode() {
  globalThis.c4solveConfig = config;
  await import("./wasm_exec.js");
  const { readFile } = await import("node:fs/promises");
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(await readFile(new URL("./c4solve.wasm", import.meta.url)), go.importObject);
  go.run(instance); // returns once main waits for calls, c4solve set
  if (!globalThis.c4solve) throw new Error(globalThis.c4solveError || "c4solve: the engine did not start");
  return globalThis.c4solve;
}

// compiled is the engine's WebAssembly.Module, compiled once and given to
// each worker.
let compiled;

// WorkerEngine runs the engine in a Web Worker and answers calls in order.
class WorkerEngine {
  constructor() {
    this.pending = new Map(); // id -> {resolve, reject}
    this.next = 0;
    this.worker = null;
  }

  start() {
    compiled ??= WebAssembly.compileStreaming(fetch(new URL("./c4solve.wasm", import.meta.url)));
    const w = new Worker(new URL("./worker.js", import.meta.url));
    w.onmessage = (e) => {
      const p = this.pending.get(e.data.id);
      this.pending.delete(e.data.id);
      if (!p) return;
      if ("error" in e.data) p.reject(new Error(e.data.error));
      else p.resolve(e.data.value);
    };
    w.onerror = (e) => this.fail(new Error("c4solve: the engine's worker failed: " + (e.message || "no message")));
    this.worker = w;
    this.ready = compiled.then((module) => w.postMessage({ module, config }));
  }

  // fail rejects every call under way with err and ends the worker.
  fail(err) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  async call(fn, args, signal) {
    if (signal && signal.aborted) throw abortError();
    if (!this.worker) this.start();
    const id = this.next++;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    if (signal) {
      // The search cannot be told to stop: the worker's thread is in
      // it. Ending the worker stops it, and every call queued with it.
      signal.addEventListener("abort", () => { if (this.pending.has(id)) this.fail(abortError()); }, { once: true });
    }
    try {
      await this.ready;
      if (this.pending.has(id)) this.worker.postMessage({ id, fn, args });
    } catch (err) {
      this.fail(new Error("c4solve: the engine did not load: " + err.message));
    }
    return answer;
  }
}
