/**
 * `chain-funding`: where the wallets' collateral came from (issue 52). Each wallet Pelagic sees is queued once; a
 * step reads the incoming transfers of the collateral tokens (USDC.e, pUSD: their ERC-20 `Transfer` logs, the
 * recipients as topic alternatives) of up to `FUNDING_ADDRESSES_PER_QUERY` queued addresses, from
 * `FUNDING_START_BLOCK` to the head less `INGEST_CONFIRMATIONS`, keeps the earliest `FUNDING_MAX_TRANSFERS` of each,
 * and queues their senders one hop further, up to `FUNDING_HOPS` - 1 hops (a sender at the last hop is stored as a
 * funder and not read). Hubs are not read; the venue's contracts (trade and redemption payouts) are not funders.
 * The transfers and the addresses' progress are written in one transaction: a step stopped anywhere is read again.
 */
import type { Config } from "../config/index.js";
import {
  COLLATERAL_BY_VERSION,
  ERC20_TRANSFER_TOPIC,
  addressTopic,
  fundingHubs,
  isFundingSender,
  type ChainClient,
} from "../venue/index.js";
import type { RpcLog } from "../venue/shapes/json-rpc.js";
import {
  pendingFundingAddresses,
  queueSeenWallets,
  saveTracedFunding,
  type PendingFundingAddress,
} from "../store/funding.js";
import type { FundingTransfersTable } from "../store/schema.js";
import type { IngestContext } from "./context.js";
import type { Pipeline, StepResult } from "./runner.js";
import { SOURCES } from "./sources.js";

/** Wallets queued per step: the queue fills while the reads run. */
const QUEUE_PER_STEP = 10_000;

export interface FundingSyncOptions {
  readonly hops: number;
  readonly addressesPerQuery: number;
  readonly maxTransfers: number;
  readonly startBlock: number;
  readonly confirmations: number;
}

export function fundingSyncOptions(config: Config): FundingSyncOptions {
  const { hops, addressesPerQuery, maxTransfers, startBlock } = config.funding;
  return { hops, addressesPerQuery, maxTransfers, startBlock, confirmations: config.ingest.confirmations };
}

const TOKENS = Object.values(COLLATERAL_BY_VERSION).map((a) => a.toLowerCase());

/** A collateral `Transfer` log as a row, or null when it is not one (a wrong topic count, another token). */
export function transferRow(log: RpcLog, ts: number): FundingTransfersTable | null {
  const [topic0, from, to] = log.topics;
  if (topic0?.toLowerCase() !== ERC20_TRANSFER_TOPIC || !from || !to || log.topics.length !== 3) return null;
  const token = log.address.toLowerCase();
  if (!TOKENS.includes(token)) return null;
  const amount = Number(BigInt(log.data === "0x" ? "0" : log.data));
  return {
    block_number: Number(BigInt(log.blockNumber)),
    log_index: Number(BigInt(log.logIndex)),
    tx_hash: log.transactionHash.toLowerCase(),
    ts,
    token,
    from_address: `0x${from.slice(26).toLowerCase()}`,
    to_address: `0x${to.slice(26).toLowerCase()}`,
    amount_micro: amount,
  };
}

export class FundingSync implements Pipeline {
  readonly source = SOURCES.funding;
  private readonly hubs: ReadonlySet<string>;

  constructor(
    private readonly ctx: IngestContext,
    private readonly chain: ChainClient,
    private readonly options: FundingSyncOptions,
    extraHubs: Config["funding"]["extraHubs"],
  ) {
    this.hubs = new Set(fundingHubs(extraHubs).keys());
  }

  async step(signal: AbortSignal): Promise<StepResult> {
    const db = this.ctx.store.db;
    await queueSeenWallets(db, QUEUE_PER_STEP);
    const pending = await pendingFundingAddresses(db, this.options.addressesPerQuery);
    if (pending.length === 0) return { caughtUp: true };
    const toBlock = Math.max(0, (await this.chain.blockNumber(signal)) - this.options.confirmations);
    const { logs, rejected } = await this.chain.getLogs(
      {
        address: TOKENS,
        topics: [ERC20_TRANSFER_TOPIC, null, pending.map((p) => addressTopic(p.address))],
        fromBlock: Math.min(this.options.startBlock, toBlock),
        toBlock,
      },
      signal,
    );
    if (rejected.length > 0)
      this.ctx.logger.warn({ source: this.source, rejected: rejected.length }, "malformed transfer logs skipped");
    const blocks = [...new Set(logs.map((l) => Number(BigInt(l.blockNumber))))];
    const times = await this.chain.blockTimestamps(blocks, signal);
    await saveTracedFunding(this.ctx.store, { ...this.kept(pending, logs, times), toBlock });
    return { caughtUp: false };
  }

  /** Per address read, its earliest transfers from funders; the senders to read next. */
  private kept(pending: readonly PendingFundingAddress[], logs: readonly RpcLog[], times: Map<number, number>) {
    const hopOf = new Map(pending.map((p) => [p.address, p.hop]));
    const byRecipient = new Map<string, FundingTransfersTable[]>();
    for (const log of logs) {
      const row = transferRow(log, times.get(Number(BigInt(log.blockNumber))) ?? 0);
      if (!row || !hopOf.has(row.to_address) || !isFundingSender(row.from_address)) continue;
      const list = byRecipient.get(row.to_address) ?? [];
      list.push(row);
      byRecipient.set(row.to_address, list);
    }
    const transfers: FundingTransfersTable[] = [];
    const funders = new Map<string, number>();
    for (const [to, rows] of byRecipient) {
      rows.sort((a, b) => a.block_number - b.block_number || a.log_index - b.log_index);
      const keep = rows.slice(0, this.options.maxTransfers);
      transfers.push(...keep);
      const hop = hopOf.get(to)! + 1;
      if (hop >= this.options.hops) continue;
      for (const { from_address: from } of keep)
        if (!this.hubs.has(from) && !hopOf.has(from)) funders.set(from, Math.min(hop, funders.get(from) ?? hop));
    }
    return {
      traced: pending.map((p) => ({
        address: p.address,
        transfers: Math.min(byRecipient.get(p.address)?.length ?? 0, this.options.maxTransfers),
      })),
      transfers,
      funders: [...funders].map(([address, hop]) => ({ address, hop })),
    };
  }
}
