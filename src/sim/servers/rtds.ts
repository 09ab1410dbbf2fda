/**
 * The real-time data service (the venue's RTDS websocket) on a websocket path: clients subscribe to the `activity`
 * topic's `trades` (one message per wallet side of each new fill) and `orders_matched` (one per match, the
 * taker's row), optionally filtered by `event_slug` or `market_slug`. Messages come in the envelope
 * `{connection_id, topic, type, timestamp (ms), payload}`; the text `ping` is answered `pong`; empty frames keep
 * idle connections alive. Only live mode produces trades. Faults can drop connections or lose messages.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { RTDS_ACTIVITY_TOPIC } from "../../venue/shapes/rtds.js";
import type { LiveAppend, World } from "../world/index.js";
import { hashString } from "../../platform/hash.js";
import { decimal } from "./format.js";
import { getAddress } from "viem";
import { tradeRow } from "./data-api.js";
import type { Faults } from "./faults.js";
import type { VenueState } from "./venue-state.js";

export interface RtdsServerOptions {
  /** Interval of the empty keep-alive frames, ms (default 10 s). */
  keepAliveMs?: number;
}

interface Subscription {
  type: string;
  eventSlug: string | null;
  marketSlug: string | null;
}

interface Client {
  socket: WebSocket;
  id: string;
  subscriptions: Subscription[];
}

export interface RtdsServer {
  /** Connections open now. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * The RTDS `trades` payload of fill f: the /trades row plus the taker's fee in collateral, its wallet checksummed
 * (mixed case, EIP-55) as the real feed writes it where the Data API writes lower case (test/fixtures/venue-real,
 * `rtds-activity-trades.pmcmc`).
 */
export function rtdsTradePayload(world: World, f: number) {
  const { profileImageOptimized: _optimized, proxyWallet, ...row } = tradeRow(world, f);
  const fee = world.fillFee(f);
  const trade = { ...row, proxyWallet: getAddress(proxyWallet) };
  return fee > 0 ? { ...trade, fee: decimal(fee) } : trade;
}

function parseSubscriptions(raw: string): { action: string; subscriptions: Subscription[] } | null {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  const m = message as { action?: unknown; subscriptions?: unknown };
  if ((m.action !== "subscribe" && m.action !== "unsubscribe") || !Array.isArray(m.subscriptions)) return null;
  const subscriptions: Subscription[] = [];
  for (const s of m.subscriptions as { topic?: unknown; type?: unknown; filters?: unknown }[]) {
    if (s.topic !== RTDS_ACTIVITY_TOPIC || typeof s.type !== "string") continue;
    let filters: { event_slug?: unknown; market_slug?: unknown } = {};
    if (typeof s.filters === "string" && s.filters !== "") {
      try {
        filters = JSON.parse(s.filters) as typeof filters;
      } catch {
        return null;
      }
    }
    subscriptions.push({
      type: s.type,
      eventSlug: typeof filters.event_slug === "string" ? filters.event_slug : null,
      marketSlug: typeof filters.market_slug === "string" ? filters.market_slug : null,
    });
  }
  return { action: m.action, subscriptions };
}

export function startRtdsServer(
  state: VenueState,
  faults: Faults,
  server: Server,
  path: string,
  options: RtdsServerOptions = {},
): RtdsServer {
  const world = state.world;
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<Client>();
  let connectionCount = 0;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== path) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  };
  server.on("upgrade", onUpgrade);

  wss.on("connection", (socket: WebSocket) => {
    const id = (hashString(`${world.options.seed}#rtds#${connectionCount++}`) >>> 0).toString(16).padStart(8, "0");
    const client: Client = { socket, id: `sim${id}`, subscriptions: [] };
    clients.add(client);
    socket.on("message", (data) => {
      const text = String(data);
      if (text.trim().toLowerCase() === "ping") return send(client, "pong");
      const parsed = parseSubscriptions(text);
      if (!parsed) return;
      if (parsed.action === "subscribe") client.subscriptions.push(...parsed.subscriptions);
      else
        client.subscriptions = client.subscriptions.filter((s) => !parsed.subscriptions.some((u) => u.type === s.type));
    });
    socket.on("close", () => clients.delete(client));
    socket.on("error", () => clients.delete(client));
  });

  /** Sends a frame, unless a fault drops the connection instead. */
  function send(client: Client, frame: string): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (faults.strikes("rtdsDisconnect")) {
      clients.delete(client);
      client.socket.terminate();
      return;
    }
    client.socket.send(frame);
  }

  function publish(type: "trades" | "orders_matched", market: number, payload: unknown): void {
    const slug = world.markets[market]!.slug;
    const eventSlug = world.events[world.markets[market]!.eventIndex]!.slug;
    let payloadJson: string | null = null;
    for (const client of clients) {
      const wanted = client.subscriptions.some(
        (s) =>
          s.type === type &&
          (s.marketSlug === null || s.marketSlug === slug) &&
          (s.eventSlug === null || s.eventSlug === eventSlug),
      );
      if (!wanted || faults.strikes("rtdsLoss")) continue;
      payloadJson ??= JSON.stringify(payload);
      const head = JSON.stringify({
        connection_id: client.id,
        topic: RTDS_ACTIVITY_TOPIC,
        type,
        timestamp: state.nowMs(),
      });
      send(client, `${head.slice(0, -1)},"payload":${payloadJson}}`);
    }
  }

  const stopListening = state.onAppend((append: LiveAppend) => {
    if (clients.size === 0) return;
    for (let j = append.matches[0]; j < append.matches[1]; j++) {
      const [from, to] = world.fillsOfMatch(j);
      const market = world.tables.matchMarket[j]!;
      for (let f = from; f < to; f++) publish("trades", market, rtdsTradePayload(world, f));
      publish("orders_matched", market, rtdsTradePayload(world, to - 1));
    }
  });
  const keepAlive = setInterval(() => {
    for (const client of clients) send(client, "");
  }, options.keepAliveMs ?? 10_000);
  keepAlive.unref();

  return {
    get connections() {
      return clients.size;
    },
    async close() {
      clearInterval(keepAlive);
      stopListening();
      server.off("upgrade", onUpgrade);
      for (const client of clients) client.socket.terminate();
      clients.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
