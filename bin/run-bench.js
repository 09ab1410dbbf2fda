#!/usr/bin/env node
// `npm run bench [name ...]`: runs every bench/*.bench.ts (or the named ones) one after another, each in
// its own process so that one benchmark's heap does not disturb the next. Each prints its own figures.
// First it prints this machine's speed on two fixed workloads: the shared machines' speed changes from day to
// day (2-3x seen), so figures from different days compare only through it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

function calibration() {
  let started = performance.now();
  let a = 1;
  for (let i = 0; i < 100_000_000; i++) a = (Math.imul(a, 1_103_515_245) + 12_345) >>> 0;
  const loopMs = performance.now() - started;
  const block = Buffer.alloc(1 << 20, a & 0xff);
  started = performance.now();
  const hash = createHash("sha256");
  for (let i = 0; i < 256; i++) hash.update(block);
  hash.digest();
  const hashMs = performance.now() - started;
  const fmt = (n) => Math.round(n).toLocaleString("en-US");
  console.log(
    `machine calibration: integer loop ${fmt(100_000 / loopMs)} M steps/s; sha256 ${fmt(256_000 / hashMs)} MB/s (one core)`,
  );
}

calibration();

const dir = fileURLToPath(new URL("../bench/", import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", dir + file], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
