/**
 * What the map says about one subscription: the share of its polygon shaded (coverage), the distance from it to
 * the shading, and for a point its distance to the shading's boundary (negative inside). Nothing here unions a
 * layer: the boundary pieces near the place come from the shading's index, a point's inside test is a ray cast
 * over the pieces east of it, and a polygon's coverage intersects it with the shaded polygons cut to its bounding
 * box, only when the boundaries meet (or a shaded island lies inside it).
 *
 * The measurement carries a fingerprint of what it read (the boundary pieces near the place, and whether its
 * reference point is inside); given the previous measurement, an equal fingerprint returns it unchanged without
 * recomputing the coverage, the expensive part.
 */
import area from "@turf/area";
import { featureCollection, multiPolygon, polygon as turfPolygon } from "@turf/helpers";
import intersect from "@turf/intersect";
import type { MultiPolygon, Polygon } from "geojson";
import {
  degreesAround,
  emptyPair,
  localFrame,
  offerPointSegment,
  pairDistanceM,
  segmentsIntersect,
  type LocalFrame,
  type NearestPair,
} from "./planar.js";
import { ringBBox, ringPositions, type BBox } from "./polygons.js";
import type { LayerFilter, Shading } from "./shading.js";

export type CheckType = "single" | "enter" | "entirety";
export type LonLat = readonly [number, number];

export interface PlaceGeometry {
  readonly checkType: CheckType;
  /** `single`: one point; otherwise a closed ring (the last point repeats the first). */
  readonly points: readonly LonLat[];
}

export interface Measurement {
  /** Share of the polygon's area shaded, 0..1; null for a point. */
  readonly coverage: number | null;
  /** Metres from the place to the shading, 0 when they touch or overlap; null when nothing is shaded at all. */
  readonly closestDistanceM: number | null;
  /** A point only: metres from it to the shading's boundary, negative inside. */
  readonly signedDistanceM: number | null;
  readonly fingerprint: string;
}

export interface MeasureOptions {
  /** The first search radius around the place: distances within it are found in one index query. */
  readonly searchRadiusM: number;
  readonly layers: LayerFilter;
}

/** Beyond this the shading counts as absent (the layers cover one country). */
const MAX_SEARCH_M = 3_000_000;

function expand(box: BBox, metres: number): BBox {
  const { dLon, dLat } = degreesAround(Math.max(Math.abs(box[1]), Math.abs(box[3])), metres);
  return [box[0] - dLon, box[1] - dLat, box[2] + dLon, box[3] + dLat];
}

/**
 * The nearest boundary piece to a place (its bounding box `box`): the index's chunks within `searchRadiusM`,
 * widening fourfold until some are found, then every chunk that can hold something nearer than the best found.
 */
function nearestBoundary(
  shading: Shading,
  box: BBox,
  options: MeasureOptions,
  offer: (chunk: number, best: NearestPair) => void,
) {
  let radius = options.searchRadiusM;
  let chunks = shading.chunksIn(expand(box, radius), options.layers);
  while (chunks.length === 0 && radius < MAX_SEARCH_M) {
    radius *= 4;
    chunks = shading.chunksIn(expand(box, radius), options.layers);
  }
  const best = emptyPair();
  for (const chunk of chunks) offer(chunk, best);
  const found = Math.sqrt(best.d2);
  if (Number.isFinite(found) && found > radius) {
    const seen = new Set(chunks);
    const wider = shading.chunksIn(expand(box, found * 1.001 + 1), options.layers);
    for (const chunk of wider) if (!seen.has(chunk)) offer(chunk, best);
    chunks = wider;
  }
  return { best, chunks };
}

