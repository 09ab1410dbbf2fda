/**
 * A chain backfill end to end: `pelagic ingest` (its own process, as deployed) against the simulated venue (in a
 * `pelagic sim` process), from the world's first block to the head, into a fresh SQLite file and into a fresh
 * PostgreSQL database. Everything the pipeline does is in: eth_getLogs over HTTP, the answers' shapes checked,
 * logs decoded and settled, market lookups, the writes and the index build at the end.
 *
 *   node --import tsx bench/backfill.bench.ts [--fills 1000000] [--stores sqlite,pg] [--pg postgres://postgres@127.0.0.1:5432/postgres] [--block-span 2000]
 *
 * `--block-span` sets INGEST_BLOCK_SPAN (default: the configuration's, 2,000 blocks): on the 1,000,000-fill world
 * (about 0.4 logs a block) answers then hold some 800 logs; on the 10,000,000-fill world the node's log limit
 * (10,000) sizes them, as the real venue's density does; a large span makes every answer reach that limit.
 *
 * Prints, per store: fills/s over the wall time of the first sync, the ingest process's CPU seconds (all its
 * threads) and fills per CPU second of it, the simulated node's CPU seconds meanwhile, the ingest's peak RSS, and
 * the CPU of the ingest's main thread and of its chain reader thread, and the synced store's bytes a fill (all in, and
 * `fill_rows` with its indexes): a store as a sync writes it, beside the bench worlds' (`bench/store-size.bench.ts`). On two cores the simulated node (which
 * encodes every log it serves) competes with the ingest for the machine: the busier of the ingest's two threads
 * bounds it where the node runs elsewhere (as the real one does); both include what the contention for the cores
 * costs them here.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { startVenueProcess, type VenueProcess } from "../src/sim/venue-process.js";
import { peakRssMb } from "./support/probe.js";
import { isoDate } from "../src/sim/servers/format.js";
import { venueEnvironment } from "../src/sim/servers/index.js";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const FILLS = Number(args.get("fills") ?? 1_000_000);
const STORES = new Set((args.get("stores") ?? "sqlite,pg").split(","));
const PG_ADMIN_URL = args.get("pg") ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BLOCK_SPAN = args.get("block-span");
const DAYS = 60;
const DAY = 86_400;
const BIN = fileURLToPath(new URL("../bin/pelagic.js", import.meta.url));
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** User plus system CPU seconds of a process (all its threads) or of one thread, from a /proc stat file. */
function statCpuSeconds(path: string): number {
  const fields = readFileSync(path, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

const cpuSeconds = (pid: number) => statCpuSeconds(`/proc/${pid}/stat`);

/**
 * CPU seconds of the process's main thread (the pipeline: market lookups, rows, writes), of its busiest other
 * thread (the chain reader: fetch, parse, decode, settle) and of the rest (V8's GC helpers, the module loader, I/O).
 * With the node elsewhere, the busier of the first two bounds the backfill.
 */
function threadCpuSeconds(pid: number): Threads {
  const others = readdirSync(`/proc/${pid}/task`)
    .filter((tid) => tid !== String(pid))
    .map((tid) => statCpuSeconds(`/proc/${pid}/task/${tid}/stat`));
  const reader = Math.max(0, ...others);
  return {
    main: statCpuSeconds(`/proc/${pid}/task/${pid}/stat`),
    reader,
    rest: others.reduce((a, b) => a + b, 0) - reader,
  };
}

interface Threads {
  readonly main: number;
  readonly reader: number;
  readonly rest: number;
}

const end = Math.floor(Date.now() / 1000 / DAY) * DAY;

/** What a first sync left in its store. */
interface Stored {
  readonly fills: number;
  /** The whole store (SQLite: every page of every table and index; PostgreSQL: `pg_database_size`). */
  readonly bytes: number;
  /** `fill_rows` (every partition) with its indexes. */
  readonly fillRowsBytes: number;
}

interface Run extends Stored {
  readonly seconds: number;
  readonly cpu: number;
  readonly threads: Threads;
  readonly simCpu: number;
  readonly peakRssMb: number;
}

/** Runs `pelagic ingest` until its first sync is done (its "caught up" line), then measures what it stored. */
async function backfill(env: Record<string, string>, simPid: number, measure: () => Promise<Stored>): Promise<Run> {
  const run = await runUntilCaughtUp(env, simPid);
  return { ...run, ...(await measure()) };
}

function runUntilCaughtUp(env: Record<string, string>, simPid: number): Promise<Omit<Run, keyof Stored>> {
  const child = spawn(process.execPath, [BIN, "ingest"], {
    env: { ...process.env, ...env, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const simCpuStart = cpuSeconds(simPid);
  let started = 0;
  let buffer = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`pelagic ingest exited (code ${code}) before its first sync was done`)),
    );
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as { msg?: string };
        buffer = buffer.slice(newline + 1);
        if (line.msg === "ingest starting") started = performance.now();
        if (line.msg?.startsWith("ingest caught up")) {
          const pid = child.pid as number;
          const run = {
            seconds: (performance.now() - started) / 1000,
            cpu: cpuSeconds(pid),
            threads: threadCpuSeconds(pid),
            simCpu: cpuSeconds(simPid) - simCpuStart,
            peakRssMb: peakRssMb(pid) ?? 0,
          };
          child.removeAllListeners("exit");
          child.once("exit", () => resolve(run));
          child.kill("SIGKILL");
        }
      }
    });
  });
}

