/**
 * One API process's copy of the leaderboards' per-wallet table.
 *
 * The table is read whole (page by page) when the Deriver rewrote wallet_stats: a rebuild or a refresh bumps
 * `derive_state.stats_generation` in the transaction of its writes, and the process looks at that one row at most
 * every LEADERBOARD_CHECK_SECONDS. Only the first request of a process waits for a load; later reloads run in the
 * background while the previous table answers. Rows are sorted once per load by each sort key (Smart Money apart,
 * the default filter), so a query walks the rows in answer order. A query's answer depends on nothing but the
 * table, so the HTTP layer keeps each one serialized per generation (src/kept/generation-bodies.ts).
 */
import type { Config } from "../../config/index.js";
import { STATS_GENERATION, readDeriveState } from "../../store/derive-state.js";
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Clock } from "../../platform/clock.js";
import type { Store } from "../../store/database.js";
import {
  BOARD_SORTS,
  SORT_KEY,
  boardPredicate,
  loadBoardWallets,
  sortBoard,
  type BoardQuery,
  type BoardSort,
  type BoardWallet,
} from "./leaderboard.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";

type SortedLists = Map<BoardSort, { all: BoardWallet[]; smart: BoardWallet[] }>;

function sortedBy(wallets: readonly BoardWallet[], sort: BoardSort): { all: BoardWallet[]; smart: BoardWallet[] } {
  const all = sortBoard([...wallets], SORT_KEY[sort]);
  return { all, smart: all.filter((w) => w.is_smart) };
}

export class Board {
  private readonly sorted: SortedLists;

  constructor(
    readonly wallets: readonly BoardWallet[],
    /** The stats generation the rows were read at (or after). */
    readonly generation: number,
    sorted?: SortedLists,
  ) {
    this.sorted = sorted ?? new Map(BOARD_SORTS.map((sort) => [sort, sortedBy(wallets, sort)]));
  }

  /** The same board, sorted one key at a time with the event loop free in between (a large table sorts for a while). */
  static async build(wallets: readonly BoardWallet[], generation: number): Promise<Board> {
    const sorted: SortedLists = new Map();
    for (const sort of BOARD_SORTS) {
      await yieldToLoop();
      sorted.set(sort, sortedBy(wallets, sort));
    }
    return new Board(wallets, generation, sorted);
  }

  /** The wallets matching the query, sorted descending by its key (then by address), paged; `total` before paging. */
  query(q: BoardQuery): { whales: BoardWallet[]; total: number } {
    const lists = this.sorted.get(q.sort)!;
    const keep = boardPredicate(q);
    const whales: BoardWallet[] = [];
    let total = 0;
    for (const w of q.filter === "smart" ? lists.smart : lists.all) {
      if (!keep(w)) continue;
      if (total >= q.offset && whales.length < q.limit) whales.push(w);
      total++;
    }
    return { whales, total };
  }

  /** A leaderboard's answer: the query's page, with the sort and paging it was read with. */
  page(q: BoardQuery) {
    const { whales, total } = this.query(q);
    return { whales, total, sort: q.sort, offset: q.offset, limit: q.limit };
  }
}

const statsGeneration = (store: Store) => readDeriveState(store.db, STATS_GENERATION);

export class BoardTable {
  private board: Board | null = null;
  private loading: Promise<Board> | null = null;
  private checking = false;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly background: BackgroundWork,
  ) {}

  /** The current table; the first call waits for it to load. */
  async current(): Promise<Board> {
    const board = this.board;
    if (!board) return this.loading ?? this.reload();
    const now = this.clock.now();
    if (
      !this.checking &&
      (now - this.checkedAt >= this.config.boards.leaderboardCheckSeconds || now < this.checkedAt)
    ) {
      this.checkedAt = now;
      this.checking = this.background.run("leaderboard table", () =>
        statsGeneration(this.store)
          .then((generation) => {
            if (generation !== board.generation && !this.loading) return this.reload();
            return undefined;
          })
          .finally(() => (this.checking = false)),
      );
    }
    return board;
  }

  /** Drops the table, so that the next call waits for a fresh load (readiness turned on). */
  forget(): void {
    this.board = null;
    this.loading = null;
  }

  /** Reads the generation, then the rows (a refresh between the two is seen again at the next check). */
  private reload(): Promise<Board> {
    const loading = statsGeneration(this.store)
      .then(async (generation) => ({ generation, wallets: await loadBoardWallets(this.store, this.config) }))
      .then(({ generation, wallets }) => Board.build(wallets, generation))
      .then((board) => {
        // A load that `forget` left behind answers its own caller only.
        if (this.loading !== loading) return board;
        this.board = board;
        return board;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }
}
