/**
 * The Data API's second version (`/v2/…`, docs/VENUE.md "Data API v2"): snake_case rows inside a
 * `{data, pagination: {limit, offset, has_more, next_cursor}}` envelope, paged by cursor only (an `offset` is a 400).
 * Its rows carry what the first version's do under other names: `v1RowOf` renames a row into the first version's
 * form, which the first version's shapes then check, so every normalizer and pipeline reads both versions alike.
 * Fields the first version derives (a position's initial value and cash P&L) are derived the same way here.
 */
import { Type, type Static } from "typebox";
import { defineShape } from "./shape.js";

export const DataV2EnvelopeSchema = Type.Object({
  data: Type.Union([Type.Array(Type.Unknown()), Type.Null()]),
  pagination: Type.Optional(
    Type.Object({
      limit: Type.Optional(Type.Integer()),
      has_more: Type.Optional(Type.Boolean()),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export const DataV2EnvelopeShape = defineShape("data-api v2 envelope", DataV2EnvelopeSchema);
export type DataV2Envelope = Static<typeof DataV2EnvelopeSchema>;

export const DataV2ValueSchema = Type.Object({
  data: Type.Union([Type.Object({ proxy_wallet: Type.String(), value: Type.Number() }), Type.Null()]),
});
export const DataV2ValueShape = defineShape("data-api /v2/value", DataV2ValueSchema);

/** Names the two versions give the same field, where the second's is not the first's in snake case. */
const RENAMED: Readonly<Record<string, string>> = {
  token_id: "asset",
  opposite_token_id: "oppositeAsset",
  current_size: "size",
  current_price: "curPrice",
  current_value: "currentValue",
  total_size: "totalBought",
};

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function renamed(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[RENAMED[key] ?? camel(key)] = value;
  return out;
}

export type DataV2Kind = "trades" | "activity" | "positions" | "closed-positions";

/**
 * A second-version row in the first version's form (a row that is not an object is passed on, for the first
 * version's shape to refuse). Positions: `initialValue = size * avgPrice` and `cashPnl = currentValue -
 * initialValue`, as the first version defines them; a closed position's `timestamp` is its `last_event_at`.
 */
export function v1RowOf(kind: DataV2Kind, raw: unknown): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const row = renamed(raw as Record<string, unknown>);
  if (kind === "positions" || kind === "closed-positions") {
    const { size, avgPrice, currentValue } = row as { size?: unknown; avgPrice?: unknown; currentValue?: unknown };
    if (typeof size === "number" && typeof avgPrice === "number") {
      row.initialValue = size * avgPrice;
      if (typeof currentValue === "number") row.cashPnl = currentValue - size * avgPrice;
    }
    if (kind === "closed-positions") row.timestamp = row.lastEventAt;
  }
  return row;
}
