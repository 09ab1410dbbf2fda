/**
 * Answers kept serialized in this process, the HTTP layer's byte cache: a JSON answer serialized once and sent as
 * it is, or gzip-compressed for clients that accept it (src/api/send-serialized.ts sends them).
 */
import { gzipSync } from "node:zlib";
import { BoundedMap, type MapBounds } from "../platform/bounded-map.js";
import type { Clock } from "../platform/clock.js";
import { metrics } from "../platform/metrics.js";
import { gzipEtag, strongEtag } from "./etag.js";
import { type OpenGzip, openGzip } from "./gzip-tail.js";

const BODY_OVERHEAD_BYTES = 512;

/**
 * A JSON answer serialized once and kept: sent as it is, or gzip-compressed for clients that accept it. The
 * compressed form and the ETag are made on first need and kept with it, so a kept answer is compressed and hashed
 * once, not per request.
 */
export class SerializedBody {
  private gzipped: Buffer | undefined;
  private opened: OpenGzip | undefined;
  private hashed: string | undefined;

  constructor(
    readonly json: Buffer,
    /** Smaller answers are never compressed (GZIP_MIN_BYTES; 0: none is). */
    private readonly gzipMinBytes: number,
    /** The head of answers that each request ends with its own tail (src/api/gzip-tail.ts): kept open, not gzipped. */
    readonly openEnded = false,
  ) {}

  /**
   * The JSON gets a memory block of its own: a short Buffer.from slice would hold a whole shared 8 KiB pool block
   * for as long as it is kept, beyond what the cache that keeps it counts.
   */
  static of(text: string, gzipMinBytes: number, openEnded = false): SerializedBody {
    const json = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    json.write(text);
    return new SerializedBody(json, gzipMinBytes, openEnded);
  }

  get compressible(): boolean {
    return this.gzipMinBytes > 0 && this.json.length >= this.gzipMinBytes;
  }

  /**
   * The memory this answer holds once kept: its JSON, its gzip form when it may be sent compressed (made here, once,
   * so that its real size is charged: an upper bound of twice the JSON let a cache hold half the answers it had room
   * for), and its objects (measured about 300 bytes on the heap, and the memory blocks' bookkeeping outside it).
   */
  get keptBytes(): number {
    if (!this.compressible) return BODY_OVERHEAD_BYTES + this.json.length;
    const compressed = this.openEnded ? this.openGzip().start : this.gzip();
    return BODY_OVERHEAD_BYTES + this.json.length + compressed.length;
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json));
  }

  /** The gzip form left open for a tail, made on first need. */
  openGzip(): OpenGzip {
    return (this.opened ??= openGzip(this.json));
  }

  /** The strong ETag of the JSON (src/api/etag.ts), hashed once for as long as the answer is kept. */
  get etag(): string {
    return (this.hashed ??= strongEtag(this.json));
  }

  /** The ETag of the gzip form. */
  get gzipEtag(): string {
    return gzipEtag(this.etag);
  }
}

/** An answer with the first second (unix) at which it may no longer be what computing it again gives. */
export interface BoundedAnswer {
  readonly text: string;
  readonly until: number;
}

/**
 * Serialized answers kept in this process (a route sends them as they are, without serializing again). An entry
 * serves from the clock second it was computed for at most `ttlSeconds`, shortened at random by up to a quarter,
 * so that entries computed together (a cold start, a burst) do not all expire, and load the store, together. A
 * clock set back never meets an entry computed later. Loads of one key are single-flight; the oldest entries go
 * past `bounds` (entries, and bytes: each answer's `keptBytes` and key), and expired ones as later answers are kept.
 * An answer is kept only if `admitted` held when its computation began (readiness).
 */
export class LocalBodyCache {
  private readonly entries: BoundedMap<{ from: number; body: SerializedBody }>;
  private readonly inflight = new Map<string, Promise<SerializedBody>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    bounds: MapBounds,
    /** GZIP_MIN_BYTES (0: kept answers are never compressed). */
    private readonly gzipMinBytes = 0,
    private readonly admitted: () => boolean = () => true,
    /** Answers are heads that each request ends with its own tail (`SerializedBody.openEnded`). */
    private readonly openEnded = false,
  ) {
    this.entries = new BoundedMap(bounds);
  }

  /** Answers held and the bytes charged for them. */
  get footprint(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.bytes };
  }

  /**
   * The answer kept under `key`, or computed and kept. `compute` may bound its answer's life: `until` is the first
   * second at which computing it again might give other bytes (an entry never outlives the cache's own time to live).
   */
  async get(key: string, compute: (now: number) => Promise<string | BoundedAnswer>): Promise<SerializedBody> {
    const now = this.clock.now();
    const entry = this.entries.get(key, now);
    if (entry && entry.from <= now) {
      metrics.cacheLookups.inc({ cache: "body", result: "hit" });
      return entry.body;
    }
    metrics.cacheLookups.inc({ cache: "body", result: "miss" });
    const running = this.inflight.get(key);
    if (running) return running;
    const keep = this.admitted() && this.ttlSeconds > 0;
    const loading = compute(now)
      .then((answer) => {
        const { text, until } = typeof answer === "string" ? { text: answer, until: Number.POSITIVE_INFINITY } : answer;
        const body = SerializedBody.of(text, this.gzipMinBytes, this.openEnded);
        if (keep && until > now)
          this.entries.set(
            key,
            { from: now, body },
            body.keptBytes,
            Math.min(until, now + this.ttlSeconds * (1 - 0.25 * Math.random())),
            now,
          );
        return body;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, loading);
    return loading;
  }
}
