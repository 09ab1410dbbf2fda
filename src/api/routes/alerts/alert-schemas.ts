/** TypeBox schemas of the alerts' routes (`/api/v2/alerts/*`: the OpenAPI document's shapes). */
import { Type } from "typebox";
import { RULE_KIND_TEXT } from "../../../alerts/rule-kinds.js";
import { DESTINATION_KINDS, RULE_KINDS } from "../../../alerts/tables.js";
import { THREAT_LEVELS } from "../../../isw/threat.js";
import { CATEGORY_CODES_TEXT } from "../../../venue/categories.js";
import { Limit } from "../../params.js";

const Name = Type.String({ minLength: 1, maxLength: 100, description: "the account's own name for it" });
const Id = Type.Integer({ minimum: 1 });
const Seconds = Type.Integer({ description: "unix seconds" });
const SecondsOrNull = Type.Union([Seconds, Type.Null()]);

export const DestinationParams = Type.Object({ destination_id: Id });
export const RuleParams = Type.Object({ rule_id: Id });
export const NoQuery = Type.Object({});

export const DestinationCreateBody = Type.Object(
  {
    kind: Type.Enum([...DESTINATION_KINDS], {
      description:
        "webhook: Standard Webhooks POSTs signed with a secret shown once; telegram: the Bot API's sendMessage; discord: a channel webhook (embeds); slack: an incoming webhook (blocks)",
    }),
    name: Name,
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2_048,
        description:
          "webhook, discord, slack: the URL (public addresses only; discord and slack: their platform's webhook URL)",
      }),
    ),
    bot_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "telegram: the bot's token (stored sealed, never shown)",
      }),
    ),
    chat_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: "telegram: the chat id, or @channelusername" }),
    ),
  },
  { additionalProperties: false },
);

export const DestinationPatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    enabled: Type.Optional(
      Type.Boolean({ description: "true enables a destination again (after it answered gone); false disables it" }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const DestinationFields = {
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.Enum([...DESTINATION_KINDS]),
  label: Type.String({ description: "what may be shown of it: a URL's host, the Telegram chat; never a secret" }),
  status: Type.Enum(["active", "disabled"]),
  disabled_at: SecondsOrNull,
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: "why it was disabled: the receiver answered gone (410, or its platform's equivalent), or the account",
  }),
  created_at: Seconds,
  updated_at: Seconds,
};

export const DestinationBody = Type.Object(DestinationFields);

export const CreatedDestinationBody = Type.Object({
  ...DestinationFields,
  secret: Type.Union([Type.String(), Type.Null()], {
    description: "webhook: whsec_…, the Standard Webhooks signing secret, shown once here; null for the other kinds",
  }),
});

export const DestinationListBody = Type.Object({ destinations: Type.Array(DestinationBody), count: Type.Integer() });

const Subjects = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 66 }), { maxItems: 10_000, description }));

const FiltersInput = Type.Object(
  {
    wallets: Subjects("wallet addresses (wallet_trade: required)"),
    markets: Subjects("condition ids (market_whale_trade: required; wallet_trade: narrows)"),
    categories: Type.Optional(
      Type.Array(Type.String({ maxLength: 40 }), {
        maxItems: 6,
        description: `whale_trade, wallet_trade: only markets of these categories: ${CATEGORY_CODES_TEXT}`,
      }),
    ),
    side: Type.Optional(Type.Enum(["buy", "sell", "both"], { description: "the trade's direction; default both" })),
    min_usd: Type.Optional(
      Type.Number({
        minimum: 0,
        description: "smallest trade (USD); default 0 for wallet_trade, ALERTS_WHALE_MIN_USD for the whale kinds",
      }),
    ),
    min_points: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description: "price_move (required): the move of the YES price, in percentage points (5: from 0.40 to 0.45)",
      }),
    ),
    window_minutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_440,
        description: "price_move: the window the move is measured over, minutes of trades; default 60",
      }),
    ),
    cities: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 10_000,
        description: "territory_event: the cities whose events are told (as /api/v2/isw/status names them); none: all",
      }),
    ),
    min_severity: Type.Optional(
      Type.Enum([...THREAT_LEVELS], { description: "territory_event: events at or above this severity; none: any" }),
    ),
    min_score: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description: "insider_alert: bets at or above this insider score (0..100); none: INSIDER_MIN_SCORE",
      }),
    ),
  },
  { additionalProperties: false },
);

