/**
 * Backfill throughput of ingest: `node --import tsx bench/ingest.bench.ts [--fills 10000000] [--batch 5000]
 * [--pg postgres://postgres@127.0.0.1:5432/test | --pg none] [--stores sqlite,pg] [--defer-indexes yes|no] [--background-checkpoints yes|no]
 * [--decode 150000]`.
 *
 * 1. Write path: the chain pipeline's commits in a first sync (BatchWriter: fills, the wallets they name, and the
 *    checkpoint, one transaction per batch; the fills' wallet and market indexes dropped first and built by the
 *    last batch, and so the fills' wallets, included in the time, unless `--defer-indexes no`) of a seeded synthetic history: matches of one
 *    to four makers plus the taker, Zipf-active wallets on Zipf-popular markets, increasing blocks; ids shaped as the
 *    venue's (addresses, condition ids and hashes random hex, position ids 77-digit decimals: how keys sort sets
 *    the cost of the index build; counter-like ids made PostgreSQL's 15% slower). Into a fresh
 *    SQLite file (the configured page cache) and into a fresh schema of PostgreSQL. Rates per tenth of the history
 *    show whether the rate holds as the table grows.
 * 2. CPU path: the same kind of history as the node's eth_getLogs answers (JSON text of 10,000 encoded exchange
 *    logs each), parsed, decoded (src/venue/chain/decoder.ts), settled (settleFills) and turned into rows, one answer
 *    at a time, on one core. The chain pipeline does this on the thread that also writes: on PostgreSQL it overlaps
 *    the server's work on the previous batch, on SQLite (a synchronous driver) it adds to the write time.
 * Prints fills/s for each, and the process's peak RSS. The whole pipeline (HTTP, shape checks, market lookups, the
 * ingest process as deployed) is measured by bench/backfill.bench.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { loadConfig } from "../src/config/index.js";
import { BatchWriter } from "../src/ingest/batch-writer.js";
import { chainFillRow } from "../src/ingest/chain-rows.js";
import { indexBuildMemory } from "../src/ingest/ingest.js";
import { EXCHANGE_V1, EXCHANGE_V2, matchEvents } from "../src/venue/testing/chain-events.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { openStore, type Store, type StoreTransaction } from "../src/store/database.js";
import { completeDeferredFills, dropDeferredFillIndexes, type NewFill } from "../src/store/fills.js";
import { migrateStore } from "../src/store/migrate.js";
import {
  decodeLog,
  encodeVenueLog as encodeLog,
  settleFills,
  type DecodedVenueLog,
  type Hex,
  type RawLog,
} from "../src/venue/index.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
/** As many fills as the 10,000,000-fill world of the other benches (about 5 minutes per store). */
const FILLS = Number(args.get("fills") ?? 10_000_000);
const PG_URL = args.get("pg") ?? "postgres://postgres@127.0.0.1:5432/test";
const DECODE = Number(args.get("decode") ?? 150_000);
/** `no`: the fills keep every index through the backfill (as a first sync shorter than INGEST_DEFER_INDEXES_BLOCKS). */
const DEFER_INDEXES = (args.get("defer-indexes") ?? "yes") !== "no";
/** Fills a commit holds: by default the chain pipeline's (INGEST_BATCH_RECORDS). */
const BATCH = Number(args.get("batch") ?? loadConfig(process.env).ingest.batchRecords);
/** `no`: SQLite checkpoints its WAL on the writing thread, as without src/store/wal-checkpointer.ts. */
const BACKGROUND_CHECKPOINTS = (args.get("background-checkpoints") ?? "yes") !== "no";
/** Which stores to measure: `sqlite,pg` (default), `sqlite` or `pg`. */
const STORES = new Set((args.get("stores") ?? "sqlite,pg").split(","));
const WALLETS = 200_000;
const MARKETS = 20_000;

/** mulberry32: small, fast, seeded. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
/** murmur3's 32-bit finalizer: a bijection, so the first word of an id below keeps ids distinct. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
/**
 * `0x` and `words` random-looking 32-bit words of `n` in hex: real addresses, condition ids and position ids are
 * hashes. One flat string: a string concatenated of many pieces costs the write path 100-300 ns to join at each
 * bind (measured), which the decoder's (`0x` and one slice of a log word) do not.
 */
const HASH_TEXT = Buffer.alloc(2 + 8 * 8);
function hashHex(n: number, words: number): string {
  HASH_TEXT.write("0x", 0, "latin1");
  for (let k = 0; k < words; k++) HASH_TEXT.write(hex(mix32(k === 0 ? n : n ^ mix32(k)), 8), 2 + k * 8, "latin1");
  return HASH_TEXT.toString("latin1", 0, 2 + words * 8);
}
// Made once: the history's rows share them (a decoder makes each anew, about 150 bytes more per fill alive).
const WALLET_IDS = Array.from({ length: WALLETS }, (_, i) => hashHex(i + 1, 5) as Hex);
const CONDITION_IDS = Array.from({ length: MARKETS }, (_, m) => hashHex(0x40000000 + m, 8));
const TOKEN_IDS = Array.from({ length: MARKETS * 2 }, (_, t) => BigInt(hashHex(0x60000000 + t, 8)).toString());
const walletAddress = (i: number) => WALLET_IDS[i]!;
const conditionOf = (m: number) => CONDITION_IDS[m]!;
const tokenOf = (m: number, outcome: number) => TOKEN_IDS[m * 2 + outcome]!;

