/** TypeBox schemas of the territory monitor's routes (the OpenAPI document's shapes). */
import { Type } from "typebox";
import { EVENT_TYPES, THREAT_LEVELS } from "../../../isw/threat.js";
import { Limit } from "../../params.js";

const Threat = Type.Enum([...THREAT_LEVELS], {
  description: "SAFE < LOW < MEDIUM < HIGH < CRITICAL (CRITICAL: the subscription's trigger holds)",
});
const ThreatOrNull = Type.Union([Threat, Type.Null()], { description: "null until the probe measured it" });
const CheckType = Type.Enum(["single", "enter", "entirety"]);
const IsoTime = Type.String({ description: "ISO 8601, UTC" });
const countsByLevel = (description: string) =>
  Type.Object(
    Object.fromEntries(THREAT_LEVELS.map((level) => [level, Type.Integer()])) as Record<
      (typeof THREAT_LEVELS)[number],
      ReturnType<typeof Type.Integer>
    >,
    { description },
  );

const Market = Type.Object(
  {
    id: Type.String(),
    question: Type.String(),
    price_yes: Type.Union([Type.Number(), Type.Null()]),
    volume: Type.Number(),
  },
  { description: "the venue market the slug pattern names: the open one ending first, else the last to have ended" },
);

const Subscription = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  check_type: CheckType,
  geometry: Type.Array(Type.Array(Type.Number()), {
    description: "[lon, lat] pairs: one point for single, a closed ring otherwise",
  }),
  threat: ThreatOrNull,
  market_slug_pattern: Type.String({
    description: "venue market slugs this subscription stands for; * matches anything",
  }),
  description_excerpt: Type.String(),
  market: Type.Optional(Market),
  coverage: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], { description: "polygons: share of the area shaded, 0..1" }),
  ),
  buffer_advance_m: Type.Optional(
    Type.Number({ description: "single: the point counts as shaded when shading comes this close" }),
  ),
  point_shaded: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], { description: "single: the shading reaches the point or its buffer" }),
  ),
  closest_distance_m: Type.Union([Type.Number(), Type.Null()], {
    description: "metres to the shading, 0 when touching or inside",
  }),
  evaluated_at: Type.Union([IsoTime, Type.Null()], {
    description: "when this measurement was made (the map changed near it)",
  }),
  map_version_id: Type.Union([Type.Integer(), Type.Null()], { description: "the map version measured" }),
});

const City = Type.Object({
  coordinates: Type.Object({ lon: Type.Number(), lat: Type.Number() }),
  worst_threat: ThreatOrNull,
  last_check: Type.Union([IsoTime, Type.Null()], { description: "the probe's last successful look at the map" }),
  subscriptions: Type.Array(Subscription),
});

const Summary = Type.Object({
  total_cities: Type.Integer(),
  total_subscriptions: Type.Integer(),
  captured_subscriptions: Type.Integer({ description: "subscriptions at CRITICAL (trigger met)" }),
  threats_by_subscription: countsByLevel("subscriptions at each threat level (those not measured yet are in none)"),
});

const MapVersion = Type.Union(
  [
    Type.Object({
      version_id: Type.Integer(),
      created_at: IsoTime,
      layers: Type.Record(
        Type.String(),
        Type.Object({ version_id: Type.Integer(), fetched_at: IsoTime, edit_date: Type.Union([IsoTime, Type.Null()]) }),
      ),
    }),
    Type.Null(),
  ],
  {
    description:
      "the map measured: each layer's stored version, when it was fetched and its ArcGIS edit date; null before the first probe",
  },
);

export const StatusBody = Type.Object({
  summary: Summary,
  cities: Type.Record(Type.String(), City, { description: "by city name" }),
  map: MapVersion,
  as_of: IsoTime,
  stale: Type.Boolean({
    description: "true when this is the last good answer, served because reading the store failed",
  }),
});

