/**
 * `pelagic sim` (the simulated venue alone, printing the settings that point Pelagic at it; `--stats` prints
 * the world's make-up instead) and `pelagic demo` (the simulated venue, in a `pelagic sim` child process, and the
 * service pointed at it). `--port`/`--host` are Pelagic's own settings. `sim` listens on `--sim-port` (default 8090); `demo` serves
 * Pelagic on `--port` and puts the venue on `--sim-port` (default: any free port).
 */
import { join } from "node:path";
import type { Config } from "../config/index.js";
import type { Store } from "../store/database.js";
import { createLogger } from "../platform/logger.js";
import { startService, stopOnSignals, type Service } from "../runtime/index.js";
import { startVenueProcess } from "./venue-process.js";
import { parseFaults, startSimVenue, venueEnvironment, withSimulatedVenue, type SimVenue, type SimVenueUrls } from "./servers/index.js";
import { WORLD_DEFAULTS, formatWorldStats, generateWorld, resolveWorldOptions, worldStats, type ResolvedWorldOptions } from "./world/index.js";

const DAY = 86_400;
/** Blocks per eth_getLogs call in the demo (about 2.3 days of 2 s blocks). */
const DEMO_BLOCK_SPAN = 100_000;
const DEFAULT_LIVE_RATE = 0.5;
const DEMO_RPC_REQUESTS_PER_SECOND = 1_000;

type Flags = Record<string, string>;

const WORLD_FLAGS = {
  seed: "value",
  markets: "value",
  wallets: "value",
  fills: "value",
  days: "value",
  end: "value",
  "live-rate": "value",
  faults: "value",
  "isw-data": "value",
  "isw-step": "value",
  "live-from": "value",
} as const;

