// The Web Worker of c4solve.mjs in the browser: it runs the engine
// (c4solve.wasm, under Go's wasm_exec.js) off the page's thread, so that
// a search never freezes the page. Messages in: {config, module} once,
// the compiled WebAssembly.Module and globalThis.c4solveConfig; then
// {id, fn, args}, a call of globalThis.c4solve[fn](...args). Out: {id,
// value} or {id, error}.
importScripts("wasm_exec.js");

let engine; // a Promise of globalThis.c4solve, once the module came

onmessage = async (e) => {
  if (e.data.module) {
    globalThis.c4solveConfig = e.data.config;
    const go = new Go();
    engine = WebAssembly.instantiate(e.data.module, go.importObject).then((instance) => {
      go.run(instance);
      if (!globalThis.c4solve) throw new Error(globalThis.c4solveError || "the engine did not start");
      return globalThis.c4solve;
    });
    return;
  }
  const { id, fn, args } = e.data;
  try {
    const c4 = await engine;
    postMessage({ id, value: await c4[fn](...args) });
  } catch (err) {
    postMessage({ id, error: String(err && err.message || err) });
  }
};
