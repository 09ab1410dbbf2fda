/**
 * An independent geometry for tests: turf's own clipping, point-to-polygon distance and point-in-polygon over the
 * raw GeoJSON features of a snapshot (not the monitor's polygons, index or clipper), to check what it measures.
 */
import bboxClip from "@turf/bbox-clip";
import booleanPointInPolygon from "@turf/boolean-point-in-polygon";
import { multiPolygon, point, polygon } from "@turf/helpers";
import pointToPolygonDistance from "@turf/point-to-polygon-distance";
import type { Feature, MultiPolygon, Polygon } from "geojson";

export type Area = Feature<Polygon | MultiPolygon>;
type Box = [number, number, number, number];

/** turf's bboxClip without the empty rings and members it leaves; null when nothing is left. */
export function clipTo(feature: Area, box: Box): Feature<MultiPolygon> | null {
  const clipped = bboxClip(feature, box) as Area;
  const polygons = (clipped.geometry.type === "Polygon" ? [clipped.geometry.coordinates] : clipped.geometry.coordinates)
    .map((rings) => rings.filter((ring) => ring.length >= 4))
    .filter((rings) => rings.length > 0);
  return polygons.length === 0 ? null : multiPolygon(polygons);
}

/** turf's distance from a point to the nearest feature (0 inside), over features cut to a box of about 60 km. */
export function turfDistance(
  features: readonly Area[],
  [lon, lat]: readonly [number, number],
): { distance: number; inside: boolean } {
  const box: Box = [lon - 0.8, lat - 0.55, lon + 0.8, lat + 0.55];
  let best = Infinity;
  let inside = false;
  for (const f of features) {
    const clipped = clipTo(f, box);
    if (!clipped) continue;
    if (booleanPointInPolygon(point([lon, lat]), f)) inside = true;
    best = Math.min(best, Math.abs(pointToPolygonDistance(point([lon, lat]), clipped, { units: "meters" })));
  }
  return { distance: inside ? 0 : best, inside };
}

/** Share of a polygon shaded, from a grid of sample points inside it tested against the raw features. */
export function sampledCoverage(
  features: readonly Area[],
  ring: ReadonlyArray<readonly [number, number]>,
  steps = 60,
): number {
  const place = polygon([ring.map(([x, y]) => [x, y])]);
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const near = features.filter((f) => clipTo(f, [minX, minY, maxX, maxY]) !== null);
  let inPlace = 0;
  let shaded = 0;
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      const p = point([minX + ((i + 0.5) / steps) * (maxX - minX), minY + ((j + 0.5) / steps) * (maxY - minY)]);
      if (!booleanPointInPolygon(p, place)) continue;
      inPlace++;
      if (near.some((f) => booleanPointInPolygon(p, f))) shaded++;
    }
  }
  return shaded / inPlace;
}
