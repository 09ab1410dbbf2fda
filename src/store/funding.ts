/**
 * The funding tables (migration 0037): the addresses whose incoming collateral transfers are read, the transfers,
 * and the clusters the Deriver writes. The rules are in src/ledger/funding-graph.ts; the reader is
 * src/ingest/funding-sync.ts. The transfers are stored by address ids since 0055 (src/store/funding-layout.ts): they
 * are written, counted and summed here on their rows, filtered and grouped by id, each address's text read once a
 * group (docs/decisions.md, "Funding transfers store address ids").
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { insertCompactRows } from "./compact-writer.js";
import type { Store } from "./database.js";
import { FUNDING_GENERATION, bumpDeriveState } from "./derive-state.js";
import { dictionaryValueSql } from "./dictionaries.js";
import { FILL_DICTIONARIES } from "./fill-layout.js";
import { FUNDING_TRANSFER_ROWS, FUNDING_TRANSFER_TABLE } from "./funding-layout.js";
import { walletIdsOf } from "./id-keyed.js";
import { placeholders, queryRows } from "./raw-sql.js";
import type { Database, FundingClustersTable, FundingTransfersTable } from "./schema.js";

type Db = Kysely<Database> | Transaction<Database>;

/** Rows a statement writes at once (SQLite's limit on bound values). */
const ROWS_PER_INSERT = 500;

function* slices<T>(rows: readonly T[], size = ROWS_PER_INSERT): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/**
 * Queues the wallets Pelagic has seen and not traced as a wallet (hop 0), at most `limit`; an account already
 * traced as some wallet's funder is read again as a wallet. Returns how many were queued.
 */
export async function queueSeenWallets(db: Db, limit: number): Promise<number> {
  const result = await sql`insert into funding_addresses (address, hop, traced_to_block, transfers)
    select w.address, 0, null, 0 from wallets w
    where not exists (select 1 from funding_addresses f where f.address = w.address and f.hop = 0)
    limit ${limit}
    on conflict (address) do update set hop = 0, traced_to_block = null`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export interface PendingFundingAddress {
  readonly address: string;
  readonly hop: number;
}

/** Addresses not read yet, nearest to a wallet first. */
export async function pendingFundingAddresses(db: Db, limit: number): Promise<PendingFundingAddress[]> {
  const rows = await db
    .selectFrom("funding_addresses")
    .select(["address", "hop"])
    .where("traced_to_block", "is", null)
    .orderBy("hop")
    .orderBy("address")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ address: r.address, hop: Number(r.hop) }));
}

export interface TracedFunding {
  /** The addresses read, each up to `toBlock`, with the transfers kept for it. */
  readonly traced: readonly { address: string; transfers: number }[];
  readonly toBlock: number;
  readonly transfers: readonly FundingTransfersTable[];
  /** Funders to read in turn; an address already queued nearer to a wallet keeps its place. */
  readonly funders: readonly PendingFundingAddress[];
}

/**
 * One read's result, in one transaction: nothing of it is kept unless all of it is. Idempotent: a transfer already
 * stored (by its place on chain) is not stored again.
 */
export async function saveTracedFunding(store: Store, traced: TracedFunding): Promise<void> {
  await store.transaction(async (tx) => {
    await insertCompactRows(tx, FUNDING_TRANSFER_TABLE, traced.transfers);
    for (const rows of slices(traced.funders))
      await tx.db
        .insertInto("funding_addresses")
        .values(rows.map((f) => ({ address: f.address, hop: f.hop, traced_to_block: null, transfers: 0 })))
        .onConflict((oc) =>
          oc
            .column("address")
            .doUpdateSet({ hop: sql`excluded.hop`, traced_to_block: null })
            .where("funding_addresses.hop", ">", sql<number>`excluded.hop`),
        )
        .execute();
    for (const { address, transfers } of traced.traced)
      await tx.db
        .updateTable("funding_addresses")
        .set({ traced_to_block: traced.toBlock, transfers })
        .where("address", "=", address)
        .execute();
  });
}

export interface StoredFundingEdge {
  readonly from: string;
  readonly to: string;
  readonly usd: number;
  readonly transfers: number;
  readonly firstTs: number;
}

