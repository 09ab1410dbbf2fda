/**
 * `pelagic demo`: the simulated venue, in a `pelagic sim` child process, and the service pointed at it. Pelagic
 * serves on `--port`; the venue listens on `--sim-port` (default: any free port).
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createKey, revokeAccountKeys } from "../accounts/keys.js";
import { settings, storeDescription, type Config } from "../config/index.js";
import { createLogger } from "../platform/logger.js";
import { guardProcess, startService, stopOnSignals, type Service } from "../runtime/index.js";
import { venueEnvironment, withSimulatedVenue, type SimVenueUrls } from "../sim/servers/index.js";
import { startVenueProcess } from "../sim/venue-process.js";
import type { ResolvedWorldOptions } from "../sim/world/index.js";
import { settingFlag, type CommandSpec } from "./spec.js";
import { WORLD_FLAGS, describeWorld, endText, numberFlag, worldOptionsOf } from "./world-flags.js";
import { demoTerritoryConfig, startDemoWebhook, territoryShowcase } from "./demo-territory.js";
import { startChatPlatforms } from "../sim/servers/chat-platforms.js";
import { alertsShowcase, busiestWallet, demoAlertsConfig, startDemoAlerts } from "./demo-alerts.js";

const DAY = 86_400;
/** Blocks per eth_getLogs call in the demo (about 2.3 days of 2 s blocks). */
const DEMO_BLOCK_SPAN = 100_000;
const DEMO_RPC_REQUESTS_PER_SECOND = 1_000;
/** The simulated chain never reorganizes: a short confirmation depth lets the indexed live stream show fills about 20 s after their block. */
const DEMO_CONFIRMATIONS = 10;

const STORE_PREFIX = "demo-";

/** The folder under DATA_DIR of a world's SQLite store: its seed, sizes and end minute. */
function storeFolder(world: ResolvedWorldOptions): string {
  const end = endText(world.end).replace(/[-:]/g, "");
  return `${STORE_PREFIX}${world.seed}-${world.markets}-${world.wallets}-${world.fills}-${world.days}-${end}`;
}

/**
 * The demo keeps one store: the current world's. A world ends at the minute its run started, so an earlier run's
 * store holds another world and would only fill the disk.
 */