export const StatusSummaryBody = Type.Object({
  ...Summary.properties,
  threats_by_city: countsByLevel("each city counted once, at its worst subscription's level"),
  last_check: Type.Union([IsoTime, Type.Null()]),
  map_version_id: Type.Union([Type.Integer(), Type.Null()]),
  as_of: IsoTime,
  stale: Type.Boolean(),
});

export const Event = Type.Object({
  id: Type.Integer(),
  city: Type.String(),
  event_type: Type.Enum([...EVENT_TYPES]),
  severity: Threat,
  previous_severity: Type.Union([Threat, Type.Null()]),
  details: Type.String(),
  timestamp: IsoTime,
  subscription_id: Type.Integer(),
  subscription_label: Type.String(),
  check_type: CheckType,
  market_slug_pattern: Type.String(),
  coverage: Type.Union([Type.Number(), Type.Null()]),
  closest_distance_m: Type.Union([Type.Number(), Type.Null()]),
  map_version_id: Type.Integer({
    description: "the map version that caused it (its layers' versions: /isw/status map)",
  }),
});

export const EventsBody = Type.Object({ events: Type.Array(Event), count: Type.Integer() });

export const EventsQuery = Type.Object({
  hours: Type.Integer({ minimum: 1, maximum: 720, default: 24, description: "window, hours (up to 30 days)" }),
  city: Type.String({ default: "", maxLength: 80, description: "a city's name, any case; empty: every city" }),
  limit: Limit({ default: 50, max: 200 }),
  subscription_id: Type.Integer({ minimum: 0, default: 0, description: "0: every subscription" }),
  check_type: Type.Optional(CheckType),
  min_severity: Type.Optional(Type.Enum([...THREAT_LEVELS], { description: "events at or above this severity" })),
});

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2_048,
      description: "http(s) URL on a public address; no credentials, no fragment",
    }),
    cities: Type.String({
      default: "all",
      maxLength: 2_000,
      description: "all, or comma-separated city names (any case)",
    }),
  },
  { additionalProperties: false },
);

export const WebhookQuery = Type.Object({
  request: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        "optional reference chosen by the caller, echoed back as `request` (the original description lists it as required; it changes nothing else)",
    }),
  ),
});

export const RegistrationBody = Type.Object({
  status: Type.Enum(["registered", "updated"]),
  id: Type.Integer({ description: "the registration's id" }),
  url: Type.String(),
  cities: Type.String({ description: "all, or the city names, comma-separated" }),
  secret: Type.Union([Type.String(), Type.Null()], {
    description:
      "whsec_…: the Standard Webhooks signing secret, shown once on the first registration of the URL (null when updating one)",
  }),
  request: Type.Union([Type.String(), Type.Null()]),
});

export const UnregistrationBody = Type.Object({
  status: Type.Enum(["unregistered", "updated"]),
  url: Type.String(),
  cities: Type.String({ description: "the cities still registered (empty once unregistered)" }),
  request: Type.Union([Type.String(), Type.Null()]),
});

const Ring = Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), {
  description: "[lon, lat] points, closed",
});

export const LayersBody = Type.Object({
  bbox: Type.Array(Type.Number(), {
    description:
      "[min lon, min lat, max lon, max lat]: the watched cities' box with a margin; polygons outside it are left out",
  }),
  grid_deg: Type.Number({
    description: "the grid the rings were coarsened to, degrees: for drawing, not for measuring",
  }),
  layers: Type.Array(
    Type.Object({
      layer: Type.String({ description: "control, advance, gains24h, infiltration" }),
      version_id: Type.Integer({ description: "the layer version drawn (as in /isw/status map.layers)" }),
      fetched_at: IsoTime,
      edit_date: Type.Union([IsoTime, Type.Null()]),
      polygons: Type.Array(Type.Array(Ring), {
        description: "GeoJSON Polygon coordinates: the outer ring, then holes",
      }),
    }),
  ),
});