function numberFlag(flags: Flags, name: string, fallback: number): number {
  const text = flags[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got "${text}"`);
  return value;
}

/** `--live-from now|<unix seconds>`: where live trading starts (default: the world's end). */
function liveFromFlag(flags: Flags): number | undefined {
  const text = flags["live-from"];
  if (text === undefined) return undefined;
  if (text === "now") return Math.floor(Date.now() / 1000);
  if (!/^\d+$/.test(text)) throw new Error(`--live-from must be "now" or unix seconds, got "${text}"`);
  return Number(text);
}

/** `--end YYYY-MM-DD` as that day's 00:00 UTC; by default today's. */
function endFlag(flags: Flags): number {
  const text = flags.end;
  if (text === undefined) return Math.floor(Date.now() / 1000 / DAY) * DAY;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !Number.isFinite(Date.parse(`${text}T00:00:00Z`))) throw new Error(`--end must be YYYY-MM-DD, got "${text}"`);
  return Date.parse(`${text}T00:00:00Z`) / 1000;
}

function worldOptionsOf(flags: Flags): ResolvedWorldOptions {
  const seedText = flags.seed ?? "1";
  return resolveWorldOptions({
    seed: /^-?\d+$/.test(seedText) ? Number(seedText) : seedText,
    markets: numberFlag(flags, "markets", WORLD_DEFAULTS.markets),
    wallets: numberFlag(flags, "wallets", WORLD_DEFAULTS.wallets),
    fills: numberFlag(flags, "fills", WORLD_DEFAULTS.fills),
    days: numberFlag(flags, "days", WORLD_DEFAULTS.days),
    end: endFlag(flags),
  });
}

function describeWorld(o: ResolvedWorldOptions, liveRate: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const live = liveRate > 0 ? `, live ${liveRate} matches/s` : ", no live trading";
  return `seed ${o.seed}: ${n(o.markets)} markets, ${n(o.wallets)} wallets, ${n(o.fills)} fills over ${o.days} days to ${new Date(o.end * 1000).toISOString().slice(0, 10)}${live}`;
}

/**
 * `liveFrom`: where live trading starts (default: the world's end). The demo starts it now (`--live-from now`),
 * so that the hours between the world's end (midnight) and now are quiet instead of a day of trading to catch
 * up with before it is ready.
 */
async function startVenue(flags: Flags, host: string, port: number, liveFrom?: number): Promise<{ venue: SimVenue; options: ResolvedWorldOptions; liveRate: number }> {
  const options = worldOptionsOf(flags);
  const liveRate = numberFlag(flags, "live-rate", DEFAULT_LIVE_RATE);
  const venue = await startSimVenue({
    world: generateWorld(options),
    host,
    port,
    live: liveRate > 0 ? { matchesPerSecond: liveRate, ...(liveFrom === undefined ? {} : { from: liveFrom }) } : null,
    faults: parseFaults(flags.faults ?? "off"),
    arcgis: { dataDir: flags["isw-data"], liveStepSeconds: flags["isw-step"] === undefined ? undefined : numberFlag(flags, "isw-step", 300) },
  });
  return { venue, options, liveRate };
}

/** Closes on SIGINT/SIGTERM. */
function closeOnSignals(close: () => Promise<void>): void {
  const onSignal = () => void close().then(() => process.exit(0), () => process.exit(1));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}

/** The venue's own default port, so that `pelagic sim` and `pelagic serve` (8080) run side by side. */
const DEFAULT_SIM_PORT = 8090;

export const simCommand = {
  summary: "run the simulated venue alone and print its URLs (--stats: print the world's make-up and exit)",
  flags: { ...WORLD_FLAGS, stats: "switch", "sim-port": "value" } as Record<string, "value" | "switch">,
  async run(config: Config, flags: Flags): Promise<void> {
    if (flags.stats === "true") {
      console.log(formatWorldStats(worldStats(generateWorld(worldOptionsOf(flags)))));
      return;
    }
    const { venue, options, liveRate } = await startVenue(flags, config.server.host, numberFlag(flags, "sim-port", DEFAULT_SIM_PORT), liveFromFlag(flags));
    console.log(`# Pelagic's simulated venue, ${describeWorld(options, liveRate)}`);
    console.log("# point Pelagic at it with these settings (e.g. env $(grep = <this output>) pelagic serve --port 8081):");
    for (const [name, value] of Object.entries(venueEnvironment(venue.urls))) console.log(`${name}=${value}`);
    closeOnSignals(() => venue.close());
  },
};

/** The demo's configuration: the simulated venue, and a SQLite store of its own per world (the same world reuses it). */
function demoConfig(config: Config, urls: SimVenueUrls, world: ResolvedWorldOptions): Config {
  const identity = `demo-${world.seed}-${world.markets}-${world.wallets}-${world.fills}-${world.days}-${new Date(world.end * 1000).toISOString().slice(0, 10)}`;
  const dataDir = join(config.store.dataDir, identity);
  // Ingest the whole simulated history: the backfill starts at the world's first day.
  const startDate = new Date((world.end - world.days * DAY) * 1000).toISOString().slice(0, 10);
  // A loopback node answers wide log ranges quickly: fewer, larger eth_getLogs calls (the client halves when refused).
  const blockSpan = Math.max(config.ingest.blockSpan, DEMO_BLOCK_SPAN);
  const simulated = withSimulatedVenue(config, urls);
  // The pacing protects a public RPC provider; the simulated node is on loopback.
  const venue = { ...simulated.venue, rpcRequestsPerSecond: Math.max(config.venue.rpcRequestsPerSecond, DEMO_RPC_REQUESTS_PER_SECOND) };
  const pointed = { ...simulated, venue, ingest: { ...config.ingest, startDate: config.ingest.startDate ?? startDate, blockSpan } };
  return config.store.kind === "sqlite" ? { ...pointed, store: { ...config.store, dataDir, sqlitePath: join(dataDir, "pelagic.sqlite") } } : pointed;
}

