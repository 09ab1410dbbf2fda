/**
 * Migration 0060 (src/store/migrations/0060_coded_position_status.ts): `position_rows` stores a position's status as
 * a code, which the view `positions` reads back as its text. A store written in the layout before migrates: the view
 * gives what it gave, the rows and both indexes hold the codes (integers, not texts), the reads that filter on the
 * status (src/store/position-status.ts) find the positions they should, and rows written after through the derived
 * tables' writer read back alike. Those reads keep their indexes: each read's statements, as it runs them, are
 * explained, and the status must be a condition of the index's search, not a filter on the rows found. On SQLite,
 * and on PostgreSQL with TEST_DATABASE_URL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { holdersQuery } from "../analytics/markets/market-consensus.js";
import { walletHold } from "../analytics/wallet/wallet-insights.js";
import { closedPositions, openPositions, pendingRedemptions } from "../analytics/wallet/wallet-positions.js";
import { walletAlignment } from "../analytics/whales/whale-matches.js";
import { loadConfig } from "../config/index.js";
import type { Store } from "./database.js";
import { deleteWhereIn, insertRows, upsertRows } from "./derived-tables.js";
import { migrateStore } from "./migrate.js";
import { queryRows } from "./raw-sql.js";
import type { PositionsTable } from "./schema.js";
import { indexNamesOf } from "./testing/index-names.js";
import { plansOf } from "./testing/query-plans.js";

/** The codes the rows must hold, written out here rather than taken from the code under test. */
/** A wallet's three latest closed positions, unfiltered. */
const RECENT_THREE = {
  limit: 3,
  offset: 0,
  sort: "recent",
  minBuyCost: 0,
  avgEntryMin: 0,
  avgEntryMax: 0,
} as const;

const STATUS_CODES = { closed: 0, open: 1 } as const;
const DAY = 86_400;
const NOW = 1_780_000_000;
const CONFIG = loadConfig({ LOG_LEVEL: "silent" });

const hex = (n: number, digits: number) => `0x${n.toString(16).padStart(digits, "0")}`;
const WALLETS = Array.from({ length: 60 }, (_, w) => hex(0xa000 + w, 40));
const MARKETS = Array.from({ length: 20 }, (_, m) => hex(0xc000 + m, 64));
const tokenOf = (m: number, outcome: number) => `${7_000_000 + m * 2 + outcome}${"3".repeat(20)}`;

/** Every wallet in every market on one side, statuses, shares and times taking turns; each wallet's closes apart. */
const POSITIONS: PositionsTable[] = WALLETS.flatMap((wallet, w) =>
  MARKETS.map((condition_id, m) => {
    const n = w * MARKETS.length + m;
    const outcome_index = (w + m) % 2;
    const closed = (w + m) % 3 === 0;
    const shares = closed ? (n % 4 === 0 ? 2_000_000 : 0) : n % 5 === 0 ? 0 : 1_000_000 * ((n % 7) + 1);
    const first_ts = NOW - DAY * ((n % 120) + 2);
    return {
      wallet,
      token_id: tokenOf(m, outcome_index),
      condition_id,
      outcome_index,
      shares,
      avg_price: 0.1 + (n % 9) / 10,
      total_bought: shares + 1_000_000,
      realized_pnl: n * 1_000 - 50_000,
      fees: n,
      first_ts,
      last_ts: first_ts + 100,
      closed_ts: closed ? first_ts + DAY * (m + 1) : null,
      status: closed ? "closed" : "open",
    };
  }),
);

const run = (store: Store, text: string, params: readonly unknown[] = []) =>
  queryRows<Record<string, unknown>>(store.db, store.kind, text, params);

