/**
 * Issue 49: the funding reader's collateral transfers move to their compact layout (src/store/funding-layout.ts). On
 * the 1,000,000-fill world `funding_transfers` and its indexes were 4.2 bytes a fill on SQLite: 11,663 rows of 223
 * bytes (a 66-character transaction hash, the token, sender and recipient as 42-character texts), 2.61 bytes a fill,
 * the recipient's and the sender's indexes 0.70 each, the key's 0.18. Now `funding_transfer_rows` holds the three
 * addresses as ids of the address dictionary (`address_ids`, the values it lacked added), the hash as 32 bytes
 * (its text where not canonical), keyed by block and log (SQLite: WITHOUT ROWID, so no index of the key beside the
 * rows), and the two indexes hold the ids; the view `funding_transfers` reads the rows as before.
 */
import { sql, type Kysely } from "kysely";
import { addToDictionarySql } from "../dictionaries.js";
import { FILL_DICTIONARIES, storedHashSql } from "../fill-layout.js";
import {
  FUNDING_ADDRESS_IDS,
  FUNDING_TRANSFER_INDEXES,
  FUNDING_TRANSFER_ROWS,
  fundingTransferRowsSql,
  fundingTransfersViewSql,
} from "../funding-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

export const fundingByIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    const { addresses } = FILL_DICTIONARIES;
    const columns = Object.keys(FUNDING_ADDRESS_IDS);
    await run(
      addToDictionarySql(
        addresses,
        columns.map((column) => `select ${column} as v from funding_transfers`).join(" union "),
      ),
    );
    await run(fundingTransferRowsSql(kind));
    const hash = storedHashSql(kind, "o.tx_hash");
    const joins = columns.map(
      (column, i) => `join ${addresses.table} d${i} on d${i}.${addresses.column} = o.${column}`,
    );
    await run(`insert into ${FUNDING_TRANSFER_ROWS} (block_number, log_index, ts, amount_micro,
        ${Object.values(FUNDING_ADDRESS_IDS).join(", ")}, tx_hash, tx_text)
      select o.block_number, o.log_index, o.ts, o.amount_micro, ${columns.map((_, i) => `d${i}.id`).join(", ")},
        ${hash.bytes}, ${hash.text}
      from funding_transfers o ${joins.join(" ")}
      order by o.block_number, o.log_index`);
    await run("drop table funding_transfers");
    await run(fundingTransfersViewSql(kind));
    for (const statement of FUNDING_TRANSFER_INDEXES) await run(statement);
    if (kind === "postgres") await run(`analyze ${FUNDING_TRANSFER_ROWS}`);
  },
};
