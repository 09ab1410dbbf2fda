/** Gamma API client: markets (offset paging) and events (keyset paging). Returns validated payloads. */
import type { Config } from "../config/index.js";
import { configuredHttpClient, type VenueHttpClient, type VenueHttpOptions } from "./http.js";
import { pathLimit, type RateLimit } from "./pacing.js";
import { pageByCursor, pageByOffset, type CursorPaging, type OffsetPaging } from "./paging.js";
import {
  GammaEventShape,
  GammaEventsKeysetEnvelopeShape,
  GammaMarketShape,
  type GammaEvent,
  type GammaMarket,
} from "./shapes/gamma.js";
import { partitionRows, type RejectedRow } from "./shapes/shape.js";

/**
 * Gamma's limits are not in the venue's documentation; these stay under the ones the venue has published for its
 * listing endpoints. Override through `rateLimits`.
 */
export const GAMMA_RATE_LIMITS: readonly RateLimit[] = [
  { name: "gamma", limit: 1000, windowMs: 10_000 },
  pathLimit("gamma /markets", "/markets", 300, 10_000),
  pathLimit("gamma /events", "/events", 500, 10_000),
];

export const GAMMA_MAX_EVENTS_PAGE = 500;

export type GammaMarketQuery = {
  readonly id?: readonly (string | number)[];
  readonly slug?: readonly string[];
  readonly clob_token_ids?: readonly string[];
  readonly condition_ids?: readonly string[];
  /** Closed markets are listed only with closed=true. */
  readonly closed?: boolean;
  readonly tag_id?: number;
  readonly related_tags?: boolean;
  readonly include_tag?: boolean;
  readonly order?: string;
  readonly ascending?: boolean;
  readonly end_date_min?: string;
  readonly end_date_max?: string;
  readonly start_date_min?: string;
  readonly start_date_max?: string;
  readonly volume_num_min?: number;
  readonly volume_num_max?: number;
  readonly liquidity_num_min?: number;
  readonly liquidity_num_max?: number;
  readonly uma_resolution_status?: string;
};

export type GammaEventQuery = {
  readonly id?: readonly (string | number)[];
  readonly slug?: readonly string[];
  readonly closed?: boolean;
  readonly tag_id?: number;
  readonly order?: string;
  readonly ascending?: boolean;
};

export interface GammaPage<T> {
  readonly rows: T[];
  readonly rejected: RejectedRow[];
}

export class GammaClient {
  constructor(readonly http: VenueHttpClient) {}

  static fromConfig(config: Pick<Config, "venue">, overrides: Partial<VenueHttpOptions> = {}): GammaClient {
    return new GammaClient(
      configuredHttpClient(
        config,
        { name: "gamma", baseUrl: config.venue.gammaUrl, rateLimits: GAMMA_RATE_LIMITS },
        overrides,
      ),
    );
  }

  /** One `/markets` page. */
  async marketsPage(
    query: GammaMarketQuery & { limit: number; offset?: number },
    signal?: AbortSignal,
  ): Promise<GammaPage<GammaMarket>> {
    const payload = await this.http.getJson("/markets", query, { signal });
    return partitionRows(GammaMarketShape, payload, `gamma /markets offset ${query.offset ?? 0}`);
  }

  /** Every market matching `query`, page by page (offset paging until a short page). */
  markets(
    query: GammaMarketQuery = {},
    options: { pageSize?: number; startOffset?: number; signal?: AbortSignal } = {},
  ): OffsetPaging<GammaMarket> {
    return pageByOffset({
      source: "gamma /markets",
      shape: GammaMarketShape,
      pageSize: options.pageSize ?? 500,
      maxOffset: Number.POSITIVE_INFINITY,
      startOffset: options.startOffset,
      fetchPage: (offset, limit) =>
        this.http.getJson("/markets", { ...query, limit, offset }, { signal: options.signal }),
    });
  }

  /**
   * Markets by condition id, open and closed alike: Gamma lists closed markets only when asked with
   * closed=true, so both states are requested. Ids go as repeated parameters, `chunk` per request.
   */
  async marketsByConditionIds(
    conditionIds: readonly string[],
    options: { chunk?: number; signal?: AbortSignal } = {},
  ): Promise<GammaPage<GammaMarket>> {
    const chunk = options.chunk ?? 50;
    const rows: GammaMarket[] = [];
    const rejected: RejectedRow[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < conditionIds.length; i += chunk) {
      const ids = conditionIds.slice(i, i + chunk);
      for (const closed of [false, true]) {
        const page = await this.marketsPage({ condition_ids: ids, closed, limit: ids.length }, options.signal);
        rejected.push(...page.rejected);
        for (const market of page.rows) {
          if (!seen.has(market.id)) {
            seen.add(market.id);
            rows.push(market);
          }
        }
      }
    }
    return { rows, rejected };
  }

  /** One `/events` page (offset paging, the legacy listing; prefer `events` for full syncs). */
  async eventsPage(
    query: GammaEventQuery & { limit: number; offset?: number },
    signal?: AbortSignal,
  ): Promise<GammaPage<GammaEvent>> {
    const payload = await this.http.getJson("/events", query, { signal });
    return partitionRows(GammaEventShape, payload, `gamma /events offset ${query.offset ?? 0}`);
  }

  /** Every event matching `query` through `/events/keyset` (`after_cursor` → `next_cursor`, at most 500 a page). */
  events(
    query: GammaEventQuery = {},
    options: { pageSize?: number; startCursor?: string | null; signal?: AbortSignal } = {},
  ): CursorPaging<GammaEvent> {
    const limit = Math.min(options.pageSize ?? GAMMA_MAX_EVENTS_PAGE, GAMMA_MAX_EVENTS_PAGE);
    return pageByCursor({
      source: "gamma /events/keyset",
      shape: GammaEventShape,
      startCursor: options.startCursor,
      fetchPage: async (cursor) => {
        const payload = await this.http.getJson(
          "/events/keyset",
          { ...query, limit, after_cursor: cursor },
          { signal: options.signal },
        );
        const page = GammaEventsKeysetEnvelopeShape.parse(payload, "gamma /events/keyset");
        return { items: page.events, nextCursor: page.next_cursor };
      },
    });
  }
}
