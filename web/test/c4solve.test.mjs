// The module's answers against the native command's, from files it wrote
// (testdata/web/README.md says how): node --test (npm test), after sh
// build.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { solve, analyze, bestMove, review } from "../c4solve.mjs";

const testdata = new URL("../../testdata/", import.meta.url);

// lines returns the lines of a file of testdata, less the empty ones.
function lines(name) {
  return readFileSync(new URL(name, testdata), "utf8").split("\n").filter((l) => l !== "");
}

// Benchmark lines, "moves score": the published 7x6 file's first 100, and
// 100 random positions of three other boards.
for (const [file, size] of [["benchmarks/Test_L1_R2", ""], ["web/random6x5.txt", "6x5"],
  ["web/random8x4.txt", "8x4"], ["web/random5x4.txt", "5x4"]]) {
  test(`solve: ${file}`, async () => {
    const want = lines(file).slice(0, 100);
    assert.equal(want.length, 100);
    for (const line of want) {
      const [pos, score] = line.split(" ");
      const got = await solve(pos, { size });
      assert.equal(got.pos, pos);
      assert.equal(got.score, Number(score), `${pos} on ${size || "7x6"}`);
      assert.ok(got.nodes >= 1 && got.seconds >= 0);
    }
  });
}

// The command's -analyze -pv -json lines: the service's /analyze answers
// the same fields, and the module's analyze resolves to them.
for (const [file, size] of [["web/analyze7x6.jsonl", ""], ["web/analyze6x5.jsonl", "6x5"]]) {
  test(`analyze, bestMove: ${file}`, async () => {
    for (const line of lines(file)) {
      const want = JSON.parse(line);
      const got = await analyze(want.pos, { size });
      for (const k of ["pos", "score", "scores", "best", "pv"]) {
        assert.deepEqual(got[k], want[k], `${want.pos} on ${size || "7x6"}: ${k}`);
      }
      const move = await bestMove(want.pos, { size });
      assert.equal(move.level, 10);
      assert.ok(move.exact && want.best.includes(move.column), `${want.pos}: perfect play ${move.column}; best ${want.best}`);
    }
  });
}

test("analyze: the empty board, and errors", async () => {
  assert.deepEqual((await analyze("")).scores, [-2, -1, 0, 1, 0, -1, -2]);
  await assert.rejects(solve("4444444"), /column 4 is full/);
  await assert.rejects(analyze("48"), /'8' is not a column 1-7/);
  await assert.rejects(solve("1", { size: "3x3" }), /3x3/);
  await assert.rejects(bestMove("44", { level: 11 }), /level "11"/);
});

test("bestMove: a level's choice is that of its seed", async () => {
  const a = await bestMove("4453", { level: 3, seed: 7 });
  const b = await bestMove("4453", { level: 3, seed: 7 });
  assert.equal(a.level, 3);
  assert.equal(a.column, b.column);
});

// The command's review -json lines (game, moves, players, turning points):
// /review answers the same, with the game as pos.
for (const [file, size] of [["web/review7x6.jsonl", ""], ["web/review6x5.jsonl", "6x5"]]) {
  test(`review: ${file}`, async () => {
    for (const line of lines(file)) {
      const want = JSON.parse(line);
      const got = await review(want.game, { size });
      assert.equal(got.pos, want.game);
      for (const k of ["moves", "players", "turning_points"]) {
        assert.deepEqual(got[k], want[k], `${want.game} on ${size || "7x6"}: ${k}`);
      }
    }
  });
}