const Filters = Type.Object({
  wallets: Type.Array(Type.String()),
  markets: Type.Array(Type.String()),
  categories: Type.Array(Type.String()),
  side: Type.Enum(["buy", "sell", "both"]),
  min_usd: Type.Number(),
  min_points: Type.Union([Type.Number(), Type.Null()], { description: "price_move: the move in percentage points" }),
  window_minutes: Type.Union([Type.Integer(), Type.Null()], { description: "price_move: the window, minutes" }),
  cities: Type.Array(Type.String(), { description: "territory_event: the cities (none: all)" }),
  min_severity: Type.Union([Type.Enum([...THREAT_LEVELS]), Type.Null()], {
    description: "territory_event: the least severity told (null: any)",
  }),
  min_score: Type.Union([Type.Number(), Type.Null()], {
    description: "insider_alert: the least insider score told (null: INSIDER_MIN_SCORE)",
  }),
});

const DestinationIds = Type.Array(Id, {
  minItems: 1,
  maxItems: 50,
  description: "the account's destinations this rule sends to",
});

export const RuleCreateBody = Type.Object(
  {
    name: Name,
    kind: Type.Enum([...RULE_KINDS], {
      description: RULE_KINDS.map((kind) => `${kind}: ${RULE_KIND_TEXT[kind]}`).join("; "),
    }),
    filters: Type.Optional(FiltersInput),
    destination_ids: DestinationIds,
    paused: Type.Optional(Type.Boolean({ description: "created paused; default false" })),
  },
  { additionalProperties: false },
);

export const RulePatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    filters: Type.Optional(FiltersInput),
    destination_ids: Type.Optional(DestinationIds),
    paused: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const RuleBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.Enum([...RULE_KINDS]),
  filters: Filters,
  destination_ids: Type.Array(Type.Integer()),
  status: Type.Enum(["active", "paused"]),
  created_at: Seconds,
  updated_at: Seconds,
  webhook_format: Type.Enum(["alert", "isw"], {
    description:
      "the body its webhook destinations get: alert, {type: alert.<kind>, timestamp, data: the alert}; isw, the territory webhook's {type: isw.<event type>, timestamp, data: the event} (a registration of POST /api/v2/isw/webhook/register)",
  }),
});

export const RuleListBody = Type.Object({ rules: Type.Array(RuleBody), count: Type.Integer() });

export const DeletedBody = Type.Object({ status: Type.Literal("deleted"), id: Type.Integer() });

const DeliveryStatus = Type.Enum(["pending", "delivered", "failed", "cancelled"], {
  description:
    "pending (waiting for its next attempt), delivered (a 2xx), failed (the retries ran out, or the destination answered gone), cancelled (its rule or destination went away or was disabled)",
});

export const DeliveryBody = Type.Object({
  id: Type.Integer(),
  rule_id: Type.Union([Type.Integer(), Type.Null()], { description: "null for a test fire" }),
  destination_id: Type.Integer(),
  event_key: Type.String({ description: "what the alert is about: the fill's key, or test:<n>" }),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Seconds, Type.Null()], {
    description:
      "pending: when the next attempt is due (or the lease of the process sending it ends); null once finished",
  }),
  last_status: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's last HTTP status" }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at_ms: Type.Integer({ description: "when the alert was stored (epoch ms)" }),
  finished_at_ms: Type.Union([Type.Integer(), Type.Null()], { description: "when it was delivered or given up" }),
  alert: Type.Object({}, { additionalProperties: true, description: "the alert as sent to a webhook" }),
});

export const DeliveriesQuery = Type.Object({
  limit: Limit({
    default: 50,
    max: 10_000,
    description: "deliveries to return, newest first (at most ALERTS_DELIVERIES_LISTED)",
  }),
  status: Type.Optional(DeliveryStatus),
  rule_id: Type.Optional(Id),
  destination_id: Type.Optional(Id),
});

export const DeliveryListBody = Type.Object({ deliveries: Type.Array(DeliveryBody), count: Type.Integer() });
