/**
 * Issue 24: `wallet_fees`, the fees a wallet paid and the volume it traded, summed per UTC month, entry type and
 * role (the fees endpoint reads a wallet's rows in one indexed read instead of grouping its whole fill history).
 * The Deriver and `rebuild` write it (src/derive/wallet-fees.ts); this migration fills it from the fills already
 * stored, so that a store derived before it answers at once (an API process without an ingest, a bench world).
 */
import type { Kysely } from "kysely";
import { fillWalletFeesFromFills } from "../wallet-fees.js";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const walletFees: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable("wallet_fees")
      .addColumn("wallet", t.text, (c) => c.notNull())
      .addColumn("month", t.text, (c) => c.notNull())
      .addColumn("entry_type", t.text, (c) => c.notNull())
      .addColumn("role", t.text, (c) => c.notNull())
      .addColumn("fees", t.int, (c) => c.notNull())
      .addColumn("volume", t.int, (c) => c.notNull())
      .addColumn("fills", t.int, (c) => c.notNull())
      .addColumn("charged", t.int, (c) => c.notNull())
      .addPrimaryKeyConstraint("wallet_fees_pk", ["wallet", "month", "entry_type", "role"])
      .execute();
    await fillWalletFeesFromFills(db, kind, "table");
  },
};
