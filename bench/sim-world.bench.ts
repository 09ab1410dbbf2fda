/**
 * Generator throughput of the simulated venue's world: a default world (500 markets, 5,000 wallets, 300,000
 * fills, 180 days) and a 10,000,000-fill world (5,000 markets, 50,000 wallets). Prints seconds, fills/s and
 * peak RSS (sampled every 50 ms, and the kernel's high-water mark). Goal: 10M fills in under 2 minutes.
 *
 *   node --import tsx bench/sim-world.bench.ts [--only default|large]
 */
import { readFileSync } from "node:fs";
import { generateWorld } from "../src/sim/world/generate.js";
import { worldStats } from "../src/sim/world/stats.js";

const END = Date.UTC(2026, 10, 21) / 1000;
const MB = 1024 * 1024;

/** VmHWM from /proc (the process's peak resident set), when the platform has it. */
function kernelPeakRss(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function run(label: string, options: Parameters<typeof generateWorld>[0]): void {
  (globalThis as { gc?: () => void }).gc?.();
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const t0 = performance.now();
  const world = generateWorld(options);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const stats = worldStats(world);
  const heap = process.memoryUsage();
  console.log(
    [
      `${label}: ${world.fillCount.toLocaleString("en-US")} fills, ${world.matchCount.toLocaleString("en-US")} matches, ${world.opCount.toLocaleString("en-US")} ops`,
      `  ${seconds.toFixed(2)} s, ${Math.round(world.fillCount / seconds).toLocaleString("en-US")} fills/s`,
      `  peak RSS ${(peak / MB).toFixed(0)} MB (sampled), heap used ${(heap.heapUsed / MB).toFixed(0)} MB, array buffers ${(heap.arrayBuffers / MB).toFixed(0)} MB`,
      `  MINT ${(100 * stats.fillShareByType.MINT).toFixed(1)}%, NegRisk markets ${(100 * stats.negRiskShare).toFixed(1)}%, resolved ${(100 * stats.resolvedShare).toFixed(1)}%`,
    ].join("\n"),
  );
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
if (!only || only === "default") run("default world", { seed: 1, end: END });
// The synchronous generator starves the sampler timer; the kernel's high-water mark is the reliable figure.
if (!only || only === "large")
  run("10M-fill world", { seed: 1, end: END, markets: 5_000, wallets: 50_000, fills: 10_000_000 });
const hwm = kernelPeakRss();
if (hwm !== null) console.log(`process peak RSS (VmHWM) ${(hwm / MB).toFixed(0)} MB`);
