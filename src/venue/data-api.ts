/**
 * Data API client (the venue's Data API). First-version list endpoints page by offset up to the venue's ceilings
 * and end with `truncated` when a ceiling cut the list short; second-version ones by cursor, without a ceiling.
 * Returns validated payloads.
 */
import type { Config } from "../config/index.js";
import { configuredHttpClient, VenueHttpError, type VenueHttpClient, type VenueHttpOptions } from "./http.js";
import { pathLimit, type RateLimit } from "./pacing.js";
import { pageByCursor, pageByOffset, type OffsetPaging, type OffsetPagingEnd, type RowsPage } from "./paging.js";
import { DataV2EnvelopeShape, DataV2ValueShape, v1RowOf, type DataV2Kind } from "./shapes/data-api-v2.js";
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
import type { Static, TSchema } from "typebox";

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

/** Where the second version serves a list, and how a first-version query reads there. */
interface V2Route {
  readonly path: string;
  readonly kind: DataV2Kind;
  /** Added to every request (`status` of positions). */
  readonly fixed?: Params;
}

const V2_ROUTES = {
  trades: { path: "/v2/trades", kind: "trades" },
  activity: { path: "/v2/activity", kind: "activity" },
  positions: { path: "/v2/positions", kind: "positions", fixed: { status: "OPEN" } },
  closedPositions: { path: "/v2/positions", kind: "closed-positions", fixed: { status: "CLOSED" } },
} as const satisfies Record<string, V2Route>;

/** The second version's page size ceiling (a larger `limit` is refused, not clamped). */
const V2_MAX_LIMIT = 1_000;

/** First-version parameters as the second version names them: snake case, `market` is `condition`. */
function v2Params(params: Params): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key === "market") out.condition = value;
    else if (key === "sizeThreshold") Object.assign(out, { filter_type: "TOKENS", filter_amount: value });
    else out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  }
  return out;
}

/** A first-version list answered as gone: 404 or 410 on its first page. */
const isGone = (error: unknown) => error instanceof VenueHttpError && (error.status === 404 || error.status === 410);

/**
 * The Data API, in its first version while it answers and in its second (`/v2/…`) from the first request a
 * first-version list answers as gone (404 or 410), for every list after it, reported once (a `version` event).
 * Both versions yield the same rows (`v1RowOf`), in the first version's paging items.
 */
export class DataApiClient {
  private version: "v1" | "v2" = "v1";

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

  /** The version the client reads now. */
  get apiVersion(): "v1" | "v2" {
    return this.version;
  }

  private async *list<S extends TSchema>(
    path: string,
    v2: V2Route,
    shape: Shape<S>,
    limits: { maxLimit: number; maxOffset: number },
    params: Params,
    options: PagingOptions,
  ): OffsetPaging<Static<S>> {
    if (this.version === "v1") {
      const v1 = pageByOffset({
        source: `data-api ${path}`,
        shape,
        pageSize: Math.min(options.pageSize ?? limits.maxLimit, limits.maxLimit),
        maxOffset: limits.maxOffset,
        startOffset: options.startOffset,
        fetchPage: (offset, limit) =>
          this.http.getJson(path, { ...csv(params), limit, offset }, { signal: options.signal }),
      });
      let first: IteratorResult<RowsPage<Static<S>> | OffsetPagingEnd, void>;
      try {
        first = await v1.next();
      } catch (error) {
        if (!isGone(error)) throw error;
        this.moveToV2(path, (error as VenueHttpError).status);
        first = { done: true, value: undefined };
      }
      if (this.version === "v1") {
        if (!first.done) yield first.value;
        yield* v1;
        return;
      }
    }
    yield* this.listV2(v2, shape, params, options);
  }

  private moveToV2(path: string, status: number): void {
    if (this.version === "v2") return;
    this.version = "v2";
    this.http.report({ type: "version", client: this.http.name, path, from: "v1", to: "v2", status });
  }

