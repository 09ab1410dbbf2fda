/**
 * Whose split, merge, conversion or redemption a log is. The ConditionalTokens and the NegRiskAdapter name their
 * caller (`stakeholder`, `redeemer`); when that caller is a contract acting for a wallet, the wallet is found in
 * the same transaction, from what the chain shows (docs/VENUE.md, "Operations through adapters"):
 *
 * - A collateral adapter (V2: pUSD in and out) moves the outcome tokens between itself and the wallet with the
 *   ConditionalTokens' ERC-1155 transfers, itself the `operator`. A split's tokens go out to the wallet right after
 *   the split; a merge's, a redemption's and a conversion's tokens come in from the wallet before the event. So the
 *   wallet of an adapter's split is the receiver of the first transfer out of the adapter after it, and the wallet
 *   of its merge, redemption or conversion the sender of the nearest transfer into the adapter before it, each
 *   transfer claimed by one event at most: operations batched in one transaction pair in order. A transfer to or
 *   from an exchange marks trade mechanics (an exchange's MINT or MERGE through the adapter): no wallet's operation.
 * - The NegRiskAdapter emits its own PositionSplit, PositionsMerge and PayoutRedemption naming its caller; the
 *   ConditionalTokens event under each names the NegRiskAdapter and is left out (the adapter's own is the record).
 * - An exchange as stakeholder is a trade's MINT or MERGE: left out, as the fills carry the trade.
 *
 * Pure: it runs on the reader thread with the chunk's other work.
 */
import type { DecodedVenueLog, Hex, TransferBatchEvent, TransferSingleEvent, LogPosition } from "./abi.js";
import { isCollateralAdapter, isProtocolAddress } from "../contracts.js";

export type OperationLog = Extract<
  DecodedVenueLog,
  {
    kind:
      | "PositionSplit"
      | "PositionsMerge"
      | "PayoutRedemption"
      | "PositionsConverted"
      | "NegRiskPositionSplit"
      | "NegRiskPositionsMerge"
      | "NegRiskPayoutRedemption";
  }
>;
type TransferLog = (TransferSingleEvent | TransferBatchEvent) & LogPosition;

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

export function isOperationLog(log: DecodedVenueLog): log is OperationLog {
  switch (log.kind) {
    case "PositionSplit":
    case "PositionsMerge":
    case "PayoutRedemption":
    case "PositionsConverted":
    case "NegRiskPositionSplit":
    case "NegRiskPositionsMerge":
    case "NegRiskPayoutRedemption":
      return true;
    default:
      return false;
  }
}

const isTransfer = (log: DecodedVenueLog): log is TransferLog =>
  log.kind === "TransferSingle" || log.kind === "TransferBatch";

/** The account the event names as its caller. */
export function callerOf(log: OperationLog): Hex {
  return log.kind === "PayoutRedemption" || log.kind === "NegRiskPayoutRedemption" ? log.redeemer : log.stakeholder;
}

function withCaller(log: OperationLog, wallet: Hex): OperationLog {
  return log.kind === "PayoutRedemption" || log.kind === "NegRiskPayoutRedemption"
    ? { ...log, redeemer: wallet }
    : { ...log, stakeholder: wallet };
}

/** Whether the tokens of this operation leave the adapter after the event (a split) rather than enter it before. */
const tokensGoOut = (log: OperationLog) => log.kind === "PositionSplit" || log.kind === "NegRiskPositionSplit";

export interface Attribution {
  /** In chain order: the operations as the wallets' own (each naming the wallet that made it) and the other events. */
  readonly records: DecodedVenueLog[];
  /** Adapter operations whose wallet the transaction does not show. */
  readonly unattributed: Array<{ readonly log: OperationLog; readonly reason: string }>;
}

/**
 * Attributes the operations of a chunk's non-exchange events (in chain order, as eth_getLogs returns them) and
 * drops the transfers that served to do it.
 */
export function attributeOperations(events: readonly DecodedVenueLog[]): Attribution {
  const records: DecodedVenueLog[] = [];
  const unattributed: Attribution["unattributed"] = [];
  // Transfers of each transaction, in log order; a claimed one is not used twice.
  const transfers = new Map<string, TransferLog[]>();
  for (const event of events) {
    if (!isTransfer(event)) continue;
    const list = transfers.get(event.transactionHash);
    if (list) list.push(event);
    else transfers.set(event.transactionHash, [event]);
  }
  const claimed = new Set<TransferLog>();
  for (const event of events) {
    if (isTransfer(event)) continue;
    if (!isOperationLog(event)) {
      records.push(event);
      continue;
    }
    const caller = callerOf(event);
    if (!isProtocolAddress(caller)) {
      records.push(event);
      continue;
    }
    // The NegRiskAdapter's and the exchanges' calls into the ConditionalTokens are not a wallet's operation.
    if (!isCollateralAdapter(caller)) continue;
    const transfer = pairedTransfer(event, caller, transfers.get(event.transactionHash) ?? [], claimed);
    if (!transfer) {
      unattributed.push({ log: event, reason: `no transfer of ${caller} in the transaction names the wallet` });
      continue;
    }
    claimed.add(transfer);
    const wallet = tokensGoOut(event) ? transfer.to : transfer.from;
    // A transfer with an exchange marks an exchange's MINT or MERGE made through the adapter: trade mechanics.
    if (!isProtocolAddress(wallet)) records.push(withCaller(event, wallet));
  }
  return { records, unattributed };
}

/** The adapter's transfer that carries this operation's tokens to or from the wallet (see the file's comment). */
function pairedTransfer(
  event: OperationLog,
  adapter: Hex,
  transfers: readonly TransferLog[],
  claimed: ReadonlySet<TransferLog>,
): TransferLog | undefined {
  const fits = (t: TransferLog) => !claimed.has(t) && t.operator === adapter;
  if (tokensGoOut(event))
    return transfers.find(
      (t) => fits(t) && t.logIndex > event.logIndex && t.from === adapter && t.to !== adapter && t.to !== ZERO_ADDRESS,
    );
  return transfers.findLast(
    (t) => fits(t) && t.logIndex < event.logIndex && t.to === adapter && t.from !== adapter && t.from !== ZERO_ADDRESS,
  );
}
