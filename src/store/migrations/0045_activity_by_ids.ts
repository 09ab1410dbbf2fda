/**
 * Issue 49: wallet activity moves to its compact layout (src/store/activity-layout.ts). On the 1,000,000-fill world
 * `wallet_activity` was 23.5 bytes a fill on SQLite: about 300 bytes a row of texts (a 74-character key, a 66-character
 * hash, a 42-character address, a 66-character market) and its key again in a unique index. Now `activity_rows` holds
 * the ids, the hash as 32 bytes and the key only where it does not follow from hash and log; the view
 * `wallet_activity` reads the rows as before, ids kept. On SQLite the rows are stored by (wallet, time, id), so a
 * wallet's activity is read from adjacent pages.
 */
import { sql, type Kysely } from "kysely";
import { ACTIVITY_CODES, ACTIVITY_ROWS, activityViewSql } from "../activity-layout.js";
import { addToDictionarySql } from "../dictionaries.js";
import { FILL_DICTIONARIES, storedHashSql, textToCodeSql } from "../fill-layout.js";
import type { StoreKind, StoreMigration } from "./column-types.js";

const SQLITE_TABLE = `create table ${ACTIVITY_ROWS} (
  wallet_id integer not null, ts integer not null, id integer not null,
  key_text text, source integer not null, type integer not null,
  condition_ref integer, token_ref integer, outcome_index integer,
  size integer not null, usd integer not null, price real not null,
  tx_hash blob, tx_text text, log_index integer,
  neg_risk_market_id text, index_set text, fee integer,
  primary key (wallet_id, ts, id)
) without rowid`;

// Columns ordered by alignment (8-byte ones first): PostgreSQL pads each column to its type's boundary.
const POSTGRES_TABLE = `create table ${ACTIVITY_ROWS} (
  id bigserial primary key, ts bigint not null, size bigint not null, usd bigint not null, fee bigint,
  price double precision not null, wallet_id integer not null, condition_ref integer, token_ref integer,
  log_index integer, source smallint not null, type smallint not null, outcome_index smallint,
  tx_hash bytea, key_text text collate "C", tx_text text collate "C", neg_risk_market_id text collate "C",
  index_set text collate "C"
)`;

/** The indexes of `activity_rows`: its natural key in two halves, and (SQLite) its ids, (PostgreSQL) a wallet's rows. */
export function activityIndexesSql(kind: StoreKind): string[] {
  return [
    kind === "sqlite"
      ? `create unique index activity_rows_id on ${ACTIVITY_ROWS} (id)`
      : `create index activity_rows_wallet_ts on ${ACTIVITY_ROWS} (wallet_id, ts, id)`,
    `create unique index activity_rows_chain_key on ${ACTIVITY_ROWS} (tx_hash, log_index) where key_text is null`,
    `create unique index activity_rows_text_key on ${ACTIVITY_ROWS} (key_text) where key_text is not null`,
  ];
}

export const activityByIds: StoreMigration = {
  async up(db: Kysely<unknown>, kind: StoreKind) {
    const run = (text: string) => sql.raw(text).execute(db);
    const { addresses, conditions, tokens } = FILL_DICTIONARIES;
    await run(addToDictionarySql(addresses, "select distinct wallet as v from wallet_activity"));
    await run(addToDictionarySql(conditions, "select distinct condition_id as v from wallet_activity"));
    await run(addToDictionarySql(tokens, "select distinct token_id as v from wallet_activity"));
    await run(kind === "sqlite" ? SQLITE_TABLE : POSTGRES_TABLE);
    const hash = storedHashSql(kind, "a.tx_hash");
    const derivedKey = `'chain:' || a.tx_hash || ':' || a.log_index`;
    await run(`insert into ${ACTIVITY_ROWS} (id, wallet_id, ts, key_text, source, type, condition_ref, token_ref,
        outcome_index, size, usd, price, tx_hash, tx_text, log_index, neg_risk_market_id, index_set, fee)
      select a.id, w.id, a.ts,
        case when ${hash.bytes} is not null and a.log_index is not null and a.activity_key = ${derivedKey}
          then null else a.activity_key end,
        ${textToCodeSql(ACTIVITY_CODES, "source", "a")}, ${textToCodeSql(ACTIVITY_CODES, "type", "a")}, m.id, t.id,
        a.outcome_index, a.size, a.usd, a.price, ${hash.bytes}, ${hash.text}, a.log_index, a.neg_risk_market_id,
        a.index_set, a.fee
      from wallet_activity a
      join ${addresses.table} w on w.${addresses.column} = a.wallet
      left join ${conditions.table} m on m.${conditions.column} = a.condition_id
      left join ${tokens.table} t on t.${tokens.column} = a.token_id
      order by ${kind === "sqlite" ? "w.id, a.ts, a.id" : "a.id"}`);
    if (kind === "postgres")
      await run(`select setval(pg_get_serial_sequence('${ACTIVITY_ROWS}', 'id'),
        coalesce((select max(id) from wallet_activity), 0) + 1, false)`);
    await run("drop table wallet_activity");
    await run(activityViewSql(kind));
    for (const statement of activityIndexesSql(kind)) await run(statement);
    if (kind === "postgres") await run(`analyze ${ACTIVITY_ROWS}`);
  },
};
