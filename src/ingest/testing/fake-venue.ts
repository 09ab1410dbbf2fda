/**
 * Test support: a small in-memory venue on loopback speaking the venue's shapes (Gamma, Data API, user P&L,
 * Polygon JSON-RPC, RTDS), built on src/venue/testing's loopback server and fixtures. Each part holds plain
 * arrays the test fills and changes; `clients()` returns venue clients pointed at it with fast retries.
 */
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { address, hash32 } from "../../venue/testing/chain-events.js";
import {
  startLoopback,
  type Loopback,
  type LoopbackReply,
  type LoopbackRequest,
} from "../../venue/testing/loopback.js";
import {
  ArcGisClient,
  ChainClient,
  DataApiClient,
  GammaClient,
  PnlClient,
  RtdsClient,
  VenueHttpClient,
  encodeVenueLog,
  type DataActivityRow,
  type DataClosedPositionRow,
  type DataPositionRow,
  type DataTradeRow,
  type GammaEvent,
  type GammaMarket,
  type Hex,
  type VenueClients,
  type VenueEvent,
} from "../../venue/index.js";

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
/** Zero-padded hashes and addresses (src/venue/testing/chain-events.ts), for the tests that use this venue. */
export { address, hash32 };
const CEILING_BODY = { error: "max historical trades offset of 10000 exceeded" };

function page<T>(rows: readonly T[], query: URLSearchParams, ceiling: number): LoopbackReply {
  const offset = Number(query.get("offset") ?? 0);
  const limit = Number(query.get("limit") ?? 100);
  if (offset > ceiling) return { status: 400, body: CEILING_BODY };
  return { body: rows.slice(offset, offset + limit) };
}

/** Gamma: `/markets` (closed filter, condition_ids, clob_token_ids, offset) and `/events/keyset`. */
export class FakeGamma {
  markets: GammaMarket[] = [];
  /** Events by id; their markets are looked up in `markets` by the event's id. */
  events: Omit<GammaEvent, "markets">[] = [];
  /** Replies instead of the normal answer when it returns one (faults, malformed pages). */
  intercept: (request: LoopbackRequest) => LoopbackReply | undefined = () => undefined;

  private eventOf(market: GammaMarket): string | undefined {
    return market.events?.[0]?.id;
  }

  handle(request: LoopbackRequest): LoopbackReply {
    const special = this.intercept(request);
    if (special) return special;
    const closed = request.query.get("closed") === "true";
    if (request.path === "/markets") {
      const conditions = new Set(request.query.getAll("condition_ids"));
      const tokens = new Set(request.query.getAll("clob_token_ids"));
      const rows = this.markets
        .filter((m) => m.closed === closed)
        .filter((m) => !conditions.size || conditions.has(m.conditionId))
        .filter((m) => !tokens.size || JSON.parse(m.clobTokenIds ?? "[]").some((t: string) => tokens.has(t)))
        .sort((a, b) => Number(a.id) - Number(b.id));
      return page(rows, request.query, Number.POSITIVE_INFINITY);
    }
    if (request.path === "/events/keyset") {
      const events = this.events
        .map((e) => ({
          ...e,
          markets: this.markets.filter((m) => this.eventOf(m) === e.id).map(({ events: _events, ...m }) => m),
        }))
        .filter((e) => e.markets.length > 0 && e.markets.every((m) => m.closed) === closed);
      const after = Number(request.query.get("after_cursor") ?? -1);
      const limit = Number(request.query.get("limit") ?? 20);
      const from = events.findIndex((_, i) => i > after);
      const slice = from < 0 ? [] : events.slice(from, from + limit);
      const next = from >= 0 && from + limit < events.length ? String(from + limit - 1) : undefined;
      return { body: next === undefined ? { events: slice } : { events: slice, next_cursor: next } };
    }
    return { status: 404, body: { error: "not found" } };
  }
}

/** Data API: `/trades` newest first with an offset ceiling, `/activity`, `/positions`, `/closed-positions`; and `/user-pnl`. */
export class FakeDataApi {
  trades: DataTradeRow[] = [];
  activity: DataActivityRow[] = [];
  positions: DataPositionRow[] = [];
  closedPositions: DataClosedPositionRow[] = [];
  pnl = new Map<string, { t: number; p: number }[]>();
  /** The largest offset answered; beyond, the venue's HTTP 400. */
  ceiling = 10_000;
  intercept: (request: LoopbackRequest) => LoopbackReply | undefined = () => undefined;

