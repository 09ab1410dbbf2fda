/**
 * The compact layout of the funding reader's collateral transfers (issue 49, migration 0055), by the rules of fills
 * (src/store/fill-layout.ts) and wallet activity (src/store/activity-layout.ts). `funding_transfer_rows` holds a
 * transfer with:
 * - its token, sender and recipient as ids of the address dictionary (`address_ids`): the recipients are mostly the
 *   wallets the fills already named there, and a funder that trades is one address in both;
 * - its transaction hash as 32 bytes (`tx_hash`), or, for a hash not written as `0x` and 64 lower-case hex digits, as
 *   its text (`tx_text`), so that every stored text reads back exactly;
 * - its place on chain (block, log index) as its key: on SQLite the rows are their key's b-tree (WITHOUT ROWID).
 * The view `funding_transfers` gives readers the rows as they always were, text for text. The store's reads of the
 * transfers (src/store/funding.ts) filter the rows by the addresses' ids (`walletIdsOf` of src/store/id-keyed.ts) and
 * group them by id; the writer (`saveTracedFunding`, there too) writes them through src/store/compact-writer.ts.
 * Decision: docs/decisions.md, "Funding transfers store address ids".
 */
import type { CompactTable } from "./compact-writer.js";
import { FILL_DICTIONARIES, hashText, storedHash } from "./fill-layout.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { FundingTransfersTable } from "./schema.js";

export const FUNDING_TRANSFER_ROWS = "funding_transfer_rows";

const { addresses } = FILL_DICTIONARIES;

/** Each address column of the view, and the id column that stores it. */
export const FUNDING_ADDRESS_IDS = {
  token: "token_address_id",
  from_address: "from_id",
  to_address: "to_id",
} as const;

/** The rows table (migration 0055 creates it from here: a change to it is a new migration). */
export function fundingTransferRowsSql(kind: StoreKind): string {
  // PostgreSQL: columns ordered by alignment (8-byte ones first); a block number and a log index fit 4 bytes, as
  // `fill_rows.block_number` does since 0048.
  return kind === "sqlite"
    ? `create table ${FUNDING_TRANSFER_ROWS} (
      block_number integer not null, log_index integer not null, ts integer not null, amount_micro integer not null,
      token_address_id integer not null, from_id integer not null, to_id integer not null, tx_hash blob, tx_text text,
      primary key (block_number, log_index)
    ) without rowid`
    : `create table ${FUNDING_TRANSFER_ROWS} (
      ts bigint not null, amount_micro bigint not null, block_number integer not null, log_index integer not null,
      token_address_id integer not null, from_id integer not null, to_id integer not null, tx_hash bytea,
      tx_text text collate "C",
      primary key (block_number, log_index)
    )`;
}

/**
 * The reads' indexes: a recipient's transfers (`fundingEdgesInto`), and a sender's recipients, which the count of a
 * sender's recipients (`recipientCounts`, the busy accounts of a wallet's funding page) reads from the index alone.
 */
export const FUNDING_TRANSFER_INDEXES = [
  `create index funding_transfers_to on ${FUNDING_TRANSFER_ROWS} (to_id)`,
  `create index funding_transfers_from on ${FUNDING_TRANSFER_ROWS} (from_id, to_id)`,
];

/** The view `funding_transfers` over the rows as `r` (migration 0055 creates it from here). */
export function fundingTransfersViewSql(kind: StoreKind): string {
  const text = kind === "postgres" ? ' collate "C"' : "";
  // PostgreSQL stores the block and log as 4-byte integers; the view gives them as the table did.
  const wide = (column: string) => (kind === "postgres" ? `r.${column}::bigint` : `r.${column}`);
  return `create view funding_transfers as select
    ${wide("block_number")} as block_number, ${wide("log_index")} as log_index,
    (${hashText(kind, "r.tx_hash", "r.tx_text")})${text} as tx_hash, r.ts as ts,
    t.${addresses.column} as token, f.${addresses.column} as from_address, d.${addresses.column} as to_address,
    r.amount_micro as amount_micro
  from ${FUNDING_TRANSFER_ROWS} r
  left join ${addresses.table} t on t.id = r.${FUNDING_ADDRESS_IDS.token}
  left join ${addresses.table} f on f.id = r.${FUNDING_ADDRESS_IDS.from_address}
  left join ${addresses.table} d on d.id = r.${FUNDING_ADDRESS_IDS.to_address}`;
}

const STAGING = `${FUNDING_TRANSFER_ROWS}_staged`;

/** How the compact writer stores a transfer: idempotent by its place on chain. */
export const FUNDING_TRANSFER_TABLE: CompactTable<FundingTransfersTable> = {
  table: FUNDING_TRANSFER_ROWS,
  stored: ["block_number", "log_index", "ts", "amount_micro", "tx_hash", "tx_text"],
  refs: Object.entries(FUNDING_ADDRESS_IDS).map(([text, id]) => ({ id, text, dictionary: addresses })),
  compact: (transfer) => {
    const hash = storedHash(transfer.tx_hash);
    return {
      block_number: transfer.block_number,
      log_index: transfer.log_index,
      ts: transfer.ts,
      amount_micro: transfer.amount_micro,
      tx_hash: hash.bytes,
      tx_text: hash.text,
      token: transfer.token,
      from_address: transfer.from_address,
      to_address: transfer.to_address,
      token_address_id: null,
      from_id: null,
      to_id: null,
    };
  },
  key: (transfer) => `${transfer.block_number}:${transfer.log_index}`,
  keySql: `${FUNDING_TRANSFER_ROWS}.block_number || ':' || ${FUNDING_TRANSFER_ROWS}.log_index`,
  idSql: "null",
  staging: {
    name: STAGING,
    definition: `create temp table if not exists ${STAGING} (
      ord bigint generated always as identity,
      block_number integer, log_index integer, ts bigint, amount_micro bigint, tx_hash bytea, tx_text text collate "C",
      token text collate "C", from_address text collate "C", to_address text collate "C"
    ) on commit delete rows`,
  },
};
