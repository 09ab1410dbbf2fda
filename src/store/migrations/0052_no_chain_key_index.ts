/**
 * Issue 49: `fill_rows` drops `fill_rows_chain_key`, the unique index on a chain fill's block and log (17.1 bytes a
 * fill on the 1,000,000-fill SQLite world, 31.6 on PostgreSQL). Its three uses move:
 * - a replayed chain fill is found by the writer among the stored fills of its time's spans (src/store/fill-rows.ts);
 * - a left-out transaction hash is read at the ids just before the fill, not by log index (`fillTxHashSql`);
 * - the Deriver's latest fills take their ids from the writer, not from a read by key.
 * A fill whose hash the two reads would give differently (its run stored out of log order, or longer than
 * `IMPLIED_TX_REACH`) stores its hash first, so every fill reads back the hash it was written with.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS, fillTxHashSql, fillsViewSql, storedHashSql } from "../fill-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

const OWN_TX = "fill_rows_own_tx";

export const noChainKeyIndex: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    await run("drop view fills");
    const [byLog, byId] = [fillTxHashSql(kind, "f", "coded-role"), fillTxHashSql(kind, "f", "tx-by-id")];
    await run(`create temp table ${OWN_TX} as select id, ts, tx from (
        select f.id, f.ts, ${byLog} as tx, ${byId} as read_by_id from ${FILL_ROWS} f
        where f.tx_hash is null and f.tx_text is null and f.key_text is null
      ) r where read_by_id is distinct from tx`);
    const hash = storedHashSql(kind, "r.tx");
    await run(`update ${FILL_ROWS} as f set tx_hash = ${hash.bytes}, tx_text = ${hash.text}
      from ${OWN_TX} r where f.id = r.id and f.ts = r.ts`);
    await run(`drop table ${OWN_TX}`);
    await run("drop index if exists fill_rows_chain_key");
    await run(fillsViewSql(kind, "tx-by-id"));
  },
};
