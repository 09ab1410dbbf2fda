/**
 * Test support: the real Ingest against the simulated venue (src/sim/servers) over a real, isolated store. The
 * configuration points every source at the simulation, and the venue's clients are built from it the way
 * production builds them (src/ingest/ingest.ts), except that pauses cost no wall time: retries and Retry-After
 * waits sleep instantly and no request pacing applies (the simulation does not rate-limit unless its faults say so).
 */
import type { StoreBackend } from "../../../test/support/backends.js";
import { isoDate } from "../../sim/servers/format.js";
import { venueEnvironment, type SimVenue } from "../../sim/servers/index.js";
import {
  ChainClient,
  createVenueClients,
  type RtdsOptions,
  type Sleep,
  type VenueClients,
  type VenueHttpOptions,
} from "../../venue/index.js";
import { ThreadedChainReader } from "../chain-reader.js";
import { instantSleep, openIngestHarness, type ClientsFor, type IngestHarness } from "./harness.js";

const DAY = 86_400;

/**
 * Settings that point ingest at the simulation: backfill from the world's first day, no confirmations, wide log
 * ranges, fills indexes deferred to the end of the first sync (the simulated node refuses a range whose answer is too large, as providers do, and the client narrows it).
 */
export function simIngestEnv(venue: SimVenue, env: Record<string, string> = {}): Record<string, string> {
  return {
    ...venueEnvironment(venue.urls),
    INGEST_START: isoDate(Math.floor(venue.world.start / DAY) * DAY),
    INGEST_CONFIRMATIONS: "0",
    INGEST_BLOCK_SPAN: "100000",
    // Every first sync defers the fills indexes, so the end-to-end tests (kills included) cover that path.
    INGEST_DEFER_INDEXES_BLOCKS: "0",
    ...env,
  };
}

export interface SimClientOptions {
  readonly http?: Partial<VenueHttpOptions>;
  readonly rtds?: Partial<RtdsOptions>;
}

/** The venue's clients from the configuration, as production builds them, without wall-time pauses. */
export function simClients(options: SimClientOptions = {}): ClientsFor {
  return (config) => {
    const http: Partial<VenueHttpOptions> = { sleep: instantSleep, rateLimits: [], ...options.http };
    return {
      ...createVenueClients(config, http, options.rtds),
      chain: ChainClient.fromConfig(config, http, { maxBlockSpan: config.ingest.blockSpan }),
    };
  };
}

export interface SimIngestHarness extends IngestHarness {
  /** The clients the ingest uses (to watch the RTDS connection, say). */
  readonly clients: VenueClients;
}

/**
 * `readThread`: chain logs read on the worker thread production uses (ThreadedChainReader), whose client is built
 * from the configuration alone: paced, and its retries wait for real.
 */
export async function openSimIngest(
  backend: StoreBackend,
  venue: SimVenue,
  options: SimClientOptions & { env?: Record<string, string>; sleep?: Sleep; readThread?: boolean } = {},
): Promise<SimIngestHarness> {
  let clients: VenueClients | undefined;
  const build = simClients(options);
  const harness = await openIngestHarness(backend, (config) => (clients = build(config)), {
    env: simIngestEnv(venue, options.env),
    sleep: options.sleep,
    chainReader: options.readThread ? (config) => new ThreadedChainReader(config) : undefined,
  });
  return { ...harness, clients: clients as VenueClients };
}
