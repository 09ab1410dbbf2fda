/**
 * The ISW territory layers as ArcGIS FeatureServer layers (the ISW layers on ArcGIS): `?f=json` metadata with
 * `editingInfo.lastEditDate`, and `query` with `f=geojson`, `resultOffset`/`resultRecordCount` paging
 * (`exceededTransferLimit` under `properties`), `orderByFields`, `outFields`, `returnGeometry` and
 * `geometryPrecision`. The control and advance layers replay the real daily snapshots (src/sim/isw-snapshots.ts) as
 * a front line that advances: one snapshot a simulated day, ending at the world's end; in live mode from the
 * first snapshot at start-up, one every `liveStepSeconds`. Gains in the past 24 h are the advance features new
 * since the previous snapshot; settlements are the world's territory places; infiltration and claimed
 * territory are empty (those layers exist, with their shapes, but never count here).
 */
import { readSnapshots, type Snapshot, type SnapshotGeometry } from "../isw-snapshots.js";
import { hashString } from "../../platform/hash.js";
import { SimErrorReply, json, type RouteHandler, type SimReply } from "./http.js";
import type { VenueState } from "./venue-state.js";

const DAY = 86_400;
const MAX_RECORD_COUNT = 2_000;

type LayerKey = "control" | "advance" | "gains24h" | "infiltration" | "claimed" | "settlements";

interface LayerSpec {
  readonly path: string;
  readonly name: string;
  readonly idField: "OBJECTID" | "FID";
  /** Whether the layer publishes edit dates (the 24 h gains layer does not). */
  readonly editDates: boolean;
  /** The layer name inside the snapshot files, for the replayed layers. */
  readonly snapshotLayer?: string;
}

/** The six layers under the ArcGIS services root (what `ISW_ARCGIS_URL` points at). */
export const ISW_LAYERS: Readonly<Record<LayerKey, LayerSpec>> = {
  control: {
    path: "VIEW_RussiaCoTinUkraine_V3/FeatureServer/49",
    name: "Assessed Russian Control",
    idField: "OBJECTID",
    editDates: true,
    snapshotLayer: "VIEW_RussiaCoTinUkraine_V3",
  },
  advance: {
    path: "AssessedRussianAdvanceInUkraine_V2_view/FeatureServer/0",
    name: "Assessed Russian Advance",
    idField: "OBJECTID",
    editDates: true,
    snapshotLayer: "MDS_AssessedRussianAdvanceInUkraine_view",
  },
  gains24h: {
    path: "Assessed_Russian_Gains_in_the_Past_24_Hours_view/FeatureServer/0",
    name: "Assessed Russian Gains in the Past 24 Hours",
    idField: "FID",
    editDates: false,
  },
  infiltration: {
    path: "View_AssessedRussianInfiltrationAreasinUkraine_V4/FeatureServer/0",
    name: "Assessed Russian Infiltration Areas",
    idField: "OBJECTID",
    editDates: true,
  },
  claimed: {
    path: "VIEW_ClaimedRussianTerritoryinUkraine_V2/FeatureServer/49",
    name: "Claimed Russian Territory",
    idField: "OBJECTID",
    editDates: true,
  },
  settlements: {
    path: "Ukrainian_Settlements_Updated_view/FeatureServer/0",
    name: "Ukrainian Settlements",
    idField: "OBJECTID",
    editDates: true,
  },
};

export interface ArcGisOptions {
  /** A snapshot bundle or a folder of daily GeoJSON files (default: the repository's, DEFAULT_ISW_SNAPSHOTS). */
  dataDir?: string;
  /** Live mode: seconds between two snapshots (default 300). */
  liveStepSeconds?: number;
}

type Geometry = SnapshotGeometry;
type Feature = { type: "Feature"; id: number; geometry: Geometry | null; properties: Record<string, unknown> };

/** The snapshots split into their layers, each day on first use. */
class Snapshots {
  private readonly days: Snapshot[];
  private readonly loaded = new Map<number, Map<string, Geometry[]>>();

