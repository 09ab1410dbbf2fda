/**
 * Issue 49: `fills_ts`, the index of every fill by time, gives way to `fill_spans` (src/store/fill-spans.ts): per
 * five minutes of fill time, the id ranges its fills are stored in. The reads over a window of every wallet's fills
 * read those ranges of `fill_rows` by id; the index cost 14.8 bytes a fill on the 1,000,000-fill world, the spans a
 * few bytes an hour. The spans are made from the stored fills in id order, by the rule the writer keeps
 * (`extendFillSpans`), then the index is dropped.
 */
import { sql, type Kysely } from "kysely";
import { FILL_ROWS } from "../fill-layout.js";
import { extendFillSpans, FILL_SPANS, type FillSpan, writeFillSpans } from "../fill-spans.js";
import { queryRows } from "../raw-sql.js";
import type { Database } from "../schema.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

/** Fills read per page while the spans are made. */
const PAGE = 100_000;

export const fillSpans: StoreMigration = {
  async up(untyped: Kysely<unknown>, kind: StoreKind) {
    const db = untyped as Kysely<Database>;
    await createFillSpansTable(db, kind);
    await writeFillSpans({ db, kind }, await spansOfStoredFills(db, kind));
    await sql.raw("drop index if exists fills_ts").execute(db);
  },
};

/** `fill_spans` as this migration makes it. */
export async function createFillSpansTable(db: Kysely<Database>, kind: StoreKind): Promise<void> {
  const int = kind === "postgres" ? "bigint" : "integer";
  await sql
    .raw(`create table ${FILL_SPANS} (
      bucket ${int} not null, first_id ${int} not null, last_id ${int} not null,
      min_ts ${int} not null, max_ts ${int} not null,
      primary key (bucket, first_id)
    )${kind === "sqlite" ? " without rowid" : ""}`)
    .execute(db);
}

async function spansOfStoredFills(db: Kysely<Database>, kind: StoreKind): Promise<FillSpan[]> {
  const latest = new Map<number, FillSpan>();
  const spans = new Set<FillSpan>();
  for (let after = 0; ; ) {
    const page = await queryRows<{ id: number; ts: number }>(
      db,
      kind,
      `select id, ts from ${FILL_ROWS} where id > ? order by id limit ${PAGE}`,
      [after],
    );
    const fills = page.map((r) => ({ id: Number(r.id), ts: Number(r.ts) }));
    for (const span of extendFillSpans(latest, fills)) spans.add(span);
    if (page.length < PAGE) return [...spans];
    after = fills[fills.length - 1]!.id;
  }
}