function report(label: string, run: Run): void {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(
    `${label}: ${n(run.fills)} fills in ${run.seconds.toFixed(1)} s = ${n(run.fills / run.seconds)} fills/s; ` +
      `ingest process ${run.cpu.toFixed(1)} CPU s = ${n(run.fills / run.cpu)} fills per CPU second; simulated node ${run.simCpu.toFixed(1)} CPU s meanwhile; ingest peak RSS ${n(run.peakRssMb)} MiB; ` +
      `store ${(run.bytes / run.fills).toFixed(1)} bytes a fill all in, fill_rows with its indexes ${(run.fillRowsBytes / run.fills).toFixed(1)}`,
  );
  const { main, reader, rest } = run.threads;
  console.log(
    `  ingest threads: main (markets, rows, writes) ${main.toFixed(1)} s = ${((1e6 * main) / run.fills).toFixed(1)} µs a fill; busiest other (chain reader: fetch, parse, decode, settle) ` +
      `${reader.toFixed(1)} s = ${((1e6 * reader) / run.fills).toFixed(1)} µs a fill; the rest ${rest.toFixed(1)} s; the busier of the two alone allows ${n(run.fills / Math.max(main, reader))} fills/s`,
  );
}

const worldArgs = [
  "--fills",
  String(FILLS),
  "--markets",
  String(Math.max(500, Math.round(FILLS / 500))),
  "--wallets",
  String(Math.max(5_000, Math.round(FILLS / 50))),
];
let venue: VenueProcess | undefined;
try {
  venue = await startVenueProcess([
    ...worldArgs,
    "--days",
    String(DAYS),
    "--end",
    isoDate(end),
    "--live-rate",
    "0",
    "--sim-port",
    "0",
  ]);
  const simPid = venue.pid;
  const env = {
    ...venueEnvironment(venue.urls),
    INGEST_START: isoDate(end - (DAYS + 1) * DAY),
    INGEST_CONFIRMATIONS: "0",
    ...(BLOCK_SPAN && { INGEST_BLOCK_SPAN: BLOCK_SPAN }),
    VENUE_RPC_REQUESTS_PER_SECOND: "1000",
  };
  console.log(`backfill bench: pelagic ingest against the simulated venue (${worldArgs.join(" ")}, ${DAYS} days)`);
  if (STORES.has("sqlite")) {
    const dir = mkdtempSync(join(tmpdir(), "pelagic-backfill-"));
    try {
      const measure = async () => {
        const db = new Database(join(dir, "pelagic.sqlite"), { readonly: true });
        try {
          const pages = db.prepare("select name, sum(pgsize) as bytes from dbstat group by name").all() as {
            name: string;
            bytes: number;
          }[];
          const ofFills = new Set(
            (db.prepare("select name from sqlite_master where tbl_name = 'fill_rows'").all() as { name: string }[]).map(
              (r) => r.name,
            ),
          );
          const sum = (rows: typeof pages) => rows.reduce((total, r) => total + r.bytes, 0);
          return {
            fills: (db.prepare("select count(*) as n from fills").get() as { n: number }).n,
            bytes: sum(pages),
            fillRowsBytes: sum(pages.filter((r) => ofFills.has(r.name))),
          };
        } finally {
          db.close();
        }
      };
      report("SQLite", await backfill({ ...env, DATA_DIR: dir }, simPid, measure));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (STORES.has("pg")) {
    const database = `pelagic_backfill_${Date.now().toString(36)}`;
    const dataDir = mkdtempSync(join(tmpdir(), "pelagic-backfill-"));
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    try {
      await admin.connect();
      await admin.query(`create database ${database}`);
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${database}`;
      const measure = async () => {
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          const [row] = (
            await client.query<Record<"fills" | "bytes" | "fill_rows_bytes", string>>(`select
              (select count(*) from fills) as fills, pg_database_size(current_database()) as bytes,
              (select sum(pg_total_relation_size(inhrelid)) from pg_inherits
                where inhparent = 'fill_rows'::regclass) as fill_rows_bytes`)
          ).rows;
          return { fills: Number(row!.fills), bytes: Number(row!.bytes), fillRowsBytes: Number(row!.fill_rows_bytes) };
        } finally {
          await client.end();
        }
      };
      report(
        "PostgreSQL",
        await backfill({ ...env, DATABASE_URL: url.toString(), DATA_DIR: dataDir }, simPid, measure),
      );
    } catch (error) {
      console.log(`PostgreSQL: not measured (${(error as Error).message})`);
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await venue?.close();
}
