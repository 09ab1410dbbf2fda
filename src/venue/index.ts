/**
 * The venue: clients of the real venue (Gamma, Data API, user P&L, RTDS, Polygon JSON-RPC, ISW ArcGIS) and the
 * single definition of what it speaks (shapes, event ABIs, settlement rules: the chain's in chain/). The simulated
 * venue serves these same shapes, so the ingest code that talks to the real venue is the code that talks to the
 * simulation.
 */
import type { Config } from "../config/index.js";
import { ArcGisClient } from "./arcgis.js";
import { ChainClient } from "./chain/client.js";
import { DataApiClient } from "./data-api.js";
import { GammaClient } from "./gamma.js";
import type { VenueHttpOptions } from "./http.js";
import { PnlClient } from "./pnl.js";
import { RtdsClient, type RtdsOptions } from "./rtds.js";

export * from "./arcgis.js";
export * from "./categories.js";
export * from "./chain/index.js";
export * from "./contracts.js";
export * from "./funding-hubs.js";
export * from "./data-api.js";
export * from "./gamma.js";
export * from "./http.js";
export * from "./pacing.js";
export * from "./paging.js";
export * from "./pnl.js";
export * from "./rtds.js";
export * from "./shapes/index.js";
export * from "./units.js";

export interface VenueClients {
  readonly gamma: GammaClient;
  readonly dataApi: DataApiClient;
  readonly pnl: PnlClient;
  /** Null without VENUE_RPC_URL: fills then come from the Data API. */
  readonly chain: ChainClient | null;
  readonly rtds: RtdsClient;
  readonly arcgis: ArcGisClient;
}

/** Every venue client from the configuration; `http` options (clock, sleep, onEvent, ...) apply to all HTTP clients. */
export function createVenueClients(
  config: Pick<Config, "venue" | "isw">,
  http: Partial<VenueHttpOptions> = {},
  rtds: Partial<RtdsOptions> = {},
): VenueClients {
  return {
    gamma: GammaClient.fromConfig(config, http),
    dataApi: DataApiClient.fromConfig(config, http),
    pnl: PnlClient.fromConfig(config, http),
    chain: ChainClient.fromConfig(config, http),
    rtds: RtdsClient.fromConfig(config, rtds),
    arcgis: ArcGisClient.fromConfig(config, http),
  };
}
