import type { ColumnDataType, ColumnDefinitionBuilder, Expression, Kysely } from "kysely";
import { sql } from "kysely";

export type StoreKind = "sqlite" | "postgres";

/** Column types that differ between the two dialects, named by what they hold. */
export interface ColumnTypes {
  /** 64-bit integer: timestamps, micro-unit amounts, counts. */
  int: ColumnDataType;
  /** double precision: prices, ratios, USD figures derived from micro-units. */
  real: ColumnDataType;
  /** Compared byte by byte on both stores (PostgreSQL: `COLLATE "C"`, see 0007_byte_order_text). */
  text: ColumnDataType | Expression<unknown>;
  /** Auto-incrementing 64-bit primary key. */
  serial: ColumnDataType | Expression<unknown>;
}

export function columnTypes(kind: StoreKind): ColumnTypes {
  return kind === "postgres"
    ? { int: "bigint", real: "double precision", text: sql`text collate "C"`, serial: sql`bigserial` }
    : { int: "integer", real: "real", text: "text", serial: "integer" };
}

/** The constraint of an auto-incrementing primary key column (`.addColumn("id", t.serial, serialKey(kind))`). */
export function serialKey(kind: StoreKind): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return kind === "sqlite" ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey();
}

/** What a migration that carries secrets over needs besides the database: the webhook key's box (opened on first use). */
export interface MigrationContext {
  readonly openSecrets?: () => { open(sealed: string): string; seal(secret: string): string };
}

/** A migration receives the database, the dialect it runs on, and the context of the process that migrates. */
export interface StoreMigration {
  up(db: Kysely<unknown>, kind: StoreKind, context?: MigrationContext): Promise<void>;
}
