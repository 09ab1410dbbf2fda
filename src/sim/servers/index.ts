/**
 * The simulated venue on loopback: one HTTP server whose path prefixes stand for the venue's hosts, plus the
 * RTDS websocket, all computed from a seeded world (src/sim/world) and speaking the shapes of src/venue.
 *
 *   const venue = await startSimVenue({ worldOptions: { seed: 1, end }, live: { matchesPerSecond: 1 } });
 *   venue.urls  → { gamma, dataApi, pnl, rpc, rtds, arcgis }   (venueEnvironment(urls): the VENUE_* settings)
 *   await venue.close();
 *
 * URL layout: /gamma (Gamma API), /data (Data API), /pnl (user P&L), /rpc (Polygon JSON-RPC, POST),
 * /arcgis (ArcGIS services root of the ISW layers), ws://…/rtds (real-time data service); and, not the venue's,
 * /truth (the informed layer's ground truth, `venue.truthUrl`: informed-truth.ts), which Pelagic never reads.
 */
import type { Config } from "../../config/index.js";
import { generateWorld, type World, type WorldOptions } from "../world/index.js";
import { arcgisHandler, type ArcGisOptions } from "./arcgis.js";
import { dataApiHandler, type DataApiOptions } from "./data-api.js";
import { Faults, type FaultOptions } from "./faults.js";
import { gammaHandler } from "./gamma.js";
import { startHttpServer, type Mount } from "./http.js";
import { TRUTH_PATHS, truthHandler } from "./informed-truth.js";
import { rpcHandler, type RpcOptions } from "./rpc.js";
import { startRtdsServer, type RtdsServerOptions } from "./rtds.js";
import { VenueState, type LiveModeOptions } from "./venue-state.js";
import { pnlHandler } from "./wallet-data.js";

export { ISW_LAYERS, type ArcGisOptions } from "./arcgis.js";
export { TYPICAL_FAULTS, parseFaults, type FaultOptions } from "./faults.js";
export { VenueState, type LiveModeOptions } from "./venue-state.js";
export * from "./ground-truth.js";

export interface SimVenueOptions {
  /** A ready world; otherwise one is generated from `worldOptions`. */
  world?: World;
  worldOptions?: WorldOptions;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The venue's fixed clock without live mode (unix seconds; default and minimum: the world's end). */
  now?: number;
  /** Keep the world trading in real time. */
  live?: LiveModeOptions | null;
  /** Wall clock in ms for live mode (tests pass a manual one). */
  clockMs?: () => number;
  /** How often live mode advances the world and pushes RTDS messages, ms (default 500). */
  liveTickMs?: number;
  faults?: FaultOptions;
  /** The Data API's versions (a retired first version: `{ v1: "gone" }`). */
  dataApi?: DataApiOptions;
  /** Every HTTP answer waits this long first, ms (default 0). */
  latencyMs?: number;
  arcgis?: ArcGisOptions;
  rpc?: RpcOptions;
  rtds?: RtdsServerOptions;
}

export interface SimVenueUrls {
  gamma: string;
  dataApi: string;
  pnl: string;
  rpc: string;
  rtds: string;
  arcgis: string;
}

export interface SimVenue {
  urls: SimVenueUrls;
  /** The informed layer's ground truth, every wallet's archetype (its siblings: informed-truth.ts); not a venue URL. */
  truthUrl: string;
  world: World;
  state: VenueState;
  close(): Promise<void>;
}

const TRUTH_PREFIX = "/truth";

export async function startSimVenue(options: SimVenueOptions): Promise<SimVenue> {
  const world = options.world ?? (options.worldOptions ? generateWorld(options.worldOptions) : null);
  if (!world) throw new TypeError("startSimVenue needs `world` or `worldOptions`");
  const state = new VenueState(world, { now: options.now, live: options.live, clockMs: options.clockMs });
  const faults = new Faults(options.faults ?? {}, world.options.seed);
  const mounts: Mount[] = [
    { prefix: "/gamma", handler: gammaHandler(state), faultStyle: "http" },
    { prefix: "/data", handler: dataApiHandler(state, options.dataApi), faultStyle: "http" },
    { prefix: "/pnl", handler: pnlHandler(state), faultStyle: "http" },
    { prefix: "/rpc", handler: rpcHandler(state, options.rpc), faultStyle: "http" },
    { prefix: "/arcgis", handler: arcgisHandler(state, options.arcgis), faultStyle: "arcgis" },
    { prefix: TRUTH_PREFIX, handler: truthHandler(state), faultStyle: "none" },
  ];
  const host = options.host ?? "127.0.0.1";
  const http = await startHttpServer(state, faults, mounts, host, options.port ?? 0, options.latencyMs);
  const rtds = startRtdsServer(state, faults, http.server, "/rtds", options.rtds);
  state.sync();
  const ticker = state.isLive ? setInterval(() => state.sync(), options.liveTickMs ?? 500) : null;
  ticker?.unref();
  const base = `http://${host}:${http.port}`;
  return {
    urls: {
      gamma: `${base}/gamma`,
      dataApi: `${base}/data`,
      pnl: `${base}/pnl`,
      rpc: `${base}/rpc`,
      rtds: `ws://${host}:${http.port}/rtds`,
      arcgis: `${base}/arcgis`,
    },
    truthUrl: `${base}${TRUTH_PREFIX}${TRUTH_PATHS.archetypes}`,
    world,
    state,
    async close() {
      if (ticker) clearInterval(ticker);
      await rtds.close();
      await http.close();
    },
  };
}

/** The settings that point Pelagic at the simulated venue. */
export function venueEnvironment(urls: SimVenueUrls): Record<string, string> {
  return {
    VENUE_GAMMA_URL: urls.gamma,
    VENUE_DATA_API_URL: urls.dataApi,
    VENUE_PNL_URL: urls.pnl,
    VENUE_RTDS_URL: urls.rtds,
    VENUE_RPC_URL: urls.rpc,
    ISW_ARCGIS_URL: urls.arcgis,
  };
}

/** Pelagic's configuration with every venue source (RPC and ArcGIS included) pointed at the simulated venue. */
export function withSimulatedVenue(config: Config, urls: SimVenueUrls): Config {
  return {
    ...config,
    venue: {
      ...config.venue,
      gammaUrl: urls.gamma,
      dataApiUrl: urls.dataApi,
      pnlUrl: urls.pnl,
      rtdsUrl: urls.rtds,
      rpcUrl: urls.rpc,
    },
    isw: { ...config.isw, arcgisUrl: urls.arcgis },
  };
}
