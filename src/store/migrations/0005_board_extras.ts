/**
 * Issue 8, leaderboards: the per-wallet figures the leaderboards read beside the ledger's statistics, kept in
 * `wallet_stats` by the Deriver (average entry price over positions; MINT, MERGE, maker and total volume of
 * the 30 days before the ledger's last refresh), and `derive_state`, whose `stats_generation` counts the
 * writes of the whole statistics table (rebuild, refresh), so an API process reloads its board only when it moved.
 *
 * A store derived before this migration gets the figures computed here once, from its positions and fills,
 * over the 30 days before its statistics were computed; the next rebuild or refresh replaces them.
 */
import { sql, type Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

const WINDOW_SECONDS = 30 * 86_400;

export const boardExtras: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;
    await s.alterTable("wallet_stats").addColumn("avg_entry_price", t.real).execute();
    for (const column of ["mint_volume_30d", "merge_volume_30d", "maker_volume_30d", "volume_30d"]) {
      await s
        .alterTable("wallet_stats")
        .addColumn(column, t.real, (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await s
      .createTable("derive_state")
      .addColumn("name", t.text, (c) => c.primaryKey())
      .addColumn("value", t.int, (c) => c.notNull())
      .execute();
    await sql`insert into derive_state (name, value) values ('stats_generation', 1)`.execute(db);
    await backfillBoardExtras(db);
  },
};

/** The figures of every wallet_stats row from the stored positions and fills (what a rebuild would write). */
export async function backfillBoardExtras(db: Kysely<unknown>): Promise<void> {
  await sql`update wallet_stats set avg_entry_price = v.avg_entry
    from (select wallet, sum(avg_price * total_bought) / sum(total_bought) as avg_entry from positions group by wallet having sum(total_bought) > 0) v
    where v.wallet = wallet_stats.wallet`.execute(db);
  const bound = await sql<{ upper: number | null }>`select max(computed_at) as upper from wallet_stats`.execute(db);
  const upper =
    bound.rows[0]?.upper === null || bound.rows[0]?.upper === undefined ? null : Number(bound.rows[0].upper);
  if (upper === null) return;
  const usd = (condition: string) =>
    sql.raw(`cast(sum(case when ${condition} then usd else 0 end) as double precision) / 1000000`);
  await sql`update wallet_stats set
      mint_volume_30d = v.mint, merge_volume_30d = v.merge_volume, maker_volume_30d = v.maker, volume_30d = v.total
    from (select wallet, ${usd("entry_type = 'MINT'")} as mint, ${usd("entry_type = 'MERGE'")} as merge_volume,
            ${usd("role = 'maker'")} as maker, ${usd("1 = 1")} as total
          from fills where ts > ${upper - WINDOW_SECONDS} and ts <= ${upper} group by wallet) v
    where v.wallet = wallet_stats.wallet`.execute(db);
}
