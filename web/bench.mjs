// bench.mjs: the engine's speed in WebAssembly, as c4solve bench -nobook
// -threads 1 measures the native build's: each position of a benchmark
// file ("moves score" lines) solved from an empty table, without the book.
//
//   node bench.mjs FILE [SIZE] [N]    the first N lines (all by default), on SIZE (7x6 by default)
//
// In a browser, import it beside c4solve.mjs and call bench(lines, {size}).
import { solve } from "./c4solve.mjs";

// bench solves the positions of lines ("moves score") and resolves to
// their count, the scores that differ from the lines', and the nodes and
// seconds of the solves, summed.
export async function bench(lines, { size = "" } = {}) {
  const r = { positions: 0, wrong: 0, nodes: 0, seconds: 0 };
  for (const line of lines) {
    const [pos, score] = line.split(" ");
    const got = await solve(pos, { size, nobook: true, clear: true });
    r.positions++;
    r.wrong += got.score !== Number(score);
    r.nodes += got.nodes;
    r.seconds += got.seconds;
  }
  return r;
}

if (typeof process === "object" && process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const [file, size = "", n = "0"] = process.argv.slice(2);
  const { readFileSync } = await import("node:fs");
  let lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  if (Number(n) > 0) lines = lines.slice(0, Number(n));
  const r = await bench(lines, { size });
  console.log(`${file}: ${r.positions} positions, ${r.wrong} wrong, mean ${(r.seconds / r.positions).toFixed(4)} s, ` +
    `mean nodes ${Math.round(r.nodes / r.positions)}, ${(r.nodes / r.seconds / 1e6).toFixed(2)} M nodes/s`);
  if (r.wrong > 0) process.exit(1);
}
