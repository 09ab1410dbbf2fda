/**
 * The shaded territory of one map version, indexed for the questions the monitor asks: which boundary pieces lie
 * near a place, is a point inside, and did anything near a place change since the last map.
 *
 * Every ring is cut into chunks of consecutive vertices and each chunk's bounding box goes into a flatbush index,
 * so a query touches the few chunks near a place instead of a 44,000-vertex ring. Chunk boundaries are chosen by
 * content (a vertex whose hash ends in five zero bits ends a chunk), not by position, so an edit in one place of a
 * ring changes the chunks there only: a subscription's fingerprint (the hashes of the chunks its measurement
 * reads) changes only when the map changed near it.
 */
import Flatbush from "flatbush";
import { fmix32, hashString } from "../../platform/hash.js";
import type { BBox, TerritoryPolygon } from "./polygons.js";

export interface ShadingPolygon extends TerritoryPolygon {
  /** The layer it comes from (control, advance, gains24h, infiltration). */
  readonly layer: string;
}

/** Which layers a question counts; null counts them all. */
export type LayerFilter = ReadonlySet<string> | null;

const CHUNK_MIN_VERTICES = 8;
const CHUNK_MAX_VERTICES = 64;
const CHUNK_BOUNDARY_MASK = 31;

const scratch = new Float64Array(2);
const scratchWords = new Uint32Array(scratch.buffer);

function vertexHash(x: number, y: number): number {
  scratch[0] = x;
  scratch[1] = y;
  let h = fmix32(scratchWords[0]! ^ 0x9e3779b9);
  h = fmix32(h ^ scratchWords[1]!);
  h = fmix32(h ^ scratchWords[2]!);
  return fmix32(h ^ scratchWords[3]!);
}

export class Shading {
  readonly polygons: readonly ShadingPolygon[];
  private readonly index: Flatbush | null;
  private readonly chunkPolygon: Int32Array;
  private readonly chunkRing: Int32Array;
  private readonly chunkStart: Int32Array;
  private readonly chunkEnd: Int32Array;
  private readonly chunkHashA: Uint32Array;
  private readonly chunkHashB: Uint32Array;

