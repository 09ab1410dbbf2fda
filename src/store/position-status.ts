/**
 * A position's status as `position_rows` stores it since migration 0060 (issue 49): a code (closed 0, open 1:
 * `POSITION_STATUS_CODES`, src/store/coded-columns.ts), which the view `positions` reads back as the text it was.
 * Both of the positions' indexes hold the status after the market or the wallet (`positions_condition_holders`,
 * `positions_wallet_closed`), and the view's text is computed from the code: a filter on the text reaches neither
 * index on either store (SQLite's plan searched a market's holders by its id alone, a wallet's closed positions by
 * its id, then sorted them). So every read that filters on the status reads the positions as the view does, with the
 * code beside (`positionsWithStatusCode`, `positionsWithStatusCodeSql`, as `status_code`), and filters on the code:
 * one range of an index, as before. Decision: docs/decisions.md, "Positions code their status".
 */
import { sql } from "kysely";
import { textPerStore } from "./fill-layout.js";
import { ID_KEYED, idKeyedSelectSql } from "./id-keyed.js";
import type { StoreKind } from "./migrations/column-types.js";
import type { PositionsTable } from "./schema.js";

const STATUS = ID_KEYED.positions.codes.status;

/** Each status's stored code: a literal in a statement's text, or a parameter. */
export const POSITION_STATUS_CODE: Readonly<Record<PositionsTable["status"], number>> = {
  closed: STATUS.stored("closed")!,
  open: STATUS.stored("open")!,
};

const WITH_STATUS_CODE = textPerStore((kind) => `(${idKeyedSelectSql("positions", kind, ["status"])})`);

/** SQL: the positions as the view reads them, with `status_code` (a subquery, for a FROM: give it an alias). */
export const positionsWithStatusCodeSql = (kind: StoreKind): string => WITH_STATUS_CODE[kind];

/** The positions as the view reads them, with `status_code`, as `p`: what a Kysely read filtering on the status selects from. */
export function positionsWithStatusCode(kind: StoreKind) {
  return sql<PositionsTable & { status_code: number }>`${sql.raw(positionsWithStatusCodeSql(kind))}`.as("p");
}
