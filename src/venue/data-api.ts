/**
 * Data API client (the venue's Data API). List endpoints page by offset up to the venue's ceilings
 * and end with `truncated` when a ceiling cut the list short. Returns validated payloads.
 */
import type { Config } from "../config/index.js";
import { configuredHttpClient, type VenueHttpClient, type VenueHttpOptions } from "./http.js";
import { pathLimit, type RateLimit } from "./pacing.js";
import { pageByOffset, type OffsetPaging } from "./paging.js";
import {
  DataActivityRowShape,
  DataClosedPositionRowShape,
  DataHoldersShape,
  DataPositionRowShape,
  DataTradeRowShape,
  DataTradedShape,
  DataValueShape,
  LeaderboardRowShape,
  type ActivityType,
  type DataActivityRow,
  type DataClosedPositionRow,
  type DataHolders,
  type DataPositionRow,
  type DataTradeRow,
  type LeaderboardRow,
} from "./shapes/data-api.js";
import type { Shape } from "./shapes/shape.js";
import type { TSchema } from "typebox";

/** the venue's documentation: about 1000 requests per 10 s overall, 200 on /trades, 150 on /positions. */
export const DATA_API_RATE_LIMITS: readonly RateLimit[] = [
  { name: "data-api", limit: 1000, windowMs: 10_000 },
  pathLimit("data-api /trades", "/trades", 200, 10_000),
  pathLimit("data-api /positions", "/positions", 150, 10_000),
];

/** Page size and offset ceiling of each list endpoint (the venue's documented limits); Infinity where none is documented. */
export const DATA_API_LIMITS = {
  trades: { maxLimit: 10_000, maxOffset: 10_000 },
  activity: { maxLimit: 500, maxOffset: 10_000 },
  positions: { maxLimit: 500, maxOffset: 10_000 },
  closedPositions: { maxLimit: 50, maxOffset: Number.POSITIVE_INFINITY },
  leaderboard: { maxLimit: 50, maxOffset: 1_000 },
  holders: { maxLimit: 20 },
} as const;

export type SortDirection = "ASC" | "DESC";

export type TradesQuery = {
  readonly user?: string;
  /** Condition ids; sent comma-separated, as the Data API wants. */
  readonly market?: readonly string[];
  readonly eventId?: string | number;
  /** Default true at the venue: false adds the maker rows. */
  readonly takerOnly?: boolean;
  readonly side?: "BUY" | "SELL";
  readonly filterType?: "CASH" | "TOKENS";
  readonly filterAmount?: number;
};

export type ActivityQuery = {
  readonly market?: readonly string[];
  readonly eventId?: string | number;
  readonly type?: readonly ActivityType[];
  /** Unix seconds. */
  readonly start?: number;
  readonly end?: number;
  readonly sortBy?: "TIMESTAMP" | "TOKENS" | "CASH";
  readonly sortDirection?: SortDirection;
  readonly side?: "BUY" | "SELL";
};

export type PositionsQuery = {
  readonly market?: readonly string[];
  readonly eventId?: string | number;
  readonly sizeThreshold?: number;
  readonly redeemable?: boolean;
  readonly mergeable?: boolean;
  readonly sortBy?: string;
  readonly sortDirection?: SortDirection;
  readonly title?: string;
};

export type ClosedPositionsQuery = {
  readonly market?: readonly string[];
  readonly sortBy?: "REALIZEDPNL" | "TITLE" | "PRICE" | "AVGPRICE" | "TIMESTAMP";
  readonly sortDirection?: SortDirection;
};

export type LeaderboardQuery = {
  readonly category?: string;
  readonly timePeriod?: "DAY" | "WEEK" | "MONTH" | "ALL";
  readonly orderBy?: "PNL" | "VOL";
  readonly user?: string;
};

export interface PagingOptions {
  readonly pageSize?: number;
  readonly startOffset?: number;
  readonly signal?: AbortSignal;
}