/** The rows as the layout before 0060 held them: the status as its text. */
async function writeBefore0060(store: Store): Promise<void> {
  const dictionaries = [
    ["address_ids", "address", WALLETS],
    ["condition_ids", "condition_id", MARKETS],
    ["token_ids", "token_id", [...new Set(POSITIONS.map((p) => p.token_id))]],
  ] as const;
  const ids: Map<string, number>[] = [];
  for (const [table, column, values] of dictionaries) {
    for (const value of values) await run(store, `insert into ${table} (${column}) values (?)`, [value]);
    const rows = await run(store, `select id, ${column} as v from ${table}`);
    ids.push(new Map(rows.map((r) => [r.v as string, Number(r.id)])));
  }
  const [wallets, markets, tokens] = ids as [Map<string, number>, Map<string, number>, Map<string, number>];
  const columns =
    "wallet_id, token_ref, condition_ref, outcome_index, shares, avg_price, total_bought, realized_pnl, fees, first_ts, last_ts, closed_ts, status";
  for (let i = 0; i < POSITIONS.length; i += 200) {
    const slice = POSITIONS.slice(i, i + 200);
    const values = slice.flatMap((p) => [
      wallets.get(p.wallet),
      tokens.get(p.token_id),
      markets.get(p.condition_id),
      p.outcome_index,
      p.shares,
      p.avg_price,
      p.total_bought,
      p.realized_pnl,
      p.fees,
      p.first_ts,
      p.last_ts,
      p.closed_ts,
      p.status,
    ]);
    const tuples = slice.map(() => `(${Array(13).fill("?").join(", ")})`).join(", ");
    await run(store, `insert into position_rows (${columns}) values ${tuples}`, values);
  }
}

const ofWallet = (wallet: string, status: PositionsTable["status"]) =>
  POSITIONS.filter((p) => p.wallet === wallet && p.status === status);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What the reads that filter on the status give, checked against the positions written. */
async function expectReadsOf(store: Store, positions: readonly PositionsTable[]): Promise<void> {
  const open = (p: PositionsTable) => p.status === "open" && p.shares > 0;
  for (const market of [MARKETS[0]!, MARKETS[7]!]) {
    const holders = await holdersQuery(store.db, store.kind, market).execute();
    expect(holders.map((h) => `${h.wallet} ${h.outcome_index} ${h.shares}`).sort()).toEqual(
      positions
        .filter((p) => p.condition_id === market && open(p))
        .map((p) => `${p.wallet} ${p.outcome_index} ${p.shares}`)
        .sort(),
    );
  }
  for (const wallet of [WALLETS[0]!, WALLETS[13]!]) {
    const mine = positions.filter((p) => p.wallet === wallet);
    const opened = await openPositions(store, wallet, NOW, 3_600);
    expect(opened.positions.map((p) => p.token_id)).toEqual(
      mine
        .filter((p) => p.status === "open")
        .map((p) => p.token_id)
        .sort(byText),
    );
    const closed = mine.filter((p) => p.status === "closed");
    const page = await closedPositions(store, wallet, RECENT_THREE);
    expect(page.total).toBe(closed.length);
    expect(page.closed.map((c) => c.closed_ts)).toEqual(
      closed
        .map((p) => p.closed_ts)
        .sort((a, b) => b! - a!)
        .slice(0, 3),
    );
    const hold = await walletHold(store, wallet, NOW, CONFIG);
    const window = NOW - CONFIG.ledger.holdWindowDays * DAY;
    expect(hold.hold_positions_count).toBe(closed.filter((p) => p.closed_ts! >= window).length);
    expect(hold.open_positions).toBe(mine.filter((p) => p.status === "open").length);
  }
}

