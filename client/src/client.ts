/**
 * The typed client: the base URL and the key given once, every path, parameter and answer typed from the service's
 * OpenAPI document (openapi.ts), refusals thrown as PelagicApiError, retries per Retry-After and ETag reuse
 * (fetch-policy.ts), paging (paging.ts) and the live streams (sse.ts, websocket.ts) as async iterators.
 */
import createClient, { type Client } from "openapi-fetch";
import { PelagicApiError } from "./errors.js";
import { type EtagOptions, type RetryOptions, keyHeaders, policyFetch } from "./fetch-policy.js";
import type { paths } from "./openapi.js";
import { type GetBody, keysetPages, nextAlertsPage, nextWhaleTradesPage, offsetPages } from "./paging.js";
import { type StreamOptions, sseEvents } from "./sse.js";
import type {
  Answer,
  BacktestPosition,
  IndexedTrade,
  Init,
  InitArgs,
  ItemOf,
  ListField,
  MarketWhaleTrade,
  PathsWith,
  Query,
  RelayTrade,
} from "./types.js";
import { type SocketMessage, type WebSocketConstructor, socketMessages } from "./websocket.js";

export interface PelagicClientOptions {
  /** The service's root, e.g. `https://pelagic.example` or `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** An API key (`pelagic_...`): sent as X-API-Key and as a Bearer token. Free reads need none. */
  readonly apiKey?: string;
  /** Retries of 429 and 503 per Retry-After (default: 2, waiting at most 60 s). */
  readonly retry?: RetryOptions;
  /** Reuse of answers by ETag (default: 100 answers kept); false: none. */
  readonly etags?: EtagOptions | false;
  /** The fetch to send requests with (default: the global one). */
  readonly fetch?: typeof fetch;
  /** The WebSocket to open live sockets with (default: the global one; on Node 20, pass the `ws` package's). */
  readonly WebSocket?: WebSocketConstructor;
}

/** Which stream, and for the indexed one which entry types (`mint`, `merge`, `complementary`). */
export interface LiveSocketOptions extends StreamOptions {
  readonly stream?: "trades" | "trades-indexed";
  readonly types?: readonly ("mint" | "merge" | "complementary")[];
}

type Paged<P extends PathsWith<"get">> = Omit<Query<P>, "offset">;
type PagedInit<P extends PathsWith<"get">> =
  Init<P> extends { params: { path: infer Path } }
    ? { params: { path: Path; query?: Paged<P> } }
    : { params?: { query?: Paged<P> } };

export interface PelagicClient {
  /** The openapi-fetch client underneath (same key, retries and ETags): `{data, error, response}`, no throwing. */
  readonly api: Client<paths>;
  /** GET `path`: its 200 body, typed; a refusal throws PelagicApiError. */
  get<P extends PathsWith<"get">>(path: P, ...init: InitArgs<Init<P>>): Promise<Answer<P>>;
  /** POST `path` (batches, webhook registration): its 200 body; a refusal throws PelagicApiError. */
  post<P extends PathsWith<"post">>(path: P, ...init: InitArgs<Init<P, "post">>): Promise<Answer<P, "post">>;
  /** DELETE `path`: its 200 body; a refusal throws PelagicApiError. */
  delete<P extends PathsWith<"delete">>(path: P, ...init: InitArgs<Init<P, "delete">>): Promise<Answer<P, "delete">>;
  /** Every item of an offset-paged list (`field` of each page), fetching the pages as the iteration goes. */
  pages<P extends PathsWith<"get">, F extends ListField<Answer<P>>>(
    path: P,
    field: F,
    ...init: InitArgs<PagedInit<P>>
  ): AsyncGenerator<ItemOf<Answer<P>, F>, void, undefined>;
  /** Every resolved outcome side of a whale's history (`/api/v2/whale/{address}/backtest`, Premium), newest first. */
  whaleHistory(
    address: string,
    query?: Paged<"/api/v2/whale/{address}/backtest">,
  ): AsyncGenerator<BacktestPosition, void, undefined>;
  /** Every whale-class trade of a market, newest first (`/api/v2/market/{condition_id}/whale-trades`, Premium). */
  marketWhaleTrades(
    conditionId: string,
    query?: Omit<Query<"/api/v2/market/{condition_id}/whale-trades">, "before_id">,
  ): AsyncGenerator<MarketWhaleTrade, void, undefined>;
  /** Every whale alert of the window, newest first (`/api/v2/whale-alerts`, Premium). */
  whaleAlerts(
    query?: Omit<Query<"/api/v2/whale-alerts">, "before_ts">,
  ): AsyncGenerator<ItemOf<Answer<"/api/v2/whale-alerts">, "alerts">, void, undefined>;
  /** The raw relay's trades as they come (SSE, Premium), reconnecting. */
  liveTrades(options?: StreamOptions): AsyncGenerator<RelayTrade, void, undefined>;
  /** The indexed stream's classified chain fills (SSE, Premium), reconnecting. */
  liveIndexedTrades(
    options?: StreamOptions & { types?: LiveSocketOptions["types"] },
  ): AsyncGenerator<IndexedTrade, void, undefined>;
  /** Either stream over a WebSocket (Premium), reconnecting: each `trade` message's data. */
  liveSocket(options?: LiveSocketOptions): AsyncGenerator<RelayTrade | IndexedTrade, void, undefined>;
}