/** A seeded history, batch by batch: each batch `BATCH` fills (whole matches), as the chain pipeline writes them. */
function* history(total: number, seed: number): Generator<NewFill[]> {
  const random = rng(seed);
  const zipf = (n: number, skew: number) => Math.min(n - 1, Math.floor(n * random() ** skew));
  let made = 0;
  let block = 81_000_000;
  let blockLogs = 0;
  let tx = 0;
  let batch: NewFill[] = [];
  while (made < total) {
    if (random() < 0.05) {
      block += 1;
      blockLogs = 0;
    }
    const ts = 1_767_225_600 + (block - 81_000_000) * 2;
    const market = zipf(MARKETS, 2.5);
    const makers = 1 + Math.floor(random() * random() * 4);
    const txHash = hashHex(++tx, 8);
    const takerOutcome = random() < 0.5 ? 0 : 1;
    const type = random() < 0.6 ? "MINT" : random() < 0.5 ? "COMPLEMENTARY" : "MERGE";
    for (let i = 0; i <= makers; i++) {
      const taker = i === makers;
      const outcome = taker || type === "COMPLEMENTARY" ? takerOutcome : 1 - takerOutcome;
      const size = 1_000_000 + Math.floor(random() * 500_000_000);
      const priceMicro = 10_000 + Math.floor(random() * 980_000);
      batch.push(
        chainFillRow(
          {
            txHash: txHash as Hex,
            logIndex: blockLogs + i,
            blockNumber: block,
            exchange: EXCHANGE_V2,
            exchangeVersion: "v2",
            orderHash: hashHex(0x20000000 + made + i, 8) as Hex,
            wallet: walletAddress(zipf(WALLETS, 3)),
            role: taker ? "TAKER" : "MAKER",
            counterparty: walletAddress(zipf(WALLETS, 3)),
            direction: type === "MERGE" ? "SELL" : "BUY",
            tokenId: tokenOf(market, outcome),
            sizeMicro: size,
            usdMicro: Math.floor((size * priceMicro) / 1e6),
            priceMicro,
            feeMicro: 0,
            feeAsset: "COLLATERAL",
            feeUsdMicro: taker ? Math.floor(size / 1000) : 0,
            entryType: type,
          },
          { conditionId: conditionOf(market), outcomeIndex: outcome },
          ts,
        ),
      );
    }
    made += makers + 1;
    // The makers' and the taker's OrderFilled, then OrdersMatched: log indexes count within the block.
    blockLogs += makers + 2;
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

const gc = (globalThis as { gc?: () => void }).gc;
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const logger = createLogger("silent");

async function measureWrites(label: string, store: Store): Promise<void> {
  const writer = new BatchWriter(store, new ManualClock(), logger);
  const cpuStart = process.cpuUsage();
  let written = 0;
  let busyMs = 0;
  let batches = 0;
  // The rate per tenth of the history: it should stay flat as the table grows.
  const tenth = Math.ceil(FILLS / 10);
  const tenths: string[] = [];
  let tenthStart = { written: 0, busyMs: 0 };
  if (DEFER_INDEXES) await store.transaction(dropDeferredFillIndexes);
  let indexMs = 0;
  const batchCount = Math.ceil(FILLS / BATCH);
  for (const batch of history(FILLS, 42)) {
    const started = performance.now();
    // As the chain pipeline's first sync: the batch that completes it builds the deferred indexes.
    const completes = DEFER_INDEXES && batches === batchCount - 1;
    const write = async (tx: StoreTransaction) => {
      const indexStarted = performance.now();
      await completeDeferredFills(tx, indexBuildMemory(loadConfig(process.env)), 0);
      indexMs = performance.now() - indexStarted;
    };
    const committed = await writer.commit({
      source: "chain-logs",
      cursor: `block:${batch.at(-1)!.block_number}`,
      fills: batch,
      fillWalletsLater: DEFER_INDEXES,
      write: completes ? write : undefined,
    });
    busyMs += performance.now() - started;
    written += committed.fills.length;
    batches += 1;
    if (written - tenthStart.written >= tenth) {
      tenths.push(`${Math.round((written - tenthStart.written) / ((busyMs - tenthStart.busyMs) / 1000) / 1000)}k`);
      tenthStart = { written, busyMs };
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  console.log(
    `${label}: ${written.toLocaleString("en-US")} fills in ${(busyMs / 1000).toFixed(1)} s = ${Math.round(written / (busyMs / 1000)).toLocaleString("en-US")} fills/s (${batches} batches of ${BATCH.toLocaleString("en-US")}; wallets and checkpoint included${DEFER_INDEXES ? `; wallet and market indexes and the fills' wallets built at the end in ${(indexMs / 1000).toFixed(1)} s, included` : ""})`,
  );
  console.log(`  this process's CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (history generation included)`);
  console.log(`  fills/s per tenth of the history: ${tenths.join(" ")}`);
}

/** Logs per eth_getLogs answer in the bench's decode path (a span of blocks as ChainClient asks for them). */
const LOGS_PER_ANSWER = 10_000;

/** The history as the exchanges' logs, one match per transaction, V1 and V2, in answers of whole transactions. */
function* encodedAnswers(total: number): Generator<RawLog[]> {
  const random = rng(7);
  let logs: RawLog[] = [];
  let fills = 0;
  for (let tx = 0; fills < total; tx++) {
    const makers = 1 + Math.floor(random() * random() * 4);
    const exchange = tx % 2 ? EXCHANGE_V1 : EXCHANGE_V2;
    const token = BigInt(tokenOf(Math.floor(random() * MARKETS), 0));
    const events = matchEvents(
      exchange,
      { owner: walletAddress(tx % WALLETS), side: "BUY", token, size: 10_000_000n, usd: 6_000_000n, fee: 10_000n },
      Array.from({ length: makers }, (_, i) => ({
        owner: walletAddress((tx + i + 1) % WALLETS),
        side: "BUY" as const,
        token: token + 1n,
        size: 10_000_000n / BigInt(makers),
        usd: 4_000_000n / BigInt(makers),
      })),
    );
    const txHash = `0x${hex(tx + 1, 64)}`;
    events.forEach((event, i) =>
      logs.push({
        ...encodeLog(event),
        blockNumber: `0x${(81_000_000 + (tx >> 5)).toString(16)}`,
        blockHash: null,
        transactionHash: txHash,
        logIndex: `0x${i.toString(16)}`,
      }),
    );
    fills += makers + 1;
    if (logs.length >= LOGS_PER_ANSWER) {
      yield logs;
      logs = [];
    }
  }
  if (logs.length) yield logs;
}

function measureDecode(): void {
  // As the node's answers reach the pipeline: JSON text, parsed (by VenueHttpClient) then decoded; made one at a
  // time (untimed) so that the process holds no more than the pipeline would.
  let logCount = 0;
  let fillCount = 0;
  const ms = { parse: 0, decode: 0, settle: 0 };
  gc?.();
  for (const logs of encodedAnswers(DECODE)) {
    const text = JSON.stringify({ jsonrpc: "2.0", id: 1, result: logs });
    logCount += logs.length;
    const t0 = performance.now();
    const answer = (JSON.parse(text) as { result: RawLog[] }).result;
    const t1 = performance.now();
    const decoded: DecodedVenueLog[] = [];
    for (const log of answer) {
      const event = decodeLog(log);
      if (event) decoded.push(event);
    }
    const t2 = performance.now();
    const rows = settleFills(decoded).fills.map((f) => chainFillRow(f, { conditionId: "0xc", outcomeIndex: 0 }, 0));
    ms.parse += t1 - t0;
    ms.decode += t2 - t1;
    ms.settle += performance.now() - t2;
    fillCount += rows.length;
  }
  const perSecond = (n: number, spent: number) => Math.round(n / (spent / 1000)).toLocaleString("en-US");
  console.log(
    `JSON answers + decode + settle + rows (one core): ${fillCount.toLocaleString("en-US")} fills from ${logCount.toLocaleString("en-US")} logs = ${perSecond(fillCount, ms.parse + ms.decode + ms.settle)} fills/s ` +
      `(JSON.parse ${perSecond(logCount, ms.parse)} logs/s, decode ${perSecond(logCount, ms.decode)} logs/s, settle + rows ${perSecond(fillCount, ms.settle)} fills/s)`,
  );
}

console.log(
  `ingest bench: ${FILLS.toLocaleString("en-US")} synthetic chain fills, ${WALLETS.toLocaleString("en-US")} wallets, ${MARKETS.toLocaleString("en-US")} markets`,
);

if (STORES.has("sqlite")) {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-bench-"));
  try {
    const config = loadConfig({ ...process.env, DATA_DIR: dir });
    const sqlite = await openStore({
      kind: "sqlite",
      sqlitePath: join(dir, "bench.sqlite"),
      sqliteCacheMb: config.store.sqliteCacheMb,
      sqliteSortThreads: config.store.sqliteSortThreads,
      sqliteBackgroundCheckpoints: BACKGROUND_CHECKPOINTS,
    });
    await migrateStore(sqlite);
    await measureWrites(`SQLite (cache ${config.store.sqliteCacheMb} MiB)`, sqlite);
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (PG_URL !== "none" && STORES.has("pg")) {
  const schema = `bench_ingest_${Date.now().toString(36)}`;
  let pg: Store | undefined;
  try {
    pg = await openStore({ kind: "postgres", databaseUrl: PG_URL, schema, poolSize: 2 });
    await migrateStore(pg);
    await measureWrites("PostgreSQL (COPY)", pg);
  } catch (error) {
    console.log(`PostgreSQL: not measured (${(error as Error).message})`);
  } finally {
    if (pg) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(pg.db).catch(() => undefined);
      await pg.close();
    }
  }
}
console.log(`peak RSS of the write path: ${rssMb()} MiB`);
measureDecode();