describe.each(storeBackends)("coded position status, on $kind", (backend) => {
  it("migration 0060 codes the status: the view and the reads filtering on it as before, the rows holding codes", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore("0060_coded_position_status") });
    try {
      await writeBefore0060(store);
      const view = () => run(store, "select * from positions order by wallet, token_id");
      const before = await view();
      expect(before).toHaveLength(POSITIONS.length);
      expect(new Set(before.map((r) => r.status))).toEqual(new Set(["open", "closed"]));

      await migrateStore(store);
      expect(await view()).toEqual(before);
      await expectReadsOf(store, POSITIONS);

      // The rows hold the codes, as integers; both indexes are there and hold the status after their first column.
      const stored = await run(store, "select status, count(*) as n from position_rows group by status");
      expect(Object.fromEntries(stored.map((r) => [String(r.status), Number(r.n)]))).toEqual({
        [STATUS_CODES.closed]: POSITIONS.filter((p) => p.status === "closed").length,
        [STATUS_CODES.open]: POSITIONS.filter((p) => p.status === "open").length,
      });
      for (const r of stored) expect(typeof r.status).toBe("number");
      const names = await indexNamesOf(store, "position_rows");
      expect(names).toEqual(expect.arrayContaining(["positions_wallet_closed", "positions_condition_holders"]));
      if (store.sqlite) {
        expect(store.sqlite.prepare("select distinct typeof(status) from position_rows").pluck().all()).toEqual([
          "integer",
        ]);
        for (const index of ["positions_wallet_closed", "positions_condition_holders"])
          expect(
            store.sqlite.prepare(`select name from pragma_index_info('${index}') where seqno = 1`).pluck().get(),
          ).toBe("status");
      } else {
        const [type] = await run(
          store,
          `select data_type as t from information_schema.columns
            where table_schema = current_schema() and table_name = 'position_rows' and column_name = 'status'`,
        );
        expect(type?.t).toBe("smallint");
      }

      // Written after through the derived tables' writer: a position closed, a new one, a wallet's rewritten; a
      // status the code has none for is refused.
      const [wallet, other] = [WALLETS[0]!, WALLETS[13]!];
      const closing = { ...ofWallet(wallet, "open")[0]!, status: "closed" as const, closed_ts: NOW - 10 };
      const fresh: PositionsTable = { ...closing, token_id: `9${"1".repeat(40)}`, status: "open", closed_ts: null };
      await store.transaction((tx) => upsertRows(tx, "positions", [closing, fresh]));
      const rewritten = ofWallet(other, "closed").map((p) => ({ ...p, status: "open" as const, closed_ts: null }));
      await store.transaction(async (tx) => {
        await deleteWhereIn(tx, "positions", "wallet", [other]);
        await insertRows(tx, "positions", rewritten);
      });
      const after = POSITIONS.filter((p) => p !== ofWallet(wallet, "open")[0] && p.wallet !== other);
      const expected = [...after, closing, fresh, ...rewritten];
      await expectReadsOf(store, expected);
      const written = await run(store, "select status from positions where wallet in (?, ?)", [wallet, other]);
      expect(written.map((r) => r.status).sort()).toEqual(
        expected
          .filter((p) => p.wallet === wallet || p.wallet === other)
          .map((p) => p.status)
          .sort(),
      );
      await expect(
        store.transaction((tx) => upsertRows(tx, "positions", [{ ...fresh, status: "pending" as never }])),
      ).rejects.toThrow();
    } finally {
      await dispose();
    }
  });

  it("keeps the reads that filter on the status on the indexes that hold it", async () => {
    const { store, dispose } = await backend.open();
    try {
      await store.transaction((tx) => insertRows(tx, "positions", POSITIONS));
      if (store.kind === "postgres") await sql`analyze`.execute(store.db);
      const [wallet, market] = [WALLETS[13]!, MARKETS[7]!];
      const reads: Record<string, { run: () => Promise<unknown>; index: string; search: string }> = {
        holders: {
          run: () => holdersQuery(store.db, store.kind, market).execute(),
          index: "positions_condition_holders",
          search: "condition_ref=? AND status=?",
        },
        "closed page": {
          run: () => closedPositions(store, wallet, RECENT_THREE),
          index: "positions_wallet_closed",
          search: "wallet_id=? AND status=?",
        },
        "closed in the hold window": {
          run: () => walletHold(store, wallet, NOW, CONFIG),
          index: "positions_wallet_closed",
          search: "wallet_id=? AND status=? AND closed_ts>?",
        },
      };
      for (const [name, read] of Object.entries(reads)) {
        const plans = await plansOf(store, read.run, "position_rows");
        expect(plans.length, name).toBeGreaterThan(0);
        const searched = plans.find((plan) => plan.includes(read.index));
        if (store.kind === "sqlite") expect(searched, name).toContain(`${read.index} (${read.search})`);
        else expect(searched, name).toMatch(/Index Cond: \([^\n]*status = /);
      }
      // Every read that filters on the status: no plan reads the whole table, none filters the view's computed text.
      for (const read of [
        () => openPositions(store, wallet, NOW, 3_600),
        () => pendingRedemptions(store, wallet),
        () => walletAlignment(store, wallet, CONFIG),
      ]) {
        const plans = await plansOf(store, read, "position_rows");
        expect(plans.length).toBeGreaterThan(0);
        for (const plan of plans) {
          expect(plan).not.toMatch(/SCAN r\b|Seq Scan on position_rows/);
          expect(plan).not.toMatch(/CASE/i);
          if (store.kind === "postgres") expect(plan).toMatch(/Index Cond: \([^\n]*status = /);
        }
      }
    } finally {
      await dispose();
    }
  });
});
