/**
 * The shaded layers as a map draws them (`GET /api/v2/isw/layers`): each layer's newest stored version, cut to
 * the watched area (the cities' box with a margin) and coarsened to a grid (consecutive points that fall in one
 * cell are dropped), so a page gets tens of kilobytes instead of the layers' full resolution. For drawing only:
 * every measurement the monitor makes uses the exact stored polygons.
 */
import type { Store } from "../store/database.js";
import { isoTime } from "./event-view.js";
import type { BBox, TerritoryPolygon } from "./geo/polygons.js";
import { latestLayerVersions } from "./monitor-store.js";
import { iswDb } from "./tables.js";

/** Degrees added around the watched cities' box. */
export const LAYER_MARGIN_DEG = 0.5;
/** Grid of the coarsened rings, degrees (about 500 m of latitude). */
export const LAYER_GRID_DEG = 0.005;

export interface LayerShape {
  layer: string;
  version_id: number;
  fetched_at: string;
  edit_date: string | null;
  /** Polygons as GeoJSON coordinates: rings (outer first) of [lon, lat] points, each ring closed. */
  polygons: number[][][][];
}

export interface LayerShapes {
  bbox: number[];
  grid_deg: number;
  layers: LayerShape[];
}

const overlaps = (a: BBox, b: BBox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
const snap = (v: number) => Math.round(v / LAYER_GRID_DEG) * LAYER_GRID_DEG;
const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** A ring on the grid: consecutive points in one cell dropped, closed; null when it collapses below a triangle. */
export function coarsenRing(ring: Float64Array): number[][] | null {
  const out: number[][] = [];
  for (let i = 0; i < ring.length; i += 2) {
    const point = [round(snap(ring[i]!)), round(snap(ring[i + 1]!))];
    const last = out.at(-1);
    if (!last || last[0] !== point[0] || last[1] !== point[1]) out.push(point);
  }
  const first = out[0];
  const last = out.at(-1);
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) out.push([...first]);
  return out.length >= 4 ? out : null;
}

function coarsenPolygon(polygon: TerritoryPolygon): number[][][] | null {
  const [outer, ...holes] = polygon.rings.map(coarsenRing);
  if (!outer) return null;
  return [outer, ...holes.filter((h): h is number[][] => h !== null)];
}

export async function layerShapes(store: Store): Promise<LayerShapes> {
  const db = iswDb(store.db);
  const cities = await db.selectFrom("isw_cities").select(["lon", "lat"]).where("active", "=", 1).execute();
  const box: BBox =
    cities.length === 0
      ? [-180, -90, 180, 90]
      : [
          Math.min(...cities.map((c) => c.lon)) - LAYER_MARGIN_DEG,
          Math.min(...cities.map((c) => c.lat)) - LAYER_MARGIN_DEG,
          Math.max(...cities.map((c) => c.lon)) + LAYER_MARGIN_DEG,
          Math.max(...cities.map((c) => c.lat)) + LAYER_MARGIN_DEG,
        ];
  const versions = await latestLayerVersions(db);
  return {
    bbox: [...box],
    grid_deg: LAYER_GRID_DEG,
    layers: versions
      .sort((a, b) => a.layer.localeCompare(b.layer))
      .map((v) => ({
        layer: v.layer,
        version_id: v.id,
        fetched_at: isoTime(v.fetchedAt),
        edit_date: v.editDateMs === null ? null : new Date(v.editDateMs).toISOString(),
        polygons: v.polygons
          .filter((p) => overlaps(p.bbox, box))
          .map(coarsenPolygon)
          .filter((p): p is number[][][] => p !== null),
      })),
  };
}
