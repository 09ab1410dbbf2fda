/**
 * The signal ledger (migration 0039): an append-only hash chain of the signals Pelagic emitted. A record's hash is
 * the SHA-256 of its previous record's hash and its own fields, written in one fixed order; the first record's
 * previous hash is GENESIS. Changing, dropping or reordering any record changes a hash that every later record
 * depends on, so `verifySignalChain` finds the first record that no longer fits.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { PelagicError } from "../errors/index.js";
import type { Database, SignalLedgerTable } from "./schema.js";

export const GENESIS = "0".repeat(64);

export type NewSignal = Omit<SignalLedgerTable, "seq" | "prev_hash" | "hash">;

/** The hash of a record, from the previous record's hash and its fields. */
export function signalHash(record: Omit<SignalLedgerTable, "hash">): string {
  const fields = [
    record.seq,
    record.kind,
    record.emitted_at,
    record.condition_id,
    record.outcome_index,
    record.wallet,
    record.ref,
    record.detail,
  ];
  return createHash("sha256").update(record.prev_hash).update(JSON.stringify(fields)).digest("hex");
}

/**
 * Appends the signals not recorded yet (a `ref` already in the ledger is skipped), in order, in the caller's
 * transaction; returns how many were appended. One writer: the Deriver of the process that ingests.
 */
export async function appendSignals(db: Kysely<Database>, signals: readonly NewSignal[]): Promise<number> {
  if (signals.length === 0) return 0;
  const last = await db
    .selectFrom("signal_ledger")
    .select(["seq", "hash"])
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  let seq = last ? Number(last.seq) : 0;
  let prev = last?.hash ?? GENESIS;
  let appended = 0;
  const known = new Set<string>();
  for (let i = 0; i < signals.length; i += 500) {
    const refs = signals.slice(i, i + 500).map((s) => s.ref);
    for (const r of await db.selectFrom("signal_ledger").select("ref").where("ref", "in", refs).execute())
      known.add(r.ref);
  }
  for (const signal of signals) {
    if (known.has(signal.ref)) continue;
    known.add(signal.ref);
    const record = { ...signal, seq: ++seq, prev_hash: prev };
    const hash = signalHash(record);
    await db
      .insertInto("signal_ledger")
      .values({ ...record, hash })
      .execute();
    prev = hash;
    appended++;
  }
  return appended;
}

export interface ChainCheck {
  readonly records: number;
  /** The last record's seq and hash (the chain's head), or null when empty. */
  readonly head: { readonly seq: number; readonly hash: string } | null;
  /** The first record that does not fit the chain, and why; null when the chain holds. */
  readonly broken: { readonly seq: number; readonly reason: string } | null;
}

/** Reads the whole ledger in seq order and checks every link and hash. */
export async function verifySignalChain(db: Kysely<Database>): Promise<ChainCheck> {
  let prev = GENESIS;
  let expectedSeq = 1;
  let records = 0;
  let head: ChainCheck["head"] = null;
  for (let after = 0; ; ) {
    const page = await db
      .selectFrom("signal_ledger")
      .selectAll()
      .where("seq", ">", after)
      .orderBy("seq")
      .limit(5_000)
      .execute();
    if (page.length === 0) break;
    for (const row of page) {
      const record = {
        ...row,
        seq: Number(row.seq),
        emitted_at: Number(row.emitted_at),
        outcome_index: Number(row.outcome_index),
      };
      const broken = (reason: string) => ({ records, head, broken: { seq: record.seq, reason } });
      if (record.seq !== expectedSeq) return broken(`record ${expectedSeq} is missing`);
      if (record.prev_hash !== prev) return broken("its previous hash is not the previous record's hash");
      if (signalHash(record) !== record.hash) return broken("its hash does not match its fields");
      prev = record.hash;
      expectedSeq++;
      records++;
      head = { seq: record.seq, hash: record.hash };
    }
    after = Number(page.at(-1)!.seq);
  }
  return { records, head, broken: null };
}

export class SignalChainBroken extends PelagicError {
  constructor(readonly check: ChainCheck) {
    super(
      "SIGNAL_CHAIN_BROKEN",
      `the signal ledger does not hold from record ${check.broken?.seq}: ${check.broken?.reason} (${check.records} records before it hold)`,
    );
  }
}