/** Polls the service's health until every ingest source finished its first sync (the demo's "ready"). */
async function waitUntilReady(url: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const health = (await fetch(`${url}/api/v1/health`).then((r) => r.json(), () => null)) as { ready?: boolean } | null;
    if (health?.ready) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Waits (at most `ms`) until the ledger's first statistics are written: they follow the last backfill batch. */
async function waitForStatistics(store: Store, signal: AbortSignal, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!signal.aborted && Date.now() < until) {
    if (await store.db.selectFrom("wallet_stats").select("wallet").limit(1).executeTakeFirst()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A few pages worth opening on the demo's data: the first whale of the leaderboard and its first market. */
async function showcase(url: string): Promise<string[]> {
  const board = (await fetch(`${url}/api/v2/whales/leaderboard?limit=1&min_markets=1`).then((r) => r.json(), () => null)) as { whales?: { wallet: string }[] } | null;
  const wallet = board?.whales?.[0]?.wallet;
  const search = (await fetch(`${url}/api/v2/markets/search?limit=1`).then((r) => r.json(), () => null)) as { markets?: { id: string }[] } | null;
  const market = search?.markets?.[0]?.id;
  return [
    `${url}/api/v2/whales/leaderboard`,
    ...(wallet ? [`${url}/api/v2/wallet/${wallet}`, `${url}/api/v2/wallet/${wallet}/positions`] : []),
    `${url}/api/v2/markets/search?q=russia`,
    ...(market ? [`${url}/api/v2/market/${market}`] : []),
    `${url}/api/analytics/whale-volume-24h`,
    `${url}/api/openapi.json   (every path with its parameters)`,
  ];
}

export const demoCommand = {
  summary: "start the simulated venue and the service pointed at it (--markets --wallets --fills --seed size the world)",
  flags: { ...WORLD_FLAGS, "sim-port": "value" } as Record<string, "value" | "switch">,
  async run(config: Config, flags: Flags): Promise<void> {
    const started = Date.now();
    const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
    const options = worldOptionsOf(flags);
    const liveRate = numberFlag(flags, "live-rate", DEFAULT_LIVE_RATE);
    // The venue's own flags, passed through; its live trading starts now (see startVenue).
    const venueArgs = Object.entries(flags)
      .filter(([name]) => name in WORLD_FLAGS && name !== "live-from")
      .flatMap(([name, value]) => [`--${name}`, value]);
    const venue = await startVenueProcess([...venueArgs, "--sim-port", String(numberFlag(flags, "sim-port", 0)), "--live-from", "now", "--end", new Date(options.end * 1000).toISOString().slice(0, 10)]);
    const serviceConfig = demoConfig(config, venue.urls, options);
    const logger = createLogger(config.server.logLevel);
    let service: Service;
    try {
      service = await startService(serviceConfig, { logger });
    } catch (error) {
      await venue.close();
      throw error;
    }
    const stopping = new AbortController();
    stopOnSignals({ ...service, stop: () => (stopping.abort(), service.stop().then(() => venue.close())) }, logger, config.server.shutdownGraceMs);
    console.log(
      [
        `Pelagic demo on a simulated venue (${describeWorld(options, liveRate)}), serving at ${service.url} after ${seconds()} s.`,
        `  ingesting the simulated history; ${service.url}/api/v1/health says "ready": true when done`,
        `  store: ${serviceConfig.store.kind === "sqlite" ? serviceConfig.store.sqlitePath : "PostgreSQL (DATABASE_URL)"}`,
        "  the simulated venue (its own process):",
        ...Object.entries(venueEnvironment(venue.urls)).map(([name, value]) => `    ${name}=${value}`),
        "  Ctrl-C stops both.",
      ].join("\n"),
    );
    await waitUntilReady(service.url, stopping.signal);
    await waitForStatistics(service.store, stopping.signal);
    if (stopping.signal.aborted) return;
    console.log([`Pelagic demo ready in ${seconds()} s. Open:`, ...(await showcase(service.url)).map((line) => `  ${line}`)].join("\n"));
  },
};
