/**
 * Whose operation a log is, when a contract acts for the wallet: the collateral adapters' operations go to the
 * wallet on the other side of the adapter's transfer (batched operations pair in order), trade mechanics and the
 * ConditionalTokens events under the NegRiskAdapter's own go nowhere, and a wallet's direct call stays its own.
 */
import { describe, expect, it } from "vitest";
import { CONTRACTS } from "../contracts.js";
import type { DecodedVenueLog, Hex } from "./abi.js";
import { attributeOperations } from "./attribution.js";

const lower = (a: string) => a.toLowerCase() as Hex;
const CTF = lower(CONTRACTS.conditionalTokens);
const NRA = lower(CONTRACTS.negRiskAdapter);
const CA = lower(CONTRACTS.ctfCollateralAdapter);
const NCA = lower(CONTRACTS.negRiskCtfCollateralAdapter2);
const EXCHANGE = lower(CONTRACTS.ctfExchangeV2);
const ZERO = `0x${"0".repeat(40)}` as Hex;
const ALICE = `0x${"a1".repeat(20)}` as Hex;
const BOB = `0x${"b2".repeat(20)}` as Hex;
const COND = `0x${"c3".repeat(32)}` as Hex;
const ZERO32 = `0x${"0".repeat(64)}` as Hex;

let nextIndex = 0;
const at = (tx: string) => ({
  blockNumber: 1,
  blockHash: null,
  transactionHash: `0x${tx.repeat(64).slice(0, 64)}` as Hex,
  logIndex: nextIndex++,
});

const split = (tx: string, stakeholder: Hex, amount = 5n): DecodedVenueLog => ({
  kind: "PositionSplit",
  address: CTF,
  stakeholder,
  collateralToken: lower(CONTRACTS.usdcE),
  parentCollectionId: ZERO32,
  conditionId: COND,
  partition: [1n, 2n],
  amount,
  ...at(tx),
});
const merge = (tx: string, stakeholder: Hex, amount = 5n): DecodedVenueLog => ({
  ...(split(tx, stakeholder, amount) as Extract<DecodedVenueLog, { kind: "PositionSplit" }>),
  kind: "PositionsMerge",
});
const redemption = (tx: string, redeemer: Hex): DecodedVenueLog => ({
  kind: "NegRiskPayoutRedemption",
  address: NRA,
  redeemer,
  conditionId: COND,
  amounts: [3n, 0n],
  payout: 3n,
  ...at(tx),
});
const transfer = (tx: string, operator: Hex, from: Hex, to: Hex): DecodedVenueLog => ({
  kind: "TransferBatch",
  address: CTF,
  operator,
  from,
  to,
  ids: [1n, 2n],
  values: [5n, 5n],
  ...at(tx),
});
const wallets = (records: readonly DecodedVenueLog[]) =>
  records.map((r) => [r.kind, "redeemer" in r ? r.redeemer : "stakeholder" in r ? r.stakeholder : null]);

describe("attributing operations", () => {
  it("gives an adapter's split, merge and redemption to the wallet its transfer names, and drops the transfers", () => {
    const { records, unattributed } = attributeOperations([
      transfer("1", CA, ZERO, CA),
      split("1", CA),
      transfer("1", CA, CA, ALICE),
      transfer("2", CA, BOB, CA),
      transfer("2", CA, CA, ZERO),
      merge("2", CA),
      transfer("3", NCA, ALICE, NCA),
      redemption("3", NCA),
    ]);
    expect(unattributed).toEqual([]);
    expect(wallets(records)).toEqual([
      ["PositionSplit", ALICE],
      ["PositionsMerge", BOB],
      ["NegRiskPayoutRedemption", ALICE],
    ]);
  });

  it("pairs operations batched in one transaction in order, for different wallets", () => {
    const { records } = attributeOperations([
      split("4", CA, 1n),
      transfer("4", CA, CA, ALICE),
      transfer("4", CA, BOB, CA),
      merge("4", CA, 2n),
      split("4", CA, 3n),
      transfer("4", CA, CA, BOB),
      transfer("4", CA, ALICE, CA),
      merge("4", CA, 4n),
    ]);
    expect(records.map((r) => ["amount" in r ? r.amount : null, ...wallets([r])[0]!])).toEqual([
      [1n, "PositionSplit", ALICE],
      [2n, "PositionsMerge", BOB],
      [3n, "PositionSplit", BOB],
      [4n, "PositionsMerge", ALICE],
    ]);
  });

  it("leaves out an exchange's MINT and MERGE through an adapter, and what names the NegRiskAdapter or an exchange", () => {
    const { records, unattributed } = attributeOperations([
      split("5", CA),
      transfer("5", CA, CA, EXCHANGE),
      transfer("6", CA, EXCHANGE, CA),
      merge("6", CA),
      split("7", NRA),
      split("8", EXCHANGE),
    ]);
    expect(records).toEqual([]);
    expect(unattributed).toEqual([]);
  });

  it("keeps a wallet's own call as it is, and reports an adapter's operation whose wallet the transaction does not show", () => {
    const own = split("9", ALICE);
    const lonely = merge("a", CA);
    // A transfer of another adapter, or one that comes after the merge, does not name the merge's wallet.
    const { records, unattributed } = attributeOperations([
      own,
      transfer("a", NCA, BOB, NCA),
      lonely,
      transfer("a", CA, BOB, CA),
    ]);
    expect(records).toEqual([own]);
    expect(unattributed.map((u) => u.log)).toEqual([lonely]);
  });
});
