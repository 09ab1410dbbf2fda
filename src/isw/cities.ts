/**
 * The monitored cities and their subscriptions: built in (the places of the venue's territory markets), or read
 * from the JSON file ISW_CITIES_FILE, which replaces the built-in list. A subscription is a point (`single`, with
 * its buffer) or a polygon (`enter`, `entirety`: a ring of [lon, lat], or a circle of `radius_m` around the city),
 * with the slug pattern of the venue markets it stands for (`*` matches anything).
 *
 * Polygons built from a radius approximate a town's area; a file can give the real boundary. Names follow the
 * venue's slugs, while subscriptions are matched to markets by slug pattern, never by a name's spelling.
 */
import { readFileSync } from "node:fs";
import circle from "@turf/circle";
import { Type, type Static } from "typebox";
import { Compile } from "typebox/compile";
import { ConfigError } from "../config/settings.js";
import type { CheckType, LonLat } from "./geo/measure.js";

const Position = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })]);

const SubscriptionSchema = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 120 }),
    check_type: Type.Union([Type.Literal("single"), Type.Literal("enter"), Type.Literal("entirety")]),
    point: Type.Optional(Position),
    buffer_advance_m: Type.Optional(Type.Number({ minimum: 0, maximum: 50_000 })),
    radius_m: Type.Optional(Type.Number({ minimum: 50, maximum: 50_000 })),
    polygon: Type.Optional(Type.Array(Position, { minItems: 3, maxItems: 10_000 })),
    market_slug_pattern: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  { additionalProperties: false },
);

const CitySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    lon: Type.Number({ minimum: -180, maximum: 180 }),
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    subscriptions: Type.Array(SubscriptionSchema, { maxItems: 50 }),
  },
  { additionalProperties: false },
);

const CitiesSchema = Type.Array(CitySchema, { maxItems: 500 });
const citiesValidator = Compile(CitiesSchema);

export type CityInput = Static<typeof CitySchema>;
export type SubscriptionInput = Static<typeof SubscriptionSchema>;

export interface SubscriptionDefinition {
  readonly city: string;
  readonly label: string;
  readonly checkType: CheckType;
  /** A point, or a closed ring. */
  readonly geometry: readonly LonLat[];
  /** `single` only. */
  readonly bufferAdvanceM: number | null;
  readonly marketSlugPattern: string;
  readonly description: string;
}

export interface CityDefinition {
  readonly name: string;
  readonly lon: number;
  readonly lat: number;
  readonly subscriptions: readonly SubscriptionDefinition[];
}

type MarketKind = "capture" | "capture-all" | "enter";

/** A place of the venue's territory markets: its slug name, an approximate radius, and the market kinds listed. */
interface SeedPlace {
  readonly name: string;
  readonly slug: string;
  readonly lon: number;
  readonly lat: number;
  readonly radiusM: number;
  readonly kinds: readonly MarketKind[];
}

const SEED: readonly SeedPlace[] = [
  { name: "Bakhmut", slug: "bakhmut", lon: 37.999, lat: 48.595, radiusM: 3_400, kinds: ["capture", "capture-all"] },
  { name: "Chasiv Yar", slug: "chasiv-yar", lon: 37.84, lat: 48.59, radiusM: 2_500, kinds: ["capture", "capture-all"] },
  { name: "Orikhiv", slug: "orikhiv", lon: 35.78, lat: 47.57, radiusM: 3_000, kinds: ["capture"] },
  { name: "Ivanivske", slug: "ivanivske", lon: 37.905, lat: 48.578, radiusM: 1_200, kinds: ["enter"] },
  { name: "Klishchiivka", slug: "klishchiivka", lon: 37.975, lat: 48.533, radiusM: 1_200, kinds: ["enter"] },
  { name: "Mala Tokmachka", slug: "mala-tokmachka", lon: 35.86, lat: 47.59, radiusM: 1_500, kinds: ["enter"] },
  { name: "Novodanylivka", slug: "novodanylivka", lon: 35.73, lat: 47.555, radiusM: 1_200, kinds: ["enter"] },
  { name: "Andriivka", slug: "andriivka", lon: 37.96, lat: 48.5, radiusM: 1_200, kinds: ["enter"] },
  { name: "Pokrovsk", slug: "pokrovsk", lon: 37.183, lat: 48.283, radiusM: 4_000, kinds: ["capture", "capture-all"] },
  { name: "Myrnohrad", slug: "myrnohrad", lon: 37.267, lat: 48.3, radiusM: 3_000, kinds: ["capture"] },
  {
    name: "Kostyantynivka",
    slug: "kostyantynivka",
    lon: 37.7,
    lat: 48.517,
    radiusM: 4_500,
    kinds: ["capture", "capture-all"],
  },
  { name: "Siversk", slug: "siversk", lon: 38.1, lat: 48.867, radiusM: 2_000, kinds: ["capture"] },
  { name: "Lyman", slug: "lyman", lon: 37.8, lat: 48.983, radiusM: 3_000, kinds: ["capture"] },
  { name: "Kupiansk", slug: "kupiansk", lon: 37.617, lat: 49.7, radiusM: 3_500, kinds: ["capture"] },
  { name: "Huliaipole", slug: "huliaipole", lon: 36.267, lat: 47.65, radiusM: 2_500, kinds: ["capture"] },
  { name: "Kramatorsk", slug: "kramatorsk", lon: 37.583, lat: 48.733, radiusM: 6_000, kinds: ["enter"] },
  { name: "Sloviansk", slug: "sloviansk", lon: 37.617, lat: 48.867, radiusM: 5_000, kinds: ["enter"] },
  { name: "Zaporizhzhia", slug: "zaporizhzhia", lon: 35.133, lat: 47.833, radiusM: 8_000, kinds: ["enter"] },
];