  handle(request: LoopbackRequest): LoopbackReply {
    const special = this.intercept(request);
    if (special) return special;
    const q = request.query;
    const user = q.get("user")?.toLowerCase();
    const ofUser = <T extends { proxyWallet: string }>(rows: readonly T[]) =>
      rows.filter((r) => r.proxyWallet.toLowerCase() === user);
    switch (request.path) {
      case "/trades": {
        const markets = q.get("market")?.split(",");
        const rows = this.trades
          .filter((t) => !markets || markets.includes(t.conditionId))
          .filter((t) => !q.get("side") || t.side === q.get("side"))
          .filter((t) => !user || t.proxyWallet === user)
          .sort((a, b) => b.timestamp - a.timestamp);
        return page(rows, q, this.ceiling);
      }
      case "/activity": {
        const start = q.get("start") === null ? null : Number(q.get("start"));
        const ascending = q.get("sortDirection") === "ASC";
        const types = q.get("type")?.split(",");
        const rows = ofUser(this.activity)
          .filter((a) => start === null || a.timestamp >= start)
          .filter((a) => !types || types.includes(a.type))
          .sort((a, b) => (ascending ? a.timestamp - b.timestamp : b.timestamp - a.timestamp));
        return page(rows, q, this.ceiling);
      }
      case "/positions":
        return page(ofUser(this.positions), q, this.ceiling);
      case "/closed-positions":
        return page(ofUser(this.closedPositions), q, Number.POSITIVE_INFINITY);
      case "/user-pnl":
        return { body: this.pnl.get(q.get("user_address")?.toLowerCase() ?? "") ?? [] };
      default:
        return { status: 404, body: { error: "not found" } };
    }
  }
}

interface StoredLog {
  readonly block: number;
  readonly json: Record<string, unknown>;
}

/** Polygon JSON-RPC: head, blocks (2 s apart by default), eth_getLogs over the logs added; refuses answers over `maxLogs`. */
export class FakeChain {
  head = 1_000;
  maxLogs = Number.POSITIVE_INFINITY;
  private readonly logs: StoredLog[] = [];
  private readonly logCount = new Map<number, number>();
  private txCount = 0;
  intercept: (method: string, params: unknown[]) => unknown = () => undefined;

  constructor(readonly timestampOf: (block: number) => number = (block) => 1_770_000_000 + 2 * block) {}

  /** Adds one transaction's events in `block`, with consecutive log indexes; returns its hash. */
  addTx(block: number, events: readonly VenueEvent[], txHash: Hex = hash32(0xabc000000 + ++this.txCount)): Hex {
    for (const event of events) {
      const logIndex = this.logCount.get(block) ?? 0;
      this.logCount.set(block, logIndex + 1);
      this.logs.push({
        block,
        json: {
          ...encodeVenueLog(event),
          blockNumber: hex(block),
          blockHash: hash32(block),
          transactionHash: txHash,
          transactionIndex: "0x0",
          logIndex: hex(logIndex),
          removed: false,
        },
      });
    }
    return txHash;
  }

  /** Adds a raw log (for malformed data). */
  addRawLog(block: number, json: Record<string, unknown>): void {
    const logIndex = this.logCount.get(block) ?? 0;
    this.logCount.set(block, logIndex + 1);
    this.logs.push({
      block,
      json: {
        blockNumber: hex(block),
        blockHash: hash32(block),
        transactionIndex: "0x0",
        logIndex: hex(logIndex),
        removed: false,
        ...json,
      },
    });
  }