/**
 * SQL: the address of an id, read once a group of rows grouped by their ids: joined to the groups, PostgreSQL merged
 * them with the whole address dictionary (90 ms for the 1,000,000-fill world's 5,794 edges beside a dictionary of a
 * million addresses, 17 ms this way).
 */
const addressOf = (id: string): string => dictionaryValueSql(FILL_DICTIONARIES.addresses, id, "a");

/**
 * SQL: the transfers `where` keeps, summed per sender and recipient, in the order of the texts (the order the edges
 * were read in when the table held the texts).
 */
const edgesSql = (where: string) => `select ${addressOf("g.from_id")} as "from", ${addressOf("g.to_id")} as "to",
    g.micro, g.n, g.first_ts
  from (select from_id, to_id, sum(amount_micro) as micro, count(*) as n, min(ts) as first_ts
    from ${FUNDING_TRANSFER_ROWS} ${where} group by from_id, to_id) g
  order by 1, 2`;

type EdgeRow = { from: string; to: string; micro: number | string; n: number | string; first_ts: number | string };
const toEdge = (r: EdgeRow): StoredFundingEdge => ({
  from: r.from,
  to: r.to,
  usd: Number(r.micro) / 1e6,
  transfers: Number(r.n),
  firstTs: Number(r.first_ts),
});

/** A store, or a transaction, to read with. */
type Reader = Pick<Store, "db" | "kind">;

/** The transfers into `addresses`, summed per sender and recipient; read by the recipients' ids. */
export async function fundingEdgesInto(store: Reader, addresses: readonly string[]): Promise<StoredFundingEdge[]> {
  const edges: StoredFundingEdge[] = [];
  for (const part of slices(addresses)) {
    const where = `where to_id in ${walletIdsOf(placeholders(part.length))}`;
    const rows = await queryRows<EdgeRow>(store.db, store.kind, edgesSql(where), part);
    edges.push(...rows.map(toEdge));
  }
  return edges;
}

/** Every stored transfer, summed per sender and recipient. */
export async function allFundingEdges(db: Db): Promise<StoredFundingEdge[]> {
  const rows = await sql<EdgeRow>`${sql.raw(edgesSql(""))}`.execute(db);
  return rows.rows.map(toEdge);
}

/** Per sender among `senders` that sent any, how many addresses it sent to; read by the senders' ids. */
export async function recipientCounts(store: Reader, senders: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const part of slices(senders)) {
    const rows = await queryRows<{ sender: string; n: number | string }>(
      store.db,
      store.kind,
      `select ${addressOf("g.from_id")} as sender, g.n
        from (select from_id, count(distinct to_id) as n from ${FUNDING_TRANSFER_ROWS}
          where from_id in ${walletIdsOf(placeholders(part.length))} group by from_id) g`,
      part,
    );
    for (const r of rows) counts.set(r.sender, Number(r.n));
  }
  return counts;
}

/** The traced wallets (hop 0). */
export async function tracedWallets(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("funding_addresses")
    .select("address")
    .where("hop", "=", 0)
    .where("traced_to_block", "is not", null)
    .execute();
  return rows.map((r) => r.address);
}

/** A mark that moves whenever the funding reader stores a read (what the clusters were computed from). */
export async function fundingMark(db: Db): Promise<string> {
  const row = await sql<{ transfers: number | string; traced: number | string }>`select
    (select count(*) from ${sql.raw(FUNDING_TRANSFER_ROWS)}) as transfers,
    (select count(*) from funding_addresses where traced_to_block is not null) as traced`.execute(db);
  const r = row.rows[0]!;
  return `${Number(r.transfers)}:${Number(r.traced)}`;
}

/** The clusters, rewritten whole in one transaction that bumps `funding_generation` (what kept answers are stamped with). */
export async function replaceFundingClusters(
  db: Kysely<Database>,
  rows: readonly FundingClustersTable[],
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("funding_clusters").execute();
    for (const part of slices(rows)) await tx.insertInto("funding_clusters").values(part).execute();
    await bumpDeriveState(tx, FUNDING_GENERATION);
  });
}