function seedSubscriptions(place: SeedPlace): SubscriptionInput[] {
  return place.kinds.map((kind): SubscriptionInput => {
    switch (kind) {
      case "capture":
        return {
          label: `${place.name} (centre)`,
          check_type: "single",
          market_slug_pattern: `will-russia-capture-${place.slug}-by-*`,
          description: `${place.name} is assessed under Russian control.`,
        };
      case "capture-all":
        return {
          label: `All of ${place.name}`,
          check_type: "entirety",
          radius_m: place.radiusM,
          market_slug_pattern: `will-russia-capture-all-of-${place.slug}-by-*`,
          description: `All of ${place.name} is assessed under Russian control.`,
        };
      case "enter":
        return {
          label: `${place.name} (any part)`,
          check_type: "enter",
          radius_m: place.radiusM,
          market_slug_pattern: `will-russia-enter-${place.slug}-by-*`,
          description: `Russian forces are assessed to have entered ${place.name}.`,
        };
    }
  });
}

/** The built-in list, in the file's format. */
export const BUILT_IN_CITIES: readonly CityInput[] = SEED.map((p) => ({
  name: p.name,
  lon: p.lon,
  lat: p.lat,
  subscriptions: seedSubscriptions(p),
}));

function closedRing(points: readonly LonLat[]): LonLat[] {
  const ring = [...points];
  const [first, last] = [ring[0]!, ring[ring.length - 1]!];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push(first);
  return ring;
}

function definitionOf(city: CityInput, s: SubscriptionInput, defaultBufferM: number): SubscriptionDefinition {
  const where = `${city.name} / ${s.label}`;
  let geometry: LonLat[];
  if (s.check_type === "single") {
    if (s.polygon || s.radius_m !== undefined)
      throw new ConfigError(
        "ISW_CITIES_FILE",
        `${where}: a single subscription is a point (point, buffer_advance_m), not a polygon`,
      );
    geometry = [s.point ?? [city.lon, city.lat]];
  } else if (s.polygon) {
    geometry = closedRing(s.polygon);
    if (geometry.length < 4)
      throw new ConfigError("ISW_CITIES_FILE", `${where}: a polygon needs at least three distinct points`);
  } else if (s.radius_m !== undefined) {
    const center = s.point ?? [city.lon, city.lat];
    geometry = (
      circle([center[0], center[1]], s.radius_m / 1000, { units: "kilometers", steps: 32 }).geometry.coordinates[0] as [
        number,
        number,
      ][]
    ).map(([x, y]) => [x, y] as const);
  } else {
    throw new ConfigError("ISW_CITIES_FILE", `${where}: an ${s.check_type} subscription needs a polygon or a radius_m`);
  }
  return {
    city: city.name,
    label: s.label,
    checkType: s.check_type,
    geometry,
    bufferAdvanceM: s.check_type === "single" ? (s.buffer_advance_m ?? defaultBufferM) : null,
    marketSlugPattern: s.market_slug_pattern,
    description: s.description ?? "",
  };
}

/** Checks a list of cities (the file's content) and builds their subscriptions; ConfigError names the first problem. */
export function defineCities(input: unknown, defaultBufferM: number): CityDefinition[] {
  if (!citiesValidator.Check(input)) {
    const [first] = citiesValidator.Errors(input);
    throw new ConfigError(
      "ISW_CITIES_FILE",
      `${first?.instancePath || "/"} ${first?.message ?? "is not a list of cities"}`,
    );
  }
  const cities = input as CityInput[];
  const names = new Set<string>();
  return cities.map((city) => {
    const key = city.name.toLowerCase();
    if (names.has(key)) throw new ConfigError("ISW_CITIES_FILE", `city ${city.name} is listed twice`);
    names.add(key);
    const labels = new Set(city.subscriptions.map((s) => s.label));
    if (labels.size !== city.subscriptions.length)
      throw new ConfigError("ISW_CITIES_FILE", `${city.name}: two subscriptions share a label`);
    return {
      name: city.name,
      lon: city.lon,
      lat: city.lat,
      subscriptions: city.subscriptions.map((s) => definitionOf(city, s, defaultBufferM)),
    };
  });
}

/** The configured cities: the file's when ISW_CITIES_FILE is set, else the built-in list. */
/** `ISW_CITIES_FILE`, when set, is read and checked at start-up: a mistake in it stops start-up naming the setting. */
export function checkCitiesFile(isw: { citiesFile?: string; bufferAdvanceM: number }): void {
  if (isw.citiesFile) configuredCities(isw);
}

export function configuredCities(isw: { citiesFile?: string; bufferAdvanceM: number }): CityDefinition[] {
  if (!isw.citiesFile) return defineCities(BUILT_IN_CITIES, isw.bufferAdvanceM);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(isw.citiesFile, "utf8"));
  } catch (error) {
    throw new ConfigError(
      "ISW_CITIES_FILE",
      `cannot read ${isw.citiesFile} as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return defineCities(parsed, isw.bufferAdvanceM);
}
