/**
 * The live trade streams (Premium, Bearer or X-API-Key; each connection costs one request of the minute budget
 * and holds one of the key's SSE_CONNECTIONS_PER_KEY slots until it closes):
 * - GET /api/public/v1/live/trades: SSE, the raw relay (every fill of the venue's live feed, labelled per transaction);
 * - GET /api/public/v1/live/trades-indexed?types=: SSE, the chain's classified fills, filtered on the server;
 * - GET /api/public/v1/live/ws?stream=&types=: the same streams over a WebSocket.
 * The events come from this process's hub (src/live/), fed by the relay that runs with the live feed.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ALL_ENTRY_TYPES, ENTRY_TYPE_BITS, createLiveHub } from "../../../live/index.js";
import { openSseStream } from "../../../live/sse.js";
import { IndexedTradeEventSchema, RelayTradeEventSchema } from "../../../live/trade-events.js";
import {
  WS_KEY_PROTOCOL_PREFIX,
  WS_PROTOCOL,
  acceptWebSockets,
  isWebSocketHandshake,
  upgradeToStream,
} from "../../../live/websocket.js";
import type { EntryType } from "../../../store/schema.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { HttpError, validationError } from "../../errors.js";
import { acquireStreamSlot } from "../../gate.js";
import {
  SwitchingProtocols,
  TradesIndexedQuery,
  UpgradeRequired,
  WebSocketQuery,
  sseResponse,
} from "./live-schemas.js";

const BASE = "/api/public/v1/live";
const TYPE_NAMES = ["mint", "merge", "complementary"] as const;

/** The ENTRY_TYPE_BITS of a `types` parameter; a 422 for anything but a non-empty subset of the three names. */
function typeMaskOf(types: string | undefined): number {
  if (types === undefined) return ALL_ENTRY_TYPES;
  const names = types.split(",").map((name) => name.trim().toLowerCase());
  let mask = 0;
  for (const name of names) {
    if (!(TYPE_NAMES as readonly string[]).includes(name)) {
      throw validationError(
        ["query", "types"],
        `Input should be a comma-separated subset of ${TYPE_NAMES.join(", ")}`,
        "literal_error",
      );
    }
    mask |= ENTRY_TYPE_BITS[name.toUpperCase() as EntryType];
  }
  return mask;
}

const SSE_RULES =
  "Server-sent events, live only (no replay): `event: trade` frames whose `data:` line is the JSON below; a " +
  "`: keepalive` comment after LIVE_KEEPALIVE_SECONDS (15) without one; when the upstream drops, up to " +
  "LIVE_RECONNECT_ATTEMPTS (5) reconnects with exponential backoff, then `event: error` (data: {detail}) and the end " +
  "of the stream. At most SSE_CONNECTIONS_PER_KEY (5) concurrent streams per key (429 beyond, across SSE and " +
  "WebSocket); a client that reads too slowly is disconnected. Browsers: fetch() with the header (EventSource " +
  "cannot set one).";

export const liveRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const hub = createLiveHub(ctx.config, ctx.platform, app.log, ctx.live);
  const wss = acceptWebSockets(app, `${BASE}/ws`);
  // Streams never end by themselves: end them before the server waits for its connections to close.
  app.addHook("preClose", async () => {
    await hub.close();
    wss.close();
  });

  app.get(
    `${BASE}/trades`,
    {
      schema: {
        summary: "Live raw relay (SSE)",
        description: `One \`trade\` event per fill of the venue's live feed, held LIVE_SETTLEMENT_HOLD_MS (700 ms) and labelled per transaction. ${SSE_RULES}`,
        tags: ["live"],
        response: sseResponse("an event stream of the raw relay's fills", RelayTradeEventSchema),
      },
      config: { access: access.premiumAnyHeader },
    },
    async (request, reply) => {
      const lease = await acquireStreamSlot(ctx, request);
      openSseStream(hub, reply, "trades", ALL_ENTRY_TYPES, lease);
    },
  );

  app.get(
    `${BASE}/trades-indexed`,
    {
      schema: {
        summary: "Live classified chain fills (SSE)",
        description: `One \`trade\` event per classified fill from the chain follower (20-45 s after confirmation), with both parties and market metadata. ${SSE_RULES}`,
        tags: ["live"],
        querystring: TradesIndexedQuery,
        response: sseResponse("an event stream of classified chain fills", IndexedTradeEventSchema),
      },
      config: { access: access.premiumAnyHeader },
    },
    async (request, reply) => {
      const typeMask = typeMaskOf(request.query.types);
      const lease = await acquireStreamSlot(ctx, request);
      openSseStream(hub, reply, "trades-indexed", typeMask, lease);
    },
  );

  app.get(
    `${BASE}/ws`,
    {
      schema: {
        summary: "Live streams over a WebSocket",
        description:
          `The same events and filters as the SSE streams, over a WebSocket: text messages \`{"event":"trade","data":{...}}\`, ` +
          `then \`{"event":"error","data":{"detail":...}}\` and close code 1011 when the upstream is lost; protocol pings when quiet. ` +
          `The key: Authorization: Bearer or X-API-Key, or, from a browser, the subprotocols \`${WS_PROTOCOL}\` and \`${WS_KEY_PROTOCOL_PREFIX}<API_KEY>\` ` +
          `(the server selects ${WS_PROTOCOL}). Refusals (401, 403, 422, 429) are HTTP answers to the handshake. Same slots and cost as SSE.`,
        tags: ["live"],
        querystring: WebSocketQuery,
        response: { 101: SwitchingProtocols, 426: UpgradeRequired },
      },
      config: { access: access.premiumAnyHeader },
    },
    async (request, reply) => {
      const stream = request.query.stream ?? "trades";
      if (stream === "trades" && request.query.types !== undefined)
        throw validationError(["query", "types"], "types filters the trades-indexed stream only", "value_error");
      const typeMask = typeMaskOf(request.query.types);
      if (!isWebSocketHandshake(request))
        throw new HttpError(426, "Upgrade Required: open a WebSocket on this URL", { Upgrade: "websocket" });
      const lease = await acquireStreamSlot(ctx, request);
      upgradeToStream(wss, hub, request, reply, stream, typeMask, lease);
    },
  );
};
