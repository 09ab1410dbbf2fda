/**
 * Answers kept serialized in this process for a time (TTL): the HTTP layer's byte cache, each entry served from
 * the clock second it was computed for until its time runs out (src/kept/send-serialized.ts sends them).
 */
import { BoundedMap, type MapBounds } from "../platform/bounded-map.js";
import type { Clock } from "../platform/clock.js";
import { metrics } from "../platform/metrics.js";
import { SerializedBody } from "./serialized-body.js";

/** What every kind of kept answers takes from its process: the clock, GZIP_MIN_BYTES and readiness. */
export interface Keeping {
  readonly clock: Clock;
  /** Smaller answers are never compressed (0: none is). */
  readonly gzipMinBytes: number;
  /** Whether an answer computed now may be kept (the store's first sync is derived). */
  readonly admitted: () => boolean;
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
export class TtlBodies {
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
