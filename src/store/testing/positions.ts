/**
 * Test support: a change to stored positions written as the tests that stage one need it. The positions are a view
 * over their rows by ids (migration 0041, src/store/id-keyed.ts); this turns `update positions set <set> where <where>`
 * (the view's columns in `where`, the rows' plain columns in `set`, a status as its code: `POSITION_STATUS_CODE`)
 * into the statement on the rows.
 */
import { ID_COLUMNS, ID_KEYED } from "../id-keyed.js";

export function updatePositionsSql(set: string, where: string): string {
  const id = (column: "wallet" | "token_id") => {
    const { table, column: text } = ID_COLUMNS[column]!.dictionary;
    return `(select id from ${table} where ${text} = p.${column})`;
  };
  return `update ${ID_KEYED.positions.rows} set ${set} where (wallet_id, token_ref) in
    (select ${id("wallet")}, ${id("token_id")} from positions p where ${where})`;
}