  constructor(path: string | undefined) {
    this.days = readSnapshots(path);
  }

  get count(): number {
    return this.days.length;
  }

  geometries(index: number, layer: string): Geometry[] {
    let layers = this.loaded.get(index);
    if (!layers) {
      layers = new Map();
      for (const f of this.days[index]!.collection().features) {
        if (!f.geometry) continue;
        const name = f.properties?.layer ?? "";
        if (!layers.has(name)) layers.set(name, []);
        layers.get(name)!.push(f.geometry);
      }
      this.loaded.set(index, layers);
    }
    return layers.get(layer) ?? [];
  }
}

function globalId(seed: string): string {
  const hex = [0, 1, 2, 3]
    .map((k) => (hashString(`${seed}#${k}`) >>> 0).toString(16).padStart(8, "0"))
    .join("")
    .toUpperCase();
  return `{${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}}`;
}

function roundCoordinates(value: unknown, factor: number): unknown {
  if (typeof value === "number") return Math.round(value * factor) / factor;
  return Array.isArray(value) ? value.map((v) => roundCoordinates(v, factor)) : value;
}

export function arcgisHandler(state: VenueState, options: ArcGisOptions = {}): RouteHandler {
  const world = state.world;
  const snapshots = new Snapshots(options.dataDir);
  const last = Math.max(0, snapshots.count - 1);
  const step = state.isLive ? (options.liveStepSeconds ?? 300) : DAY;
  const anchor = state.isLive ? state.liveStart! : world.end - last * DAY;
  const current = () => Math.min(last, Math.max(0, Math.floor((state.now() - anchor) / step)));
  const editMs = (index: number) => (anchor + index * step) * 1000;
  const gainsCache = new Map<number, Geometry[]>();

  const places = [
    ...new Map(world.markets.filter((m) => m.territory).map((m) => [m.territory!.slugName, m.territory!])).values(),
  ];

  function features(key: LayerKey): Feature[] {
    const i = current();
    const spec = ISW_LAYERS[key];
    const feature = (k: number, geometry: Geometry, properties: Record<string, unknown>): Feature => {
      const id = key === "control" || key === "advance" ? i * 1_000 + k + 1 : k + 1;
      return { type: "Feature", id, geometry, properties: { [spec.idField]: id, ...properties } };
    };
    switch (key) {
      case "control":
      case "advance":
        if (snapshots.count === 0) return [];
        return snapshots
          .geometries(i, spec.snapshotLayer!)
          .map((g, k) =>
            feature(
              k,
              g,
              key === "control"
                ? { GlobalID_2: globalId(`${i}:${k}`), EditDate: editMs(i) }
                : { CreationDate: editMs(i), EditDate: editMs(i) },
            ),
          );
      case "gains24h":
        return gains(i).map((g, k) => feature(k, g, { Date: editMs(i) }));
      case "settlements":
        return places.map((p, k) => {
          const ring = [
            [p.lon - 0.015, p.lat - 0.01],
            [p.lon + 0.015, p.lat - 0.01],
            [p.lon + 0.015, p.lat + 0.01],
            [p.lon - 0.015, p.lat + 0.01],
            [p.lon - 0.015, p.lat - 0.01],
          ];
          return feature(k, { type: "Polygon", coordinates: [ring] }, { ADM4_EN: p.name, EditDate: editMs(0) });
        });
      default:
        return [];
    }
  }

  /** Advance features of snapshot i that the previous snapshot did not have. */
  function gains(i: number): Geometry[] {
    if (i === 0 || snapshots.count === 0) return [];
    let cached = gainsCache.get(i);
    if (!cached) {
      const layer = ISW_LAYERS.advance.snapshotLayer!;
      const before = new Set(snapshots.geometries(i - 1, layer).map((g) => JSON.stringify(g)));
      cached = snapshots.geometries(i, layer).filter((g) => !before.has(JSON.stringify(g)));
      gainsCache.set(i, cached);
    }
    return cached;
  }

  function metadata(key: LayerKey): SimReply {
    const spec = ISW_LAYERS[key];
    const body: Record<string, unknown> = {
      currentVersion: 11.3,
      id: Number(spec.path.split("/").pop()),
      name: spec.name,
      type: "Feature Layer",
      geometryType: "esriGeometryPolygon",
      objectIdField: spec.idField,
      maxRecordCount: MAX_RECORD_COUNT,
      supportsPagination: true,
      fields: [{ name: spec.idField, type: "esriFieldTypeOID", alias: spec.idField }],
    };
    if (spec.editDates) {
      const at = key === "control" || key === "advance" ? editMs(current()) : editMs(0);
      body.editingInfo = { lastEditDate: at, schemaLastEditDate: editMs(0), dataLastEditDate: at };
    }
    return json(body);
  }

  function query(key: LayerKey, q: URLSearchParams): SimReply {
    const spec = ISW_LAYERS[key];
    if (q.get("f") !== "geojson") return arcgisError(400, "The simulated venue answers queries with f=geojson only.");
    const where = (q.get("where") ?? "1=1").replace(/\s+/g, "");
    if (where !== "1=1") return arcgisError(400, "Unable to perform query. Please check your parameters.");
    const offset = Number(q.get("resultOffset") ?? 0);
    const count = Math.min(Number(q.get("resultRecordCount") ?? MAX_RECORD_COUNT), MAX_RECORD_COUNT);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(count) || count < 1)
      return arcgisError(400, "Invalid or missing input parameters.");
    const all = sortFeatures(features(key), q.get("orderByFields") ?? "");
    const outFields = (q.get("outFields") ?? "*").split(",").map((f) => f.trim());
    const precision = q.get("geometryPrecision");
    const factor = precision !== null && /^\d+$/.test(precision) ? 10 ** Number(precision) : null;
    const withGeometry = q.get("returnGeometry") !== "false";
    const page = all.slice(offset, offset + count).map((f) => ({
      type: "Feature",
      id: f.id,
      geometry:
        !withGeometry || !f.geometry
          ? null
          : factor
            ? { type: f.geometry.type, coordinates: roundCoordinates(f.geometry.coordinates, factor) }
            : f.geometry,
      properties: outFields.includes("*")
        ? f.properties
        : Object.fromEntries(
            Object.entries(f.properties).filter(([name]) => name === spec.idField || outFields.includes(name)),
          ),
    }));
    const body: Record<string, unknown> = { type: "FeatureCollection", features: page };
    if (offset + page.length < all.length) body.properties = { exceededTransferLimit: true };
    return json(body);
  }

  return (request) => {
    const match = /^\/(.+\/FeatureServer\/\d+)(\/query)?\/?$/.exec(request.path);
    const key = match
      ? (Object.keys(ISW_LAYERS) as LayerKey[]).find((k) => ISW_LAYERS[k].path === match[1])
      : undefined;
    if (!match || !key) return arcgisError(400, "Invalid URL", 200);
    if (match[2]) return query(key, request.query);
    const f = request.query.get("f");
    if (f !== "json" && f !== "pjson")
      throw new SimErrorReply(400, { error: "the simulated venue serves layer metadata with f=json only" });
    return metadata(key);
  };
}

/** ArcGIS reports errors inside HTTP 200. */
function arcgisError(code: number, message: string, status = 200): SimReply {
  return json({ error: { code, message, details: [] } }, status);
}

function sortFeatures(features: Feature[], orderBy: string): Feature[] {
  const keys = orderBy
    .split(",")
    .map((part) => part.trim().split(/\s+/))
    .filter(([field]) => field)
    .map(([field, direction]) => ({ field: field!, sign: direction?.toUpperCase() === "DESC" ? -1 : 1 }));
  const value = (f: Feature, field: string) => (f.properties[field] as number | string | undefined) ?? 0;
  return [...features].sort((a, b) => {
    for (const { field, sign } of keys) {
      const x = value(a, field);
      const y = value(b, field);
      if (x !== y) return x < y ? -sign : sign;
    }
    return a.id - b.id;
  });
}
