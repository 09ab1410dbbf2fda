/**
 * `pelagic sim`: the simulated venue alone, printing the settings that point Pelagic at it (`--stats`: the world's
 * make-up instead). It listens on `--sim-port` and binds to Pelagic's own `--host`.
 */
import { startSimVenue, parseFaults, venueEnvironment, type SimVenue } from "../sim/servers/index.js";
import { formatWorldStats, generateWorld, worldStats, type ResolvedWorldOptions } from "../sim/world/index.js";
import { settingFlag, type CommandSpec, type Flags } from "./spec.js";
import { WORLD_FLAGS, describeWorld, numberFlag, worldOptionsOf } from "./world-flags.js";

/** `--live-from now|<unix seconds>`: where live trading starts (default: the world's end). */
function liveFromFlag(flags: Flags): number | undefined {
  const text = flags["live-from"];
  if (text === undefined) return undefined;
  if (text === "now") return Math.floor(Date.now() / 1000);
  if (!/^\d+$/.test(text)) throw new Error(`--live-from must be "now" or unix seconds, got "${text}"`);
  return Number(text);
}

/**
 * Live trading starts at `--live-from` (default: the world's end). The demo starts it now (`--live-from now`),
 * so that the hours between the world's end (midnight) and now are quiet instead of a day of trading to catch
 * up with before it is ready.
 */
async function startVenue(
  flags: Flags,
  host: string,
): Promise<{ venue: SimVenue; options: ResolvedWorldOptions; liveRate: number }> {
  const options = worldOptionsOf(flags);
  const liveRate = numberFlag(flags, "live-rate");
  const liveFrom = liveFromFlag(flags);
  const venue = await startSimVenue({
    world: generateWorld(options),
    host,
    port: numberFlag(flags, "sim-port"),
    live: liveRate > 0 ? { matchesPerSecond: liveRate, ...(liveFrom === undefined ? {} : { from: liveFrom }) } : null,
    faults: parseFaults(flags.faults as string),
    arcgis: { dataDir: flags["isw-data"], liveStepSeconds: numberFlag(flags, "isw-step") },
  });
  return { venue, options, liveRate };
}

/** Closes on SIGINT/SIGTERM. */
function closeOnSignals(close: () => Promise<void>): void {
  const onSignal = () =>
    void close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}

/** How to use the settings `pelagic sim` prints: only its setting lines start with a capital (not `#`, nor npm's `>`). */
const SIM_INSTRUCTION = [
  "# point Pelagic at it with the settings below: with this output saved (node bin/pelagic.js sim > sim.env &), run",
  "#   env $(grep '^[A-Z]' sim.env) node bin/pelagic.js serve",
];

export const simCommand: CommandSpec = {
  name: "sim",
  summary: "run the simulated venue alone, printing the settings that point Pelagic at it",
  description:
    "Generates a seeded world and serves it as the venue does (Gamma, Data API, P&L, RTDS, Polygon JSON-RPC, ISW " +
    "ArcGIS) on loopback, trading live after its history, until Ctrl-C. It prints the VENUE_* and ISW_ARCGIS_URL " +
    "settings for a pelagic serve or ingest, and how to pass them.",
  flags: {
    ...WORLD_FLAGS,
    "live-from": {
      value: "<when>",
      defaultText: "the history's end",
      description: "when live trading starts: now, or unix seconds",
    },
    "sim-port": {
      value: "<port>",
      default: "8090",
      description: "the venue's port (0: any free port); serve's default, 8080, runs beside it",
    },
    host: settingFlag("HOST", "<address>"),
    stats: { description: "print the world's make-up (markets, wallets, archetypes, volumes) and exit" },
  },
  examples: [
    "pelagic sim --fills 20000 --wallets 500 > sim.env &",
    "pelagic sim --seed 7 --stats",
    "pelagic sim --faults on --live-rate 5",
  ],
  async run(config, flags) {
    if (flags.stats === "true") {
      console.log(formatWorldStats(worldStats(generateWorld(worldOptionsOf(flags)))));
      return;
    }
    const { venue, options, liveRate } = await startVenue(flags, config.server.host);
    console.log(`# Pelagic's simulated venue, ${describeWorld(options, liveRate)}`);
    for (const line of SIM_INSTRUCTION) console.log(line);
    for (const [name, value] of Object.entries(venueEnvironment(venue.urls))) console.log(`${name}=${value}`);
    console.log(
      `# ground truth for outside checks (every wallet's archetype; Pelagic never reads it): ${venue.truthUrl}`,
    );
    closeOnSignals(() => venue.close());
  },
};
