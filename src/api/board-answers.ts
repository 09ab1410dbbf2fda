/**
 * The leaderboards' answers kept serialized: a query's answer depends on nothing but the table it was read from
 * (src/analytics/boards/board-table.ts), so each distinct query is serialized once per table generation and kept until
 * the table is reloaded, bounded by LEADERBOARD_CACHED_PAGES and LEADERBOARD_CACHED_MB (the oldest go first).
 */
import type { BoardTable } from "../analytics/boards/board-table.js";
import type { BoardQuery } from "../analytics/boards/leaderboard.js";
import type { Config } from "../config/index.js";
import { BoundedMap, mebibytes } from "../platform/bounded-map.js";
import { SerializedBody } from "./body-cache.js";

export class BoardAnswers {
  private readonly answers: BoundedMap<SerializedBody>;
  private generation: number | null = null;

  constructor(
    private readonly table: BoardTable,
    private readonly config: Config,
  ) {
    this.answers = new BoundedMap({
      maxEntries: config.boards.leaderboardCachedPages,
      maxBytes: mebibytes(config.boards.leaderboardCachedMb),
    });
  }

  /** Answers held and the bytes charged for them. */
  get footprint(): { entries: number; bytes: number } {
    return { entries: this.answers.size, bytes: this.answers.bytes };
  }

  /** Drops every answer (with the table, when readiness turns on). */
  forget(): void {
    this.table.forget();
    this.answers.clear();
    this.generation = null;
  }

  /** The serialized answer to a query (by `serialize`, the route's serializer), computed once per table. */
  async answer(q: BoardQuery, serialize: (body: unknown) => string): Promise<SerializedBody> {
    const board = await this.table.current();
    // Generations only grow: an older table still answering a request that began before a reload is not kept.
    if (this.generation === null || board.generation > this.generation) {
      this.answers.clear();
      this.generation = board.generation;
    }
    const key = JSON.stringify(q);
    const cached = this.answers.get(key, 0);
    if (cached) return cached;
    const { whales, total } = board.query(q);
    const body = SerializedBody.of(
      serialize({ whales, total, sort: q.sort, offset: q.offset, limit: q.limit }),
      this.config.server.gzipMinBytes,
    );
    if (this.generation === board.generation) this.answers.set(key, body, body.keptBytes, Number.POSITIVE_INFINITY, 0);
    return body;
  }
}
