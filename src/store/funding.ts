/**
 * The funding tables (migration 0037): the addresses whose incoming collateral transfers are read, the transfers,
 * and the clusters the Deriver writes. The rules are in src/ledger/funding-graph.ts; the reader is
 * src/ingest/funding-sync.ts.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { FUNDING_GENERATION, bumpDeriveState } from "./derive-state.js";
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

/** One read's result, in one transaction: nothing of it is kept unless all of it is. Idempotent. */
export async function saveTracedFunding(db: Kysely<Database>, traced: TracedFunding): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (const rows of slices(traced.transfers))
      await tx
        .insertInto("funding_transfers")
        .values(rows)
        .onConflict((oc) => oc.columns(["block_number", "log_index"]).doNothing())
        .execute();
    for (const rows of slices(traced.funders))
      await tx
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
      await tx
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

const edgeColumns = sql`from_address as "from", to_address as "to", sum(amount_micro) as micro,
  count(*) as n, min(ts) as first_ts`;

type EdgeRow = { from: string; to: string; micro: number | string; n: number | string; first_ts: number | string };
const toEdge = (r: EdgeRow): StoredFundingEdge => ({
  from: r.from,
  to: r.to,
  usd: Number(r.micro) / 1e6,
  transfers: Number(r.n),
  firstTs: Number(r.first_ts),
});

/** The transfers into `addresses`, summed per sender and recipient. */
export async function fundingEdgesInto(db: Db, addresses: readonly string[]): Promise<StoredFundingEdge[]> {
  const edges: StoredFundingEdge[] = [];
  for (const part of slices(addresses)) {
    const rows = await sql<EdgeRow>`select ${edgeColumns} from funding_transfers
      where to_address in (${sql.join(part)}) group by from_address, to_address`.execute(db);
    edges.push(...rows.rows.map(toEdge));
  }
  return edges;
}

/** Every stored transfer, summed per sender and recipient. */
export async function allFundingEdges(db: Db): Promise<StoredFundingEdge[]> {
  const rows =
    await sql<EdgeRow>`select ${edgeColumns} from funding_transfers group by from_address, to_address`.execute(db);
  return rows.rows.map(toEdge);
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
    (select count(*) from funding_transfers) as transfers,
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