  /** A second-version list as first-version pages: rows renamed, pages numbered by the rows before them. */
  private async *listV2<S extends TSchema>(
    route: V2Route,
    shape: Shape<S>,
    params: Params,
    options: PagingOptions,
  ): OffsetPaging<Static<S>> {
    const limit = Math.min(options.pageSize ?? V2_MAX_LIMIT, V2_MAX_LIMIT);
    const query = { ...csv(v2Params(params)), ...route.fixed, limit };
    let offset = 0;
    for await (const item of pageByCursor({
      source: `data-api ${route.path}`,
      shape,
      fetchPage: async (cursor) => {
        const body = await this.http.getJson(route.path, cursor === null ? query : { ...query, cursor }, {
          signal: options.signal,
        });
        const envelope = DataV2EnvelopeShape.parse(body, `data-api ${route.path}`);
        const items = (envelope.data ?? []).map((row) => v1RowOf(route.kind, row));
        return { items, nextCursor: envelope.pagination?.next_cursor ?? null };
      },
    })) {
      if (item.type === "end") {
        yield { type: "end", truncated: false, rowCount: item.rowCount, nextOffset: item.rowCount };
        return;
      }
      yield { type: "page", offset, rows: item.rows, rejected: item.rejected };
      offset += item.rows.length + item.rejected.length;
    }
  }

  /**
   * `/trades`, market-wide or for one `user`. The ceiling lets offset + pageSize rows through at most, so a
   * larger page reaches further back (default 1000 rows a page: 11,000 rows before `truncated`).
   */
  trades(query: TradesQuery = {}, options: PagingOptions = {}): OffsetPaging<DataTradeRow> {
    return this.list(
      "/trades",
      V2_ROUTES.trades,
      DataTradeRowShape,
      DATA_API_LIMITS.trades,
      { ...query },
      { ...options, pageSize: options.pageSize ?? 1_000 },
    );
  }

  activity(user: string, query: ActivityQuery = {}, options: PagingOptions = {}): OffsetPaging<DataActivityRow> {
    return this.list(
      "/activity",
      V2_ROUTES.activity,
      DataActivityRowShape,
      DATA_API_LIMITS.activity,
      { ...query, user },
      options,
    );
  }

  positions(user: string, query: PositionsQuery = {}, options: PagingOptions = {}): OffsetPaging<DataPositionRow> {
    return this.list(
      "/positions",
      V2_ROUTES.positions,
      DataPositionRowShape,
      DATA_API_LIMITS.positions,
      { ...query, user },
      options,
    );
  }

  closedPositions(
    user: string,
    query: ClosedPositionsQuery = {},
    options: PagingOptions = {},
  ): OffsetPaging<DataClosedPositionRow> {
    return this.list(
      "/closed-positions",
      V2_ROUTES.closedPositions,
      DataClosedPositionRowShape,
      DATA_API_LIMITS.closedPositions,
      { ...query, user },
      options,
    );
  }

  leaderboard(query: LeaderboardQuery = {}, options: PagingOptions = {}): OffsetPaging<LeaderboardRow> {
    return pageByOffset({
      source: "data-api /v1/leaderboard",
      shape: LeaderboardRowShape,
      pageSize: Math.min(
        options.pageSize ?? DATA_API_LIMITS.leaderboard.maxLimit,
        DATA_API_LIMITS.leaderboard.maxLimit,
      ),
      maxOffset: DATA_API_LIMITS.leaderboard.maxOffset,
      startOffset: options.startOffset,
      fetchPage: (offset, limit) =>
        this.http.getJson("/v1/leaderboard", { ...csv({ ...query }), limit, offset }, { signal: options.signal }),
    });
  }

  /** The wallet's current position value in USD; null when the venue has no row for it. */
  async value(user: string, signal?: AbortSignal): Promise<number | null> {
    if (this.version === "v1") {
      try {
        const rows = DataValueShape.parse(await this.http.getJson("/value", { user }, { signal }));
        return rows.find((r) => r.user.toLowerCase() === user.toLowerCase())?.value ?? rows[0]?.value ?? null;
      } catch (error) {
        if (!isGone(error)) throw error;
        this.moveToV2("/value", (error as VenueHttpError).status);
      }
    }
    return DataV2ValueShape.parse(await this.http.getJson("/v2/value", { user }, { signal })).data?.value ?? null;
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
