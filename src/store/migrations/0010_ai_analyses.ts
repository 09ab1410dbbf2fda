/**
 * Issue 28, AI analysis of a wallet: the saved analyses (one per wallet, replaced whole by each generation, with the
 * statistics it quoted kept beside its text) and the queue of generations still to run, shared by every API process
 * through the store (a row is a wallet waiting for an analysis; its lease says which process is writing it now).
 * Row types: `src/ai/tables.ts`.
 */
import type { Kysely } from "kysely";
import { columnTypes, type StoreKind, type StoreMigration } from "./column-types.js";

export const aiAnalyses: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const t = columnTypes(kind);
    const s = db.schema;
    await s
      .createTable("ai_analyses")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("generated_at", t.int, (c) => c.notNull())
      .addColumn("generator", t.text, (c) => c.notNull())
      .addColumn("model", t.text)
      .addColumn("prompt_version", t.text)
      .addColumn("report", t.text, (c) => c.notNull())
      .addColumn("sections", t.text, (c) => c.notNull())
      .addColumn("inputs", t.text, (c) => c.notNull())
      .execute();
    await s
      .createTable("ai_analysis_jobs")
      .addColumn("wallet", t.text, (c) => c.primaryKey())
      .addColumn("requested_at", t.int, (c) => c.notNull())
      .addColumn("force", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("attempts", t.int, (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.int, (c) => c.notNull())
      .addColumn("last_error", t.text)
      .addColumn("lease_owner", t.text)
      .addColumn("lease_until", t.int)
      .execute();
    await s
      .createIndex("ai_analysis_jobs_due")
      .on("ai_analysis_jobs")
      .columns(["next_attempt_at", "requested_at"])
      .execute();
  },
};