  private answer(call: { id: unknown; method: string; params: unknown[] }): unknown {
    const reply = (result: unknown) => ({ jsonrpc: "2.0", id: call.id, result });
    const special = this.intercept(call.method, call.params);
    if (special !== undefined) return { jsonrpc: "2.0", id: call.id, ...(special as object) };
    if (call.method === "eth_blockNumber") return reply(hex(this.head));
    if (call.method === "eth_getBlockByNumber") {
      const n = Number(BigInt(call.params[0] as string));
      return reply(
        n > this.head || n < 0
          ? null
          : {
              number: hex(n),
              hash: hash32(n),
              parentHash: hash32(Math.max(0, n - 1)),
              timestamp: hex(this.timestampOf(n)),
            },
      );
    }
    if (call.method === "eth_getLogs") {
      const filter = call.params[0] as {
        fromBlock: string;
        toBlock: string;
        address?: string | string[];
        topics?: (string | string[] | null)[];
      };
      const from = Number(BigInt(filter.fromBlock));
      const to = Math.min(Number(BigInt(filter.toBlock)), this.head);
      const lower = (v: string | string[]) => (Array.isArray(v) ? v : [v]).map((a) => a.toLowerCase());
      const addresses = filter.address === undefined ? undefined : lower(filter.address);
      // As a node reads topics: per position, one value, alternatives, or null for any.
      const topics = (filter.topics ?? []).map((t) => (t === null ? null : lower(t)));
      const logs = this.logs
        .filter((l) => l.block >= from && l.block <= to)
        .filter((l) => !addresses || addresses.includes(String(l.json.address).toLowerCase()))
        .filter((l) => {
          const logTopics = (l.json.topics as string[] | undefined) ?? [];
          return topics.every((allowed, k) => !allowed || allowed.includes(String(logTopics[k]).toLowerCase()));
        })
        .map((l) => l.json);
      if (logs.length > this.maxLogs)
        return {
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32005, message: `query returned more than ${this.maxLogs} results` },
        };
      return reply(logs);
    }
    return {
      jsonrpc: "2.0",
      id: call.id,
      error: { code: -32601, message: `the method ${call.method} does not exist/is not available` },
    };
  }

  handle(request: LoopbackRequest): LoopbackReply {
    const body = request.body as
      | { id: unknown; method: string; params: unknown[] }
      | { id: unknown; method: string; params: unknown[] }[];
    return { body: Array.isArray(body) ? body.map((c) => this.answer(c)) : this.answer(body) };
  }
}

/** RTDS: a websocket server that can broadcast trade payloads, drop every connection, or refuse new ones. */
export class FakeRtds {
  readonly sockets = new Set<WebSocket>();
  refuse = false;
  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {
    server.on("connection", (socket) => {
      if (this.refuse) return socket.terminate();
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.send("");
    });
  }

  static async start(): Promise<FakeRtds> {
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    return new FakeRtds(server, `ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  broadcastTrade(payload: Record<string, unknown>): void {
    const frame = JSON.stringify({
      connection_id: "c",
      topic: "activity",
      type: "trades",
      timestamp: Date.now(),
      payload,
    });
    for (const socket of this.sockets) socket.send(frame);
  }

  dropAll(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface FakeVenue {
  readonly gamma: FakeGamma;
  readonly dataApi: FakeDataApi;
  readonly chain: FakeChain;
  readonly rtds: FakeRtds;
  readonly urls: { gamma: string; dataApi: string; rpc: string; rtds: string };
  /** Clients pointed at the fake venue; `withChain: false` gives the Data API setup (no RPC). */
  clients(options?: { withChain?: boolean; maxBlockSpan?: number }): VenueClients;
  close(): Promise<void>;
}

export async function startFakeVenue(): Promise<FakeVenue> {
  const gamma = new FakeGamma();
  const dataApi = new FakeDataApi();
  const chain = new FakeChain();
  const servers: Loopback[] = await Promise.all([
    startLoopback((r) => gamma.handle(r)),
    startLoopback((r) => dataApi.handle(r)),
    startLoopback((r) => chain.handle(r)),
  ]);
  const [gammaServer, dataServer, rpcServer] = servers as [Loopback, Loopback, Loopback];
  const rtds = await FakeRtds.start();
  const http = (name: string, baseUrl: string) =>
    new VenueHttpClient({ name, baseUrl, timeoutMs: 5_000, maxAttempts: 3, backoffBaseMs: 1, backoffMaxMs: 5 });
  return {
    gamma,
    dataApi,
    chain,
    rtds,
    urls: { gamma: gammaServer.url, dataApi: dataServer.url, rpc: rpcServer.url, rtds: rtds.url },
    clients: (options = {}) => ({
      gamma: new GammaClient(http("gamma", gammaServer.url)),
      dataApi: new DataApiClient(http("data-api", dataServer.url)),
      pnl: new PnlClient(http("user-pnl", dataServer.url)),
      chain:
        options.withChain === false
          ? null
          : new ChainClient(http("rpc", rpcServer.url), { maxBlockSpan: options.maxBlockSpan ?? 100, batchSize: 20 }),
      rtds: new RtdsClient({
        url: rtds.url,
        pingIntervalMs: 50,
        reconnectBaseMs: 20,
        reconnectMaxMs: 50,
        staleAfterMs: 2_000,
      }),
      arcgis: new ArcGisClient(http("arcgis", gammaServer.url)),
    }),
    async close() {
      await Promise.all([...servers.map((s) => s.close()), rtds.close()]);
    },
  };
}