function removeEarlierStores(dataDir: string, keep: string): void {
  if (!existsSync(dataDir)) return;
  for (const entry of readdirSync(dataDir, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name.startsWith(STORE_PREFIX) && entry.name !== keep)
      rmSync(join(dataDir, entry.name), { recursive: true, force: true });
}

/** The demo's configuration: the simulated venue, and a SQLite store of its own for the world (the same world reuses it). */
function demoConfig(config: Config, urls: SimVenueUrls, world: ResolvedWorldOptions): Config {
  const identity = storeFolder(world);
  if (config.store.kind === "sqlite") removeEarlierStores(config.store.dataDir, identity);
  const dataDir = join(config.store.dataDir, identity);
  // Ingest the whole simulated history: the backfill starts at the world's first day.
  const startDate = new Date((world.end - world.days * DAY) * 1000).toISOString().slice(0, 10);
  // A loopback node answers wide log ranges quickly: fewer, larger eth_getLogs calls (the client halves when refused).
  const blockSpan = Math.max(config.ingest.blockSpan, DEMO_BLOCK_SPAN);
  const simulated = withSimulatedVenue(config, urls);
  // The pacing protects a public RPC provider; the simulated node is on loopback.
  const venue = {
    ...simulated.venue,
    rpcRequestsPerSecond: Math.max(config.venue.rpcRequestsPerSecond, DEMO_RPC_REQUESTS_PER_SECOND),
  };
  const pointed = {
    ...simulated,
    venue,
    // The simulated venue's first record is its world's first day, where the backfill starts: every wallet's
    // history is whole, so its wins and losses are the venue's from the first answer.
    derive: { ...config.derive, venueHistoryStart: config.derive.venueHistoryStart ?? world.start },
    ingest: {
      ...config.ingest,
      startDate: config.ingest.startDate ?? startDate,
      blockSpan,
      confirmations: Math.min(config.ingest.confirmations, DEMO_CONFIRMATIONS),
    },
  };
  const sized = demoThresholds(pointed);
  return config.store.kind === "sqlite"
    ? { ...sized, store: { ...config.store, dataDir, sqlitePath: join(dataDir, "pelagic.sqlite") } }
    : sized;
}

/**
 * Thresholds sized to the demo's world. The defaults are sized to the venue, whose whales hold millions: in the
 * demo's 5,000 wallets the largest position costs about $400,000 and a 6-hour window holds a few hundred fills, so
 * at the venue's defaults the big positions, the flips and the home page's whale moves would stay empty. Each applies
 * only where the setting was left at its default.
 */
export function demoThresholds(config: Config): Config {
  const sized = <T extends number>(value: T, setting: { readonly defaultValue: T }, demo: T): T =>
    value === setting.defaultValue ? demo : value;
  return {
    ...config,
    whales: {
      ...config.whales,
      bigPositionMinUsd: sized(config.whales.bigPositionMinUsd, settings.whales.bigPositionMinUsd, 50_000),
      flipMinSwingUsd: sized(config.whales.flipMinSwingUsd, settings.whales.flipMinSwingUsd, 5_000),
    },
    boards: {
      ...config.boards,
      whaleMoveMinUsd: sized(config.boards.whaleMoveMinUsd, settings.boards.whaleMoveMinUsd, 100),
    },
  };
}

/**
 * How often the demo asks health whether it is ready: the ready line is printed within this of the moment. Health is
 * a Free read, counted against the loopback address like the user's own browser and curl during the demo: at 60 a
 * minute the demo takes under a third of the Free budget (RATE_FREE_PER_MINUTE, 200), where every 250 ms it took
 * all of it, and its polls and the user's were refused with 429 for part of each minute of a long first sync.
 */
const READY_POLL_MS = 1_000;

/**
 * Polls the service's health until it is ready: every ingest source finished its first sync and the ledger wrote
 * its statistics, so the pages the demo lists answer with data (the same signal health gives everyone).
 */
async function waitUntilReady(url: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const health = (await fetch(`${url}/api/v1/health`).then(
      (r) => r.json(),
      () => null,
    )) as { ready?: boolean } | null;
    if (health?.ready) return;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
}

/** The account of the demo's Premium key; each run revokes the keys of the runs before it. */
const DEMO_ACCOUNT = "demo";

/**
 * How to watch the live streams: a Premium key made in the demo's store for this run (keys are kept as hashes only,
 * so an earlier run's cannot be shown again) and the `curl -N` lines that use it.
 */
async function liveStreamLines(service: Service): Promise<string[]> {
  const now = service.platform.clock.now();
  await revokeAccountKeys(service.store.db, DEMO_ACCOUNT, now);
  const { key } = await createKey(service.store.db, { account: DEMO_ACCOUNT, plan: "premium", now });
  return [
    `  watch trades as the venue makes them (a Premium key for this run: ${key}):`,
    `    curl -N -H "X-API-Key: ${key}" ${service.url}/api/public/v1/live/trades`,
    `    curl -N -H "X-API-Key: ${key}" "${service.url}/api/public/v1/live/trades-indexed?types=mint,merge"   (classified chain fills, once ready)`,
  ];
}

/** The first whale of the leaderboard. */
async function firstWhale(url: string): Promise<string | undefined> {
  const board = (await fetch(`${url}/api/v2/whales/leaderboard?limit=1&min_markets=1`).then(
    (r) => r.json(),
    () => null,
  )) as { whales?: { wallet: string }[] } | null;
  return board?.whales?.[0]?.wallet;
}

/** A few pages worth opening on the demo's data: the first whale of the leaderboard and its first market. */
async function showcase(url: string, wallet: string | undefined): Promise<string[]> {
  const search = (await fetch(`${url}/api/v2/markets/search?limit=1`).then(
    (r) => r.json(),
    () => null,
  )) as { markets?: { id: string }[] } | null;
  const market = search?.markets?.[0]?.id;
  return [
    `${url}/api/v2/whales/leaderboard`,
    ...(wallet
      ? [
          `${url}/api/v2/wallet/${wallet}`,
          `${url}/api/v2/wallet/${wallet}/positions`,
          `${url}/api/v2/wallet/${wallet}/ai-analysis   (Premium, X-API-Key: pending at first, then the report)`,
        ]
      : []),
    `${url}/api/v2/markets/search?q=russia`,
    ...(market ? [`${url}/api/v2/market/${market}`] : []),
    `${url}/api/analytics/whale-volume-24h`,
    `${url}/api/openapi.json   (every path with its parameters)`,
  ];
}

export const demoCommand: CommandSpec = {
  name: "demo",
  summary: "start the simulated venue and the service pointed at it",
  description:
    "Starts the simulated venue (pelagic sim, in a process of its own) and the service pointed at it, ingesting the " +
    "world's whole history, which ends at the minute the demo starts, into a SQLite store of the world's own under " +
    "DATA_DIR (an earlier run's store is removed). When /api/v1/health says ready: true, it prints what to open. " +
    "Ctrl-C stops both.",
  flags: {
    ...WORLD_FLAGS,
    // History up to the minute the demo starts: the last 24 hours are full at any time of day.
    end: { value: WORLD_FLAGS.end.value, description: WORLD_FLAGS.end.description, default: "now" },
    "isw-step": { ...WORLD_FLAGS["isw-step"], default: "30" },
    "sim-port": { value: "<port>", default: "0", description: "the venue's port; 0: any free port" },
    port: settingFlag("PORT", "<port>"),
  },
  examples: ["pelagic demo", "pelagic demo --fills 1000000 --wallets 20000 --port 9000"],
  async run(config, flags) {
    const started = Date.now();
    const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
    const options = worldOptionsOf(flags);
    const liveRate = numberFlag(flags, "live-rate");
    // The world's flags, passed through; the venue's live trading starts now (see sim.ts, startVenue).
    const venueArgs = Object.entries(flags)
      .filter(([name]) => name in WORLD_FLAGS)
      .flatMap(([name, value]) => [`--${name}`, value]);
    const venue = await startVenueProcess([
      ...venueArgs,
      "--sim-port",
      String(numberFlag(flags, "sim-port")),
      "--live-from",
      "now",
      "--end",
      endText(options.end),
    ]);
    const platforms = await startChatPlatforms();
    const serviceConfig = demoAlertsConfig(demoTerritoryConfig(demoConfig(config, venue.urls, options)), platforms);
    const logger = createLogger(config.server.logLevel);
    guardProcess(logger);
    let service: Service;
    try {
      service = await startService(serviceConfig, { logger });
    } catch (error) {
      await Promise.all([venue.close(), platforms.close()]);
      throw error;
    }
    const stopping = new AbortController();
    const webhook = await startDemoWebhook(service, (line) => console.log(line));
    const alerts = await startDemoAlerts(service, platforms, (line) => console.log(line));
    stopOnSignals(
      {
        ...service,
        stop: () => (
          stopping.abort(),
          service.stop().then(async () => void (await Promise.all([venue.close(), webhook.close(), platforms.close()])))
        ),
      },
      logger,
      config.server.shutdownGraceMs,
    );
    console.log(
      [
        `Pelagic demo on a simulated venue (${describeWorld(options, liveRate)}), serving at ${service.url} after ${seconds()} s.`,
        `  ingesting the simulated history; ${service.url}/api/v1/health says "ready": true when done`,
        `  store: ${storeDescription(serviceConfig.store)}`,
        "  the simulated venue (its own process):",
        ...Object.entries(venueEnvironment(venue.urls)).map(([name, value]) => `    ${name}=${value}`),
        ...(await liveStreamLines(service)),
        "  Ctrl-C stops both.",
      ].join("\n"),
    );
    await waitUntilReady(service.url, stopping.signal);
    if (stopping.signal.aborted) return;
    const whale = await firstWhale(service.url);
    console.log(
      [
        `Pelagic demo ready in ${seconds()} s. Open:`,
        ...[
          ...(await showcase(service.url, whale)),
          ...territoryShowcase(service.url, webhook),
          ...alertsShowcase(service.url, alerts, whale ?? (await busiestWallet(service))),
        ].map((line) => `  ${line}`),
      ].join("\n"),
    );
  },
};