export function measurePoint(shading: Shading, [lon, lat]: LonLat, options: MeasureOptions): Measurement {
  const frame = localFrame(lon, lat);
  const { best, chunks } = nearestBoundary(shading, [lon, lat, lon, lat], options, (chunk, pair) =>
    shading.forEachSegment(chunk, (ax, ay, bx, by) => offerPointSegment(frame, lon, lat, ax, ay, bx, by, pair)),
  );
  const inside = shading.containing(lon, lat, options.layers).length > 0;
  const boundaryM = pairDistanceM(best);
  const signed = inside ? -boundaryM : boundaryM;
  return {
    coverage: null,
    closestDistanceM: boundaryM === Infinity ? null : Math.max(0, signed),
    signedDistanceM: boundaryM === Infinity ? null : signed,
    fingerprint: `${inside ? "in" : "out"}/${shading.fingerprint(chunks)}`,
  };
}

/** Sutherland-Hodgman against an axis-aligned box: a closed flat ring, or null when nothing of it is left. */
export function clipRingToBox(ring: Float64Array, box: BBox): Float64Array | null {
  let points: ArrayLike<number> = ring.subarray(0, ring.length - 2);
  const edges: Array<[axis: 0 | 1, bound: number, keepAbove: boolean]> = [
    [0, box[0], true],
    [0, box[2], false],
    [1, box[1], true],
    [1, box[3], false],
  ];
  for (const [axis, bound, keepAbove] of edges) {
    const input = points;
    const output: number[] = [];
    const n = input.length / 2;
    if (n === 0) return null;
    const inside = (i: number) => (keepAbove ? input[2 * i + axis]! >= bound : input[2 * i + axis]! <= bound);
    let previous = n - 1;
    let previousInside = inside(previous);
    for (let i = 0; i < n; i++) {
      const currentInside = inside(i);
      if (currentInside !== previousInside) {
        const px = input[2 * previous]!;
        const py = input[2 * previous + 1]!;
        const t = (bound - input[2 * previous + axis]!) / (input[2 * i + axis]! - input[2 * previous + axis]!);
        output.push(px + t * (input[2 * i]! - px), py + t * (input[2 * i + 1]! - py));
      }
      if (currentInside) output.push(input[2 * i]!, input[2 * i + 1]!);
      previous = i;
      previousInside = currentInside;
    }
    points = output;
  }
  if (points.length < 6) return null;
  return Float64Array.from([...Array.from(points), points[0]!, points[1]!]);
}

/** Area of the polygon's intersection with the union of the given shaded polygons, as a share of its area. */
function coverageOf(shading: Shading, ring: readonly LonLat[], box: BBox, candidates: Iterable<number>): number {
  const margin = 1e-7;
  const clipBox: BBox = [box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin];
  const pieces: number[][][][] = [];
  for (const p of candidates) {
    const [outer, ...holes] = shading.polygons[p]!.rings.map((r) => clipRingToBox(r, clipBox));
    if (!outer) continue;
    pieces.push([outer, ...holes.filter((h): h is Float64Array => h !== null)].map(ringPositions));
  }
  if (pieces.length === 0) return 0;
  const place = turfPolygon([ring.map(([x, y]) => [x, y])]);
  // A MultiPolygon's overlapping members are unioned by the clipper, so shading two layers share counts once.
  const shared = intersect(featureCollection<Polygon | MultiPolygon>([place, multiPolygon(pieces)]));
  return shared ? Math.min(1, area(shared) / area(place)) : 0;
}

/**
 * Offers a shaded segment against a polygon's ring: each ring vertex against the segment, and the segment's first
 * vertex against each ring edge (every shaded vertex is some segment's first); a segment that crosses an edge
 * makes the distance zero. Segments farther from the ring's box than the best pair so far are skipped.
 */
