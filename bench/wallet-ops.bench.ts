/**
 * The slow wallet and market operations of issue 24 on a prepared world store, each over the busiest wallets or
 * markets, in a fresh service each: the first request's time (p50 / max over the first 20 wallets), throughput with
 * 10 connections (autocannon), and p50/p99 at a fixed 200 requests/s (open loop):
 *   BENCH_DIR=… npm run bench wallet-ops           (BENCH_FILLS=1000000 for the smaller world; BENCH_SECONDS per run, default 4)
 *   BENCH_ONLY=whale-matches,last-moves npm run bench wallet-ops
 */
import { performance } from "node:perf_hooks";
import { loadConfig } from "../src/config/index.js";
import { openStore } from "../src/store/database.js";
import { load, startService } from "./support/http-load.js";
import { openLoop } from "./support/open-loop.js";
import { prepareWorldStore } from "./support/world-store.js";

const FILLS = Number(process.env.BENCH_FILLS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ONLY = process.env.BENCH_ONLY?.split(",");
const BUSIEST = 200;
const FIRSTS = 20;
const RATE = 200;

const { dataDir, sqlitePath } = await prepareWorldStore(FILLS);

async function busiest() {
  const config = loadConfig({ DATA_DIR: dataDir });
  const store = await openStore({ kind: "sqlite", sqlitePath, sqliteCacheMb: config.store.sqliteCacheMb });
  try {
    const wallets = (await store.db.selectFrom("wallet_stats").select("wallet").orderBy("total_trades", "desc").limit(BUSIEST).execute()).map((r) => r.wallet);
    const markets = (await store.db.selectFrom("market_stats as s").innerJoin("markets as m", "m.condition_id", "s.condition_id").select("m.id").orderBy("s.trades", "desc").limit(BUSIEST).execute()).map((r) => r.id);
    return { wallets, markets };
  } finally {
    await store.close();
  }
}

const { wallets, markets } = await busiest();
const walletOp = (path: string) => wallets.map((w) => `/api/v2/wallet/${w}/${path}`);
const operations: Array<{ key: string; paths: string[] }> = [
  { key: "missed-opportunities", paths: walletOp("missed-opportunities") },
  { key: "whale-matches", paths: walletOp("whale-matches") },
  { key: "active-whale-markets", paths: walletOp("active-whale-markets") },
  { key: "last-moves", paths: walletOp("last-moves") },
  { key: "fees", paths: walletOp("fees") },
  { key: "closed", paths: walletOp("closed") },
  { key: "market-trades", paths: markets.map((m) => `/api/v2/market/${m}/trades`) },
  { key: "positions", paths: walletOp("positions") },
  { key: "insights", paths: walletOp("insights") },
  { key: "whale-clusters", paths: ["/api/analytics/whale-clusters"] },
  { key: "alignment", paths: walletOp("alignment") },
  { key: "highlights", paths: walletOp("highlights") },
  { key: "closed-insights", paths: walletOp("closed-insights") },
];

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const headers = { "accept-encoding": "gzip, deflate" };
console.log(`wallet and market operations on the ${fmt(FILLS)}-fill world, ${BUSIEST} busiest wallets/markets; ${SECONDS} s per run`);
console.log("| operation | req/s (10 connections) | p50 / p99 at 200 req/s | first request p50 / max |");
console.log("|---|---|---|---|");
for (const op of operations.filter((o) => !ONLY || ONLY.includes(o.key))) {
  const service = await startService(dataDir);
  try {
    const firsts: number[] = [];
    for (const path of op.paths.slice(0, FIRSTS)) {
      const started = performance.now();
      const answer = await fetch(service.url + path, { headers });
      await answer.arrayBuffer();
      firsts.push(performance.now() - started);
    }
    firsts.sort((a, b) => a - b);
    const max = await load(service.url, { label: op.key, paths: op.paths, headers }, { seconds: SECONDS, connections: 10 });
    // A fixed rate the operation cannot sustain would only measure its queue (and overflow the open-loop client).
    const fixed = max.rps >= 1.25 * RATE ? await openLoop(service.url, { paths: op.paths, headers, rate: RATE, seconds: SECONDS }) : undefined;
    const non2xx = max.non2xx + (fixed?.non2xx ?? 0);
    const latency = fixed ? `${fmt(fixed.p50, 1)} / ${fmt(fixed.p99, 1)} ms` : "not run (throughput under 250 req/s)";
    console.log(`| ${op.key} | ${fmt(max.rps)} | ${latency} | ${fmt(firsts[Math.floor(firsts.length / 2)]!, 0)} / ${fmt(firsts[firsts.length - 1]!, 0)} ms |${non2xx > 0 ? ` [${non2xx} non-2xx]` : ""}`);
  } finally {
    await service.close();
  }
}
