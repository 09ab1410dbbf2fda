/**
 * Answers kept serialized per generation of what they are computed from (the leaderboards' table,
 * src/analytics/boards/board-table.ts): an answer depends on nothing but the generation it was read from, so each
 * distinct query is serialized once per generation and kept until a newer generation answers, bounded in entries
 * and bytes (the oldest go first).
 */
import { BoundedMap, type MapBounds } from "../platform/bounded-map.js";
import { SerializedBody } from "./serialized-body.js";

export class GenerationBodies {
  private readonly answers: BoundedMap<SerializedBody>;
  private generation: number | null = null;

  constructor(
    bounds: MapBounds,
    private readonly gzipMinBytes: number,
  ) {
    this.answers = new BoundedMap(bounds);
  }

  /** Answers held and the bytes charged for them. */
  get footprint(): { entries: number; bytes: number } {
    return { entries: this.answers.size, bytes: this.answers.bytes };
  }

  /** Drops every answer (when readiness turns on). */
  clear(): void {
    this.answers.clear();
    this.generation = null;
  }

  /** The answer kept under `key` for `generation`, or `serialize`d (once per generation) and kept. */
  answer(generation: number, key: string, serialize: () => string): SerializedBody {
    // Generations only grow: an older generation still answering a request that began before a reload is not kept.
    if (this.generation === null || generation > this.generation) {
      this.answers.clear();
      this.generation = generation;
    }
    const cached = this.answers.get(key, 0);
    if (cached) return cached;
    const body = SerializedBody.of(serialize(), this.gzipMinBytes);
    if (this.generation === generation) this.answers.set(key, body, body.keptBytes, Number.POSITIVE_INFINITY, 0);
    return body;
  }
}
