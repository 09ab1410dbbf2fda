/**
 * Issue 49: the P&L series packed, one row a wallet and series (src/store/pnl-series.ts). On the 1,000,000-fill
 * world our hourly and daily points (751,503 rows) and the venue's curve (397,224) were 30 bytes a fill on SQLite
 * and 106 on PostgreSQL, a row and a key entry a point. Each wallet's points of `pnl_point_rows` (by resolution) and
 * of `venue_pnl_point_rows` are read a range of wallet ids at a time, packed and written to `pnl_series`; the rows
 * tables and their views `pnl_points` and `venue_pnl_points` are dropped (readers ask src/store/pnl-series.ts).
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../schema.js";
import { encodeSeries, type SeriesPoint } from "../pnl-series-codec.js";
import { PNL_SERIES, PNL_SERIES_TABLE, type PnlSeriesName, writePackedRows } from "../pnl-series.js";
import { queryRows } from "../raw-sql.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

/** Wallet ids read at once: at 10,000,000 fills about 80,000 points. */
const WALLET_IDS_PER_READ = 500;

const SOURCES = [
  { rows: "pnl_point_rows", view: "pnl_points", series: "resolution" },
  { rows: "venue_pnl_point_rows", view: "venue_pnl_points", series: "'venue'" },
] as const;

export const packedPnlSeries: StoreMigration = {
  async up(unknownDb: Kysely<unknown>, kind: StoreKind) {
    const db = unknownDb as unknown as Kysely<Database>;
    const create = db.schema
      .createTable(PNL_SERIES_TABLE)
      .addColumn("wallet_id", "integer", (c) => c.notNull())
      .addColumn("series", kind === "sqlite" ? "integer" : "smallint", (c) => c.notNull())
      .addColumn("points", kind === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${PNL_SERIES_TABLE}_pk`, ["wallet_id", "series"] as never);
    await (kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
    const store = { db, kind };
    for (const { rows, series } of SOURCES) {
      const [{ last } = { last: null }] = await queryRows<{ last: number | null }>(
        db,
        kind,
        `select max(wallet_id) as last from ${rows}`,
      );
      for (let from = 0; last !== null && from < Number(last); from += WALLET_IDS_PER_READ) {
        const points = await queryRows<{ wallet_id: number; series: PnlSeriesName; t: number; pnl: number }>(
          db,
          kind,
          `select wallet_id, ${series} as series, t, pnl from ${rows}
            where wallet_id > ? and wallet_id <= ? order by wallet_id, series, t`,
          [from, from + WALLET_IDS_PER_READ],
        );
        await writePackedRows(store, packed(points));
      }
    }
    for (const { rows, view } of SOURCES) {
      await sql.raw(`drop view ${view}`).execute(db);
      await sql.raw(`drop table ${rows}`).execute(db);
    }
    if (kind === "postgres") await sql.raw(`analyze ${PNL_SERIES_TABLE}`).execute(db);
  },
};

/** Rows in (wallet, series, time) order as packed rows, one a wallet and series. */
function packed(rows: readonly { wallet_id: number; series: PnlSeriesName; t: number; pnl: number }[]): unknown[][] {
  const out: unknown[][] = [];
  let points: SeriesPoint[] = [];
  rows.forEach((row, i) => {
    points.push({ t: Number(row.t), pnl: Number(row.pnl) });
    const next = rows[i + 1];
    if (next && next.wallet_id === row.wallet_id && next.series === row.series) return;
    const { code, scale } = PNL_SERIES[row.series];
    out.push([Number(row.wallet_id), code, encodeSeries(points, scale)]);
    points = [];
  });
  return out;
}
