/** The live streams' schemas. */
import { Type } from "typebox";
import type { IndexedTradeEventSchema, RelayTradeEventSchema } from "../../../live/trade-events.js";

export const TypesParameter = Type.Optional(
  Type.String({
    description: "comma-separated subset of mint, merge, complementary; omit for every classified fill",
    examples: ["mint,merge"],
  }),
);

/** The 200 answer of an SSE route: an event stream whose `data:` lines are `schema`'s JSON. */
export const sseResponse = (
  description: string,
  schema: typeof RelayTradeEventSchema | typeof IndexedTradeEventSchema,
) => ({
  200: { description, content: { "text/event-stream": { schema } } },
});

export const TradesIndexedQuery = Type.Object({ types: TypesParameter });

export const WebSocketQuery = Type.Object({
  stream: Type.Optional(
    Type.Union([Type.Literal("trades"), Type.Literal("trades-indexed")], {
      default: "trades",
      description: "which stream",
    }),
  ),
  types: TypesParameter,
});

export const SwitchingProtocols = { description: "Switching Protocols: the WebSocket is open", type: "null" };

export const UpgradeRequired = Type.Object(
  { detail: Type.String() },
  { description: "A plain HTTP request: open a WebSocket instead" },
);