type Params = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** Data API list parameters are comma-separated (`market=0xa,0xb`), unlike Gamma's repeated ones. */
function csv(params: Params): Record<string, string | number | boolean | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v])) as Record<
    string,
    string | number | boolean | undefined
  >;
}

export class DataApiClient {
  constructor(readonly http: VenueHttpClient) {}

  static fromConfig(config: Pick<Config, "venue">, overrides: Partial<VenueHttpOptions> = {}): DataApiClient {
    return new DataApiClient(
      configuredHttpClient(
        config,
        { name: "data-api", baseUrl: config.venue.dataApiUrl, rateLimits: DATA_API_RATE_LIMITS },
        overrides,
      ),
    );
  }

  private list<S extends TSchema>(
    path: string,
    shape: Shape<S>,
    limits: { maxLimit: number; maxOffset: number },
    params: Params,
    options: PagingOptions,
  ) {
    return pageByOffset({
      source: `data-api ${path}`,
      shape,
      pageSize: Math.min(options.pageSize ?? limits.maxLimit, limits.maxLimit),
      maxOffset: limits.maxOffset,
      startOffset: options.startOffset,
      fetchPage: (offset, limit) =>
        this.http.getJson(path, { ...csv(params), limit, offset }, { signal: options.signal }),
    });
  }

  /**
   * `/trades`, market-wide or for one `user`. The ceiling lets offset + pageSize rows through at most, so a
   * larger page reaches further back (default 1000 rows a page: 11,000 rows before `truncated`).
   */
  trades(query: TradesQuery = {}, options: PagingOptions = {}): OffsetPaging<DataTradeRow> {
    return this.list(
      "/trades",
      DataTradeRowShape,
      DATA_API_LIMITS.trades,
      { ...query },
      { ...options, pageSize: options.pageSize ?? 1_000 },
    );
  }

  activity(user: string, query: ActivityQuery = {}, options: PagingOptions = {}): OffsetPaging<DataActivityRow> {
    return this.list("/activity", DataActivityRowShape, DATA_API_LIMITS.activity, { ...query, user }, options);
  }

  positions(user: string, query: PositionsQuery = {}, options: PagingOptions = {}): OffsetPaging<DataPositionRow> {
    return this.list("/positions", DataPositionRowShape, DATA_API_LIMITS.positions, { ...query, user }, options);
  }

  closedPositions(
    user: string,
    query: ClosedPositionsQuery = {},
    options: PagingOptions = {},
  ): OffsetPaging<DataClosedPositionRow> {
    return this.list(
      "/closed-positions",
      DataClosedPositionRowShape,
      DATA_API_LIMITS.closedPositions,
      { ...query, user },
      options,
    );
  }

  leaderboard(query: LeaderboardQuery = {}, options: PagingOptions = {}): OffsetPaging<LeaderboardRow> {
    return this.list("/v1/leaderboard", LeaderboardRowShape, DATA_API_LIMITS.leaderboard, { ...query }, options);
  }

  /** The wallet's current position value in USD; null when the venue has no row for it. */
  async value(user: string, signal?: AbortSignal): Promise<number | null> {
    const rows = DataValueShape.parse(await this.http.getJson("/value", { user }, { signal }));
    return rows.find((r) => r.user.toLowerCase() === user.toLowerCase())?.value ?? rows[0]?.value ?? null;
  }

  /** The number of markets the wallet has traded. */
  async traded(user: string, signal?: AbortSignal): Promise<number> {
    return DataTradedShape.parse(await this.http.getJson("/traded", { user }, { signal })).traded;
  }

  /** Top holders of each outcome token of the given markets (at most 20 per token). */
  async holders(
    market: readonly string[],
    limit: number = DATA_API_LIMITS.holders.maxLimit,
    signal?: AbortSignal,
  ): Promise<DataHolders> {
    const query = { market: market.join(","), limit: Math.min(limit, DATA_API_LIMITS.holders.maxLimit) };
    return DataHoldersShape.parse(await this.http.getJson("/holders", query, { signal }));
  }
}
