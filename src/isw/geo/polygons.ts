/**
 * Territory polygons as the monitor keeps them: rings of flat coordinates (lon, lat, lon, lat, ...), closed, z
 * dropped, outer ring counter-clockwise and holes clockwise (RFC 7946), from a layer's GeoJSON features (Polygon
 * and MultiPolygon; null geometries and other types are dropped). A layer's content hash depends on its geometry
 * only, not on feature order, ids or attributes, so an edit date that moved without an edit is no new version.
 */
import { createHash } from "node:crypto";

export type BBox = readonly [minX: number, minY: number, maxX: number, maxY: number];

export interface TerritoryPolygon {
  /** Outer ring first, then holes; each closed (its last point repeats the first). */
  readonly rings: readonly Float64Array[];
  readonly bbox: BBox;
}

interface GeometryLike {
  readonly type: string;
  readonly coordinates?: unknown;
}

type Position = readonly number[];

/** Twice the signed area of a closed flat ring (positive: counter-clockwise). */
export function ringSignedArea2(ring: Float64Array): number {
  let sum = 0;
  for (let i = 0; i + 3 < ring.length; i += 2) sum += ring[i]! * ring[i + 3]! - ring[i + 2]! * ring[i + 1]!;
  return sum;
}

function finitePosition(p: unknown): p is Position {
  return Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]);
}

/** A closed flat ring without repeated consecutive points; null when fewer than three distinct points remain. */
function flatRing(positions: unknown, counterClockwise: boolean): Float64Array | null {
  if (!Array.isArray(positions)) return null;
  const out: number[] = [];
  for (const p of positions) {
    if (!finitePosition(p)) continue;
    const n = out.length;
    if (n >= 2 && out[n - 2] === p[0] && out[n - 1] === p[1]) continue;
    out.push(p[0]!, p[1]!);
  }
  if (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  if (out.length < 6) return null;
  out.push(out[0]!, out[1]!);
  let ring: Float64Array = Float64Array.from(out);
  const area = ringSignedArea2(ring);
  if (area === 0) return null;
  if (area > 0 !== counterClockwise) ring = reverseRing(ring);
  return ring;
}

function reverseRing(ring: Float64Array): Float64Array {
  const out = new Float64Array(ring.length);
  for (let i = 0; i < ring.length; i += 2) {
    out[ring.length - 2 - i] = ring[i]!;
    out[ring.length - 1 - i] = ring[i + 1]!;
  }
  return out;
}

export function ringBBox(ring: Float64Array): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i]!;
    const y = ring[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

function polygonOf(rings: unknown): TerritoryPolygon | null {
  if (!Array.isArray(rings) || rings.length === 0) return null;
  const outer = flatRing(rings[0], true);
  if (!outer) return null;
  const holes = rings.slice(1).flatMap((r) => flatRing(r, false) ?? []);
  return { rings: [outer, ...holes], bbox: ringBBox(outer) };
}

/** The polygons of a geometry: a Polygon, or each member of a MultiPolygon; nothing for other types or null. */
export function polygonsOfGeometry(geometry: GeometryLike | null | undefined): TerritoryPolygon[] {
  if (!geometry) return [];
  if (geometry.type === "Polygon")
    return [polygonOf(geometry.coordinates)].filter((p): p is TerritoryPolygon => p !== null);
  if (geometry.type === "MultiPolygon" && Array.isArray(geometry.coordinates)) {
    return geometry.coordinates.map(polygonOf).filter((p): p is TerritoryPolygon => p !== null);
  }
  return [];
}

export function polygonsOfFeatures(features: readonly { geometry: GeometryLike | null }[]): TerritoryPolygon[] {
  return features.flatMap((f) => polygonsOfGeometry(f.geometry));
}

const digests = new WeakMap<TerritoryPolygon, string>();

/** A polygon's identity: the SHA-256 of its coordinates, ring by ring. */
export function polygonDigest(polygon: TerritoryPolygon): string {
  let digest = digests.get(polygon);
  if (!digest) {
    const hash = createHash("sha256");
    for (const ring of polygon.rings) {
      hash.update(new Uint8Array(ring.buffer, ring.byteOffset, ring.byteLength));
      hash.update("|");
    }
    digest = hash.digest("hex");
    digests.set(polygon, digest);
  }
  return digest;
}

/** A layer's content hash: of its polygons' coordinates, in no particular order. */
export function contentHash(polygons: readonly TerritoryPolygon[]): string {
  const hash = createHash("sha256");
  for (const digest of polygons.map(polygonDigest).sort()) hash.update(digest);
  return hash.digest("hex");
}

export function vertexCount(polygons: readonly TerritoryPolygon[]): number {
  return polygons.reduce((sum, p) => sum + p.rings.reduce((s, r) => s + r.length / 2, 0), 0);
}

/** A ring as GeoJSON positions. */
export function ringPositions(ring: Float64Array): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ring.length; i += 2) out.push([ring[i]!, ring[i + 1]!]);
  return out;
}

/**
 * A polygon as stored: the ring count and each ring's coordinate count (32-bit, little-endian), then the
 * coordinates as 64-bit floats. Exact, and a copy rather than a serialization (JSON and gzip of a 44,000-vertex
 * ring took 100-200 ms; floats hardly compress).
 */
export function encodePolygon(polygon: TerritoryPolygon): Buffer {
  const header = Buffer.alloc(4 * (1 + polygon.rings.length));
  header.writeUInt32LE(polygon.rings.length, 0);
  polygon.rings.forEach((ring, i) => header.writeUInt32LE(ring.length, 4 * (i + 1)));
  return Buffer.concat([
    header,
    ...polygon.rings.map((ring) => Buffer.from(ring.buffer, ring.byteOffset, ring.byteLength)),
  ]);
}

export function decodePolygon(bytes: Uint8Array): TerritoryPolygon {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.readUInt32LE(0);
  let offset = 4 * (1 + count);
  const rings: Float64Array[] = [];
  for (let i = 0; i < count; i++) {
    const length = view.readUInt32LE(4 * (i + 1));
    // Copied into a fresh buffer: the stored bytes need not be 8-byte aligned.
    const ring = new Float64Array(length);
    new Uint8Array(ring.buffer).set(view.subarray(offset, offset + length * 8));
    rings.push(ring);
    offset += length * 8;
  }
  return { rings, bbox: ringBBox(rings[0]!) };
}