/** The 200 body of an openapi-fetch answer, or the refusal as PelagicApiError. */
async function unwrap<T>(answer: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await answer;
  if (error !== undefined || !response.ok) throw PelagicApiError.of(response, error ?? null);
  return data as T;
}

const TRADE = "trade";

export function createPelagicClient(options: PelagicClientOptions): PelagicClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const { apiKey } = options;
  const api = createClient<paths>({
    baseUrl,
    fetch: policyFetch({ apiKey, fetch: options.fetch, retry: options.retry, etags: options.etags }),
  });
  // Loosely typed inside: each method's signature above is what callers see.
  const loose = api as unknown as Record<"GET" | "POST" | "DELETE", (path: string, init?: unknown) => Promise<never>>;
  const getBody: GetBody = (path, init) => unwrap(loose.GET(path, init));
  const send = options.fetch ?? globalThis.fetch;

  const openStream = (path: string, query: string) => (lastEventId: string | undefined, signal: AbortSignal) =>
    send(`${baseUrl}${path}${query}`, {
      headers: {
        Accept: "text/event-stream",
        ...keyHeaders(apiKey),
        ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
      },
      signal,
    });
  async function* tradesOf<T>(events: AsyncIterable<{ event: string; data: string }>) {
    for await (const frame of events) if (frame.event === TRADE) yield JSON.parse(frame.data) as T;
  }
  const typesQuery = (types: LiveSocketOptions["types"]) => (types?.length ? types.join(",") : undefined);

  return {
    api,
    get: (path, ...init) => unwrap(loose.GET(path, init[0])),
    post: (path, ...init) => unwrap(loose.POST(path, init[0])),
    delete: (path, ...init) => unwrap(loose.DELETE(path, init[0])),
    pages: (path, field, ...init) => offsetPages(getBody, path, field, init[0] as never) as never,
    whaleHistory: (address, query) =>
      offsetPages(getBody, "/api/v2/whale/{address}/backtest", "positions", {
        params: { path: { address }, query },
      }) as AsyncGenerator<BacktestPosition, void, undefined>,
    marketWhaleTrades: (conditionId, query) =>
      keysetPages(getBody, "/api/v2/market/{condition_id}/whale-trades", "trades", nextWhaleTradesPage, {
        params: { path: { condition_id: conditionId }, query: { before: 0, ...query } },
      }) as AsyncGenerator<MarketWhaleTrade, void, undefined>,
    whaleAlerts: (query) =>
      keysetPages(getBody, "/api/v2/whale-alerts", "alerts", nextAlertsPage, { params: { query } }) as AsyncGenerator<
        ItemOf<Answer<"/api/v2/whale-alerts">, "alerts">,
        void,
        undefined
      >,
    liveTrades: (streamOptions) =>
      tradesOf<RelayTrade>(sseEvents(openStream("/api/public/v1/live/trades", ""), streamOptions)),
    liveIndexedTrades: (streamOptions = {}) => {
      const types = typesQuery(streamOptions.types);
      const query = types ? `?types=${encodeURIComponent(types)}` : "";
      return tradesOf<IndexedTrade>(sseEvents(openStream("/api/public/v1/live/trades-indexed", query), streamOptions));
    },
    liveSocket: (socketOptions = {}) => {
      const WebSocket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
      if (!WebSocket) throw new TypeError("no WebSocket here: pass one as the WebSocket option (the ws package's)");
      const query = new URLSearchParams({ stream: socketOptions.stream ?? "trades" });
      const types = typesQuery(socketOptions.types);
      if (types) query.set("types", types);
      const path = `/api/public/v1/live/ws?${query}`;
      const probe = () => send(`${baseUrl}${path}`, { headers: keyHeaders(apiKey) });
      const url = `${baseUrl.replace(/^http/, "ws")}${path}`;
      return (async function* () {
        for await (const message of socketMessages(WebSocket, url, apiKey, probe, socketOptions))
          if ((message as SocketMessage).event === TRADE) yield message.data as RelayTrade | IndexedTrade;
      })();
    },
  };
}
