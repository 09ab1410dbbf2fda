/**
 * Schemas of the scorecard routes (issue 52). The contract does not show them; the decision:
 * docs/decisions.md, "A public scorecard in a hash chain".
 */
import { Type } from "typebox";
import { Nullable } from "../../nullable.js";
import { Limit } from "../../params.js";

const Ratio = (description: string) => Nullable(Type.Number(), description);

const Chain = Type.Object({
  records: Type.Integer({ description: "records checked, in chain order, up to the first that does not fit" }),
  head_seq: Nullable(Type.Integer(), "the last record's number"),
  head_hash: Nullable(Type.String(), "the last record's hash (SHA-256, hex): publish it to pin the ledger"),
  verified: Type.Boolean({ description: "every record links to the one before and hashes to its own hash" }),
  broken_seq: Nullable(Type.Integer(), "the first record that does not fit"),
  broken_reason: Nullable(Type.String()),
});

const Row = Type.Object({
  kind: Type.String({ description: "insider_alert, whale_alert, consensus or whale_flip" }),
  month: Type.String({ description: "YYYY-MM of emission (UTC), or all" }),
  signals: Type.Integer(),
  graded: Type.Integer({ description: "signals whose market has resolved" }),
  hits: Type.Integer({ description: "graded signals whose backed outcome won" }),
  hit_rate: Ratio("hits ÷ graded (0..1)"),
  hit_rate_low: Ratio("its 95% Wilson interval, low end"),
  hit_rate_high: Ratio("its 95% Wilson interval, high end"),
  followed: Type.Integer({ description: "graded signals with a trade after them to follow at" }),
  mean_return: Ratio("mean return of following at that trade's price with the taker fee, held to the payout"),
  mean_return_low: Ratio("its 95% interval, low end (mean − 1.96 s/√n)"),
  mean_return_high: Ratio("its 95% interval, high end"),
});

export const ScorecardBody = Type.Object({
  chain: Chain,
  rows: Type.Array(Row, { description: "per kind and month, then per kind over all months (month all)" }),
  as_of: Type.Integer(),
});

export const SignalsQuery = Type.Object({
  after_seq: Type.Integer({ minimum: 0, default: 0, description: "signals after this record number" }),
  kind: Type.String({ default: "", maxLength: 40, description: "one kind; empty: every kind" }),
  limit: Limit({ default: 100, max: 1_000 }),
});

export const SignalsBody = Type.Object({
  has_more: Type.Boolean(),
  signals: Type.Array(
    Type.Object({
      seq: Type.Integer(),
      kind: Type.String(),
      emitted_at: Type.Integer(),
      condition_id: Type.String(),
      outcome: Type.Union([Type.Literal("YES"), Type.Literal("NO")], { description: "the outcome it backs" }),
      wallet: Nullable(Type.String()),
      ref: Type.String({ description: "what it is about (recorded once)" }),
      detail: Type.String({ description: "JSON: its figures when emitted, as hashed" }),
      prev_hash: Type.String(),
      hash: Type.String(),
      payout: Ratio("the backed outcome's payout once resolved"),
      entry_price: Ratio("the first trade's price on the backed outcome after it"),
      follow_return: Ratio("the return of following it there, with the taker fee, once resolved"),
    }),
  ),
});
