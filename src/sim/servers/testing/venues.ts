/** Helpers for the simulated venue's tests: small venues on loopback and the src/venue clients pointed at them. */
import { ArcGisClient } from "../../../venue/arcgis.js";
import { ChainClient } from "../../../venue/chain/client.js";
import { DataApiClient } from "../../../venue/data-api.js";
import { GammaClient } from "../../../venue/gamma.js";
import { VenueHttpClient, type VenueHttpOptions } from "../../../venue/http.js";
import { PnlClient } from "../../../venue/pnl.js";
import { fakeTime } from "../../../venue/testing/fake-time.js";
import { TEST_END } from "../../world/testing/worlds.js";
import type { WorldOptions } from "../../world/index.js";
import { startSimVenue, type SimVenue, type SimVenueOptions } from "../index.js";

export { TEST_END };

/** 60 days to 2026-06-01: the history spans the V1 to V2 cutover of 2026-04-28. */
export const SMALL_WORLD: WorldOptions = {
  seed: 11,
  end: TEST_END,
  markets: 60,
  wallets: 400,
  fills: 12_000,
  days: 60,
};

/** Venues started by a test file, closed by `closeVenues` (call it in afterEach/afterAll). */
const started: SimVenue[] = [];

export async function smallVenue(overrides: Partial<SimVenueOptions> = {}): Promise<SimVenue> {
  const venue = await startSimVenue({ worldOptions: SMALL_WORLD, ...overrides });
  started.push(venue);
  return venue;
}

export async function closeVenues(): Promise<void> {
  for (const venue of started.splice(0)) await venue.close();
}

/** The venue's clients against the simulation, with a fake sleep so retries cost no wall time. */
export function clientsFor(venue: SimVenue, http: Partial<VenueHttpOptions> = {}) {
  const time = fakeTime();
  const options = (name: string, baseUrl: string): VenueHttpOptions => ({
    name,
    baseUrl,
    timeoutMs: 10_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    ...http,
  });
  return {
    time,
    gamma: new GammaClient(new VenueHttpClient(options("gamma", venue.urls.gamma))),
    dataApi: new DataApiClient(new VenueHttpClient(options("data-api", venue.urls.dataApi))),
    pnl: new PnlClient(new VenueHttpClient(options("user-pnl", venue.urls.pnl))),
    chain: new ChainClient(new VenueHttpClient(options("rpc", venue.urls.rpc)), { maxBlockSpan: 2_000_000 }),
    arcgis: new ArcGisClient(new VenueHttpClient({ ...options("arcgis", venue.urls.arcgis), maxConcurrent: 1 }), {
      clock: time.clock,
    }),
  };
}

export async function getJson(url: string): Promise<{ status: number; body: unknown; text: string }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, text };
}

export async function rpc(
  venue: SimVenue,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(venue.urls.rpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

export const hex = (n: number) => `0x${n.toString(16)}`;