function offerAgainstRing(
  frame: LocalFrame,
  ring: readonly LonLat[],
  box: BBox,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  pair: NearestPair,
): void {
  if (pair.d2 === 0) return;
  const gapX = Math.max(0, Math.min(ax, bx) - box[2], box[0] - Math.max(ax, bx)) * frame.kx;
  const gapY = Math.max(0, Math.min(ay, by) - box[3], box[1] - Math.max(ay, by)) * frame.ky;
  if (gapX * gapX + gapY * gapY >= pair.d2) return;
  const overlapsBox = gapX === 0 && gapY === 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x, y] = ring[i]!;
    const [nx, ny] = ring[i + 1]!;
    if (overlapsBox && segmentsIntersect(x, y, nx, ny, ax, ay, bx, by)) {
      pair.d2 = 0;
      pair.ax = pair.bx = ax;
      pair.ay = pair.by = ay;
      return;
    }
    offerPointSegment(frame, x, y, ax, ay, bx, by, pair);
    offerPointSegment(frame, ax, ay, x, y, nx, ny, pair);
  }
}

/** Even-odd test of a point against a ring of positions. */
function ringContains(ring: readonly LonLat[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < xj + ((y - yj) * (xi - xj)) / (yi - yj)) inside = !inside;
  }
  return inside;
}

interface Surroundings {
  /** Shaded polygons with boundary pieces in the place's box. */
  readonly crossing: ReadonlySet<number>;
  /** Shaded polygons holding the place's first vertex. */
  readonly containing: readonly number[];
  readonly boundariesMeet: boolean;
}

/**
 * Coverage, clipping and intersecting only when it cannot be told otherwise: a polygon that holds the first vertex
 * without a boundary in the box holds the whole box (1); boundaries that never meet leave each shaded polygon
 * outside the place (0), holding it (1), or inside it, an island whose area is computed.
 */
function coverageAround(
  shading: Shading,
  ring: readonly LonLat[],
  box: BBox,
  { crossing, containing, boundariesMeet }: Surroundings,
): number {
  if (containing.some((p) => !crossing.has(p))) return 1;
  if (crossing.size === 0) return 0;
  if (boundariesMeet) return coverageOf(shading, ring, box, crossing);
  if (containing.length > 0) return 1;
  const islands = [...crossing].filter((p) => {
    const outer = shading.polygons[p]!.rings[0]!;
    return ringContains(ring, outer[0]!, outer[1]!);
  });
  return islands.length === 0 ? 0 : coverageOf(shading, ring, box, islands);
}

export function measurePolygon(
  shading: Shading,
  ring: readonly LonLat[],
  options: MeasureOptions,
  previous?: Measurement,
): Measurement {
  const box = ringBBox(Float64Array.from(ring.flat()));
  const frame = localFrame((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  const { best, chunks } = nearestBoundary(shading, box, options, (chunk, pair) =>
    shading.forEachSegment(chunk, (ax, ay, bx, by) => offerAgainstRing(frame, ring, box, ax, ay, bx, by, pair)),
  );
  const containing = shading.containing(ring[0]![0], ring[0]![1], options.layers);
  const fingerprint = `${containing.length > 0 ? "in" : "out"}/${shading.fingerprint(chunks)}`;
  if (previous && previous.fingerprint === fingerprint) return previous;
  const crossing = new Set(shading.chunksIn(box, options.layers).map((chunk) => shading.polygonOfChunk(chunk)));
  const coverage = coverageAround(shading, ring, box, { crossing, containing, boundariesMeet: best.d2 === 0 });
  const boundaryM = pairDistanceM(best);
  return {
    coverage,
    closestDistanceM: coverage > 0 || best.d2 === 0 ? 0 : boundaryM === Infinity ? null : boundaryM,
    signedDistanceM: null,
    fingerprint,
  };
}

export function measure(
  shading: Shading,
  place: PlaceGeometry,
  options: MeasureOptions,
  previous?: Measurement,
): Measurement {
  if (place.checkType === "single") {
    const measured = measurePoint(shading, place.points[0]!, options);
    return previous && previous.fingerprint === measured.fingerprint ? previous : measured;
  }
  return measurePolygon(shading, place.points, options, previous);
}
