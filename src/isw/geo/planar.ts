/**
 * Distances in metres over a local plane: longitude and latitude scaled to metres at a reference point (an
 * equirectangular frame). Within the tens of kilometres where threat levels are decided, its error is under
 * 0.1%; the reported distance is the great-circle distance between the two nearest points it finds.
 */

export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export interface LocalFrame {
  readonly lon0: number;
  readonly lat0: number;
  /** Metres per degree of longitude and of latitude at the reference point. */
  readonly kx: number;
  readonly ky: number;
}

export function localFrame(lon0: number, lat0: number): LocalFrame {
  const ky = EARTH_RADIUS_M * RAD;
  return { lon0, lat0, kx: ky * Math.cos(lat0 * RAD), ky };
}

/** Degrees of longitude and latitude that certainly cover `metres` around a point at `lat` (a box half-side). */
export function degreesAround(lat: number, metres: number): { dLon: number; dLat: number } {
  const dLat = metres / (EARTH_RADIUS_M * RAD);
  const farthestLat = Math.min(89, Math.abs(lat) + dLat);
  return { dLat, dLon: Math.min(180, dLat / Math.cos(farthestLat * RAD)) };
}

export function haversineM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The nearest pair found so far between two geometries, in degrees, with its squared plane distance. */
export interface NearestPair {
  d2: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

export function emptyPair(): NearestPair {
  return { d2: Infinity, ax: NaN, ay: NaN, bx: NaN, by: NaN };
}

/** Great-circle metres between the pair's two points (Infinity when none was found). */
export function pairDistanceM(pair: NearestPair): number {
  return pair.d2 === Infinity ? Infinity : haversineM(pair.ax, pair.ay, pair.bx, pair.by);
}

/**
 * Offers point p against segment a-b (all in degrees) to `best`: keeps p and the segment's nearest point when
 * closer than what `best` holds. The plane is `frame`'s.
 */
export function offerPointSegment(
  frame: LocalFrame,
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  best: NearestPair,
): void {
  const { kx, ky } = frame;
  const ux = (bx - ax) * kx;
  const uy = (by - ay) * ky;
  const wx = (px - ax) * kx;
  const wy = (py - ay) * ky;
  const len2 = ux * ux + uy * uy;
  let t = len2 === 0 ? 0 : (wx * ux + wy * uy) / len2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = wx - t * ux;
  const dy = wy - t * uy;
  const d2 = dx * dx + dy * dy;
  if (d2 < best.d2) {
    best.d2 = d2;
    best.ax = px;
    best.ay = py;
    best.bx = ax + t * (bx - ax);
    best.by = ay + t * (by - ay);
  }
}

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Whether segments p1-p2 and q1-q2 cross or touch (in degrees; an affine frame changes no answer). */
export function segmentsIntersect(
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  q1x: number,
  q1y: number,
  q2x: number,
  q2y: number,
): boolean {
  const d1 = cross(q1x, q1y, q2x, q2y, p1x, p1y);
  const d2 = cross(q1x, q1y, q2x, q2y, p2x, p2y);
  const d3 = cross(p1x, p1y, p2x, p2y, q1x, q1y);
  const d4 = cross(p1x, p1y, p2x, p2y, q2x, q2y);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const onSegment = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
    Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
  return (
    (d1 === 0 && onSegment(q1x, q1y, q2x, q2y, p1x, p1y)) ||
    (d2 === 0 && onSegment(q1x, q1y, q2x, q2y, p2x, p2y)) ||
    (d3 === 0 && onSegment(p1x, p1y, p2x, p2y, q1x, q1y)) ||
    (d4 === 0 && onSegment(p1x, p1y, p2x, p2y, q2x, q2y))
  );
}
