/**
 * The venue's lifetime P&L curve of a wallet (`user-pnl-api` `/user-pnl`). Summing /closed-positions is no
 * substitute: it drops unredeemed losers (the venue's Data API).
 */
import type { Config } from "../config/index.js";
import { configuredHttpClient, type VenueHttpClient, type VenueHttpOptions } from "./http.js";
import type { RateLimit } from "./pacing.js";
import { PnlPointShape } from "./shapes/data-api.js";
import { pnlCurvePointOf, type PnlCurvePoint } from "./shapes/normalize-wallet-data.js";
import { partitionRows, type RejectedRow } from "./shapes/shape.js";

/** Not published; kept well under the Data API's overall limit. */
export const PNL_RATE_LIMITS: readonly RateLimit[] = [{ name: "user-pnl", limit: 200, windowMs: 10_000 }];

export type PnlInterval = "1d" | "1w" | "1m" | "all";
export type PnlFidelity = "1h" | "3h" | "12h" | "1d";

export interface PnlCurve {
  /** Oldest first. */
  readonly points: PnlCurvePoint[];
  readonly rejected: RejectedRow[];
}

export class PnlClient {
  constructor(readonly http: VenueHttpClient) {}

  static fromConfig(config: Pick<Config, "venue">, overrides: Partial<VenueHttpOptions> = {}): PnlClient {
    return new PnlClient(
      configuredHttpClient(
        config,
        { name: "user-pnl", baseUrl: config.venue.pnlUrl, rateLimits: PNL_RATE_LIMITS },
        overrides,
      ),
    );
  }

  async curve(
    user: string,
    options: { interval?: PnlInterval; fidelity?: PnlFidelity; signal?: AbortSignal } = {},
  ): Promise<PnlCurve> {
    const payload = await this.http.getJson(
      "/user-pnl",
      { user_address: user, interval: options.interval ?? "all", fidelity: options.fidelity ?? "1d" },
      { signal: options.signal },
    );
    const { rows, rejected } = partitionRows(PnlPointShape, payload, "user-pnl");
    const points = rows.map(pnlCurvePointOf).sort((a, b) => a.timestamp - b.timestamp);
    return { points, rejected };
  }

  /** The last point: the venue's lifetime P&L in USD micro-units, or null when the curve is empty. */
  async lifetimePnlMicro(user: string, signal?: AbortSignal): Promise<number | null> {
    const { points } = await this.curve(user, { signal });
    return points.at(-1)?.pnlMicro ?? null;
  }
}