  constructor(polygons: readonly ShadingPolygon[]) {
    this.polygons = polygons;
    // At most one chunk per vertex: filled in place, then trimmed (a chunk as an array each kept the collector busy).
    const capacity = polygons.reduce((sum, p) => sum + p.rings.reduce((s, r) => s + r.length / 2, 0), 0);
    const chunkPolygon = new Int32Array(capacity);
    const chunkRing = new Int32Array(capacity);
    const chunkStart = new Int32Array(capacity);
    const chunkEnd = new Int32Array(capacity);
    const hashA = new Uint32Array(capacity);
    const hashB = new Uint32Array(capacity);
    const boxes = new Float64Array(capacity * 4);
    let n = 0;
    polygons.forEach((polygon, p) => {
      const layerHash = hashString(polygon.layer);
      polygon.rings.forEach((ring, r) => {
        const last = ring.length / 2 - 1;
        let start = 0;
        let a = fmix32(layerHash ^ 0x1234567);
        let b = fmix32(layerHash ^ 0x7654321);
        let minX = Infinity;
        let minY = Infinity;
        let maxX = -Infinity;
        let maxY = -Infinity;
        for (let v = 0; v <= last; v++) {
          const x = ring[2 * v]!;
          const y = ring[2 * v + 1]!;
          if (x < minX) minX = x;
          if (x > maxX) maxX = x;
          if (y < minY) minY = y;
          if (y > maxY) maxY = y;
          const h = vertexHash(x, y);
          a = fmix32(a ^ h);
          b = fmix32((b + Math.imul(h, 0x27d4eb2d)) >>> 0);
          const length = v - start;
          const boundary =
            (length >= CHUNK_MIN_VERTICES && (h & CHUNK_BOUNDARY_MASK) === 0) ||
            length >= CHUNK_MAX_VERTICES ||
            v === last;
          if (boundary && v > start) {
            chunkPolygon[n] = p;
            chunkRing[n] = r;
            chunkStart[n] = start;
            chunkEnd[n] = v;
            hashA[n] = a;
            hashB[n] = b;
            boxes.set([minX, minY, maxX, maxY], 4 * n);
            n++;
            start = v;
            a = fmix32(layerHash ^ h);
            b = fmix32((layerHash + h) >>> 0);
            minX = maxX = x;
            minY = maxY = y;
          }
        }
      });
    });
    this.chunkPolygon = chunkPolygon.slice(0, n);
    this.chunkRing = chunkRing.slice(0, n);
    this.chunkStart = chunkStart.slice(0, n);
    this.chunkEnd = chunkEnd.slice(0, n);
    this.chunkHashA = hashA.slice(0, n);
    this.chunkHashB = hashB.slice(0, n);
    this.index = n > 0 ? new Flatbush(n) : null;
    for (let i = 0; i < n; i++) this.index!.add(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
    this.index?.finish();
  }

  get chunkCount(): number {
    return this.chunkPolygon.length;
  }

  private accepts(layers: LayerFilter): ((chunk: number) => boolean) | undefined {
    if (!layers) return undefined;
    return (chunk) => layers.has(this.polygons[this.chunkPolygon[chunk]!]!.layer);
  }

  /** The chunks whose bounding box meets `box`. */
  chunksIn(box: BBox, layers: LayerFilter): number[] {
    return this.index ? this.index.search(box[0], box[1], box[2], box[3], this.accepts(layers)) : [];
  }

  /** The chunks a ray from (lon, lat) eastwards may cross: what decides whether the point is inside. */
  chunksEastOf(lon: number, lat: number, layers: LayerFilter): number[] {
    return this.index ? this.index.search(lon, lat, Infinity, lat, this.accepts(layers)) : [];
  }

  polygonOfChunk(chunk: number): number {
    return this.chunkPolygon[chunk]!;
  }

  /** Calls `visit` with each segment of the chunk (in degrees). */
  forEachSegment(chunk: number, visit: (ax: number, ay: number, bx: number, by: number) => void): void {
    const ring = this.polygons[this.chunkPolygon[chunk]!]!.rings[this.chunkRing[chunk]!]!;
    for (let v = this.chunkStart[chunk]!; v < this.chunkEnd[chunk]!; v++) {
      visit(ring[2 * v]!, ring[2 * v + 1]!, ring[2 * v + 2]!, ring[2 * v + 3]!);
    }
  }

  /** Indexes of the polygons containing (lon, lat): even-odd crossings of the eastward ray, per polygon. */
  containing(lon: number, lat: number, layers: LayerFilter): number[] {
    const parity = new Map<number, boolean>();
    for (const chunk of this.chunksEastOf(lon, lat, layers)) {
      const polygon = this.chunkPolygon[chunk]!;
      let odd = parity.get(polygon) ?? false;
      this.forEachSegment(chunk, (ax, ay, bx, by) => {
        if (ay > lat !== by > lat && lon < ax + ((lat - ay) * (bx - ax)) / (by - ay)) odd = !odd;
      });
      parity.set(polygon, odd);
    }
    return [...parity].filter(([, odd]) => odd).map(([polygon]) => polygon);
  }

  /** What the given chunks hold, as one text: equal texts mean equal geometry (but for a 64-bit collision). */
  fingerprint(chunks: Iterable<number>): string {
    let count = 0;
    let a = 0;
    let b = 0;
    for (const chunk of new Set(chunks)) {
      count++;
      a = (a + this.chunkHashA[chunk]!) >>> 0;
      b = (b + this.chunkHashB[chunk]!) >>> 0;
    }
    return `${count}:${a.toString(16)}:${b.toString(16)}`;
  }
}
