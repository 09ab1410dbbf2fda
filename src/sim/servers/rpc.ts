/**
 * Polygon JSON-RPC over the world (single calls and batches): eth_chainId, net_version, eth_blockNumber (the
 * block of the venue's clock), eth_getBlockByNumber (2 s blocks, hashes derived from the number), and
 * eth_getLogs with address and topic filters over a block range: the venue's events (chain-logs.ts) and the
 * collateral tokens' funding transfers (funding-logs.ts), each source read only when the filter can match it, a
 * transfer filter on the recipient through the recipient index. A range whose answer would exceed
 * `maxLogs` is refused the way providers refuse it, so clients halve the range. eth_call answers two views:
 * `NegRiskAdapter.getFeeBips(marketId)` (0 for a market the adapter does not know, as its mapping would) and a
 * proxy wallet's `Safe.getOwners()` (its signer; "0x" for an address without code); any other call reverts.
 */
import {
  ERC20_TRANSFER_TOPIC,
  encodeVenueLog,
  VENUE_EVENT_TOPICS,
  type EncodedLog,
  type VenueEvent,
} from "../../venue/chain/abi.js";
import { encodeLogWords } from "../../venue/chain/words.js";
import { CONTRACTS, NEG_RISK_GET_FEE_BIPS_SELECTOR, POLYGON_CHAIN_ID } from "../../venue/contracts.js";
import { SAFE_GET_OWNERS_SELECTOR } from "../../venue/safe-owners.js";
import { COLLATERAL_TOKENS, blockAt, blockTimestamp, type World } from "../world/index.js";
import { blockHash, logsInBlocks, type SimLog } from "./chain-logs.js";
import { transferLogsInBlocks, type SimTransferLog } from "./funding-logs.js";
import { SimErrorReply, json, type RouteHandler, type SimReply } from "./http.js";
import type { VenueState } from "./venue-state.js";

export const DEFAULT_MAX_LOGS = 10_000;
/** How far behind the head the `safe` and `finalized` tags sit. */
const SAFE_DEPTH = 16;
const FINALIZED_DEPTH = 64;

const hex = (n: number | bigint) => `0x${n.toString(16)}`;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface RpcCall {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export interface RpcOptions {
  maxLogs?: number;
  /**
   * Exchanges that emit from another address: a next exchange generation the reader does not know yet (lower-case
   * address → the address its logs come from; tests of VENUE_EXTRA_EXCHANGES).
   */
  exchangeAddresses?: Readonly<Record<string, string>>;
}

export function rpcHandler(state: VenueState, options: RpcOptions = {}): RouteHandler {
  const maxLogs = options.maxLogs ?? DEFAULT_MAX_LOGS;
  const moved = new Map(Object.entries(options.exchangeAddresses ?? {}).map(([from, to]) => [from, to.toLowerCase()]));
  return (request): SimReply => {
    if (request.path !== "" && request.path !== "/") throw new SimErrorReply(404, { error: "not found" });
    if (request.method !== "POST") throw new SimErrorReply(405, { error: "JSON-RPC takes POST" });
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody);
    } catch {
      return json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    }
    const answer = (call: RpcCall) => {
      const id = call.id ?? null;
      try {
        if (call.jsonrpc !== "2.0" || typeof call.method !== "string") throw new RpcError(-32600, "invalid request");
        const params = Array.isArray(call.params) ? call.params : [];
        return { jsonrpc: "2.0", id, result: dispatch(state, call.method, params, maxLogs, moved) };
      } catch (error) {
        if (error instanceof RpcError)
          return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message } };
        throw error;
      }
    };
    if (Array.isArray(body)) return json(body.map((call) => answer(call as RpcCall)));
    return json(answer((body ?? {}) as RpcCall));
  };
}

function dispatch(
  state: VenueState,
  method: string,
  params: unknown[],
  maxLogs: number,
  moved: ReadonlyMap<string, string>,
): unknown {
  const head = blockAt(state.now());
  switch (method) {
    case "eth_chainId":
      return hex(POLYGON_CHAIN_ID);
    case "net_version":
      return String(POLYGON_CHAIN_ID);
    case "eth_blockNumber":
      return hex(head);
    case "eth_getBlockByNumber": {
      const n = blockParam(params[0], head);
      return n > head ? null : blockJson(state.world, n);
    }
    case "eth_getLogs":
      return getLogs(state.world, params[0], head, maxLogs, moved);
    case "eth_call":
      return ethCall(state.world, params[0]);
    default:
      throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
  }
}

function blockParam(value: unknown, head: number): number {
  if (value === undefined || value === "latest" || value === "pending") return head;
  if (value === "earliest") return 0;
  if (value === "safe") return head - SAFE_DEPTH;
  if (value === "finalized") return head - FINALIZED_DEPTH;
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return Number(BigInt(value));
  throw new RpcError(-32602, `invalid block number: ${JSON.stringify(value)}`);
}

function blockJson(world: World, n: number) {
  const ts = blockTimestamp(n);
  const [j0, j1] = world.matchesBetween(ts, ts + 1);
  const [i0, i1] = world.opsBetween(ts, ts + 1);
  const transactions: string[] = [];
  for (let j = j0; j < j1; j++) transactions.push(world.txHashOfMatch(j));
  for (let i = i0; i < i1; i++) transactions.push(world.txHashOfOp(i));
  const [f0, f1] = world.funding.between(ts, ts + 1);
  for (let i = f0; i < f1; i++) transactions.push(world.txHashOfFunding(i));
  return {
    number: hex(n),
    hash: blockHash(world, n),
    parentHash: blockHash(world, n - 1),
    timestamp: hex(ts),
    transactions,
  };
}

const ADAPTER = CONTRACTS.negRiskAdapter.toLowerCase();
const FEE_BIPS_CALL = new RegExp(`^${NEG_RISK_GET_FEE_BIPS_SELECTOR}([0-9a-f]{64})$`);
const feeBipsByMarket = new WeakMap<World, Map<string, number>>();

const signerByProxy = new WeakMap<World, Map<string, string>>();

/** Every simulated proxy is a 1-of-1 Safe owned by its signer: `getOwners()` answers `[signer]`. */
function safeOwners(world: World, proxy: string): string {
  let signers = signerByProxy.get(world);
  if (!signers) {
    signers = new Map(world.wallets.map((w) => [w.proxyWallet.toLowerCase(), w.signer.toLowerCase()]));
    signerByProxy.set(world, signers);
  }
  const signer = signers.get(proxy);
  if (!signer) return "0x";
  const word = (value: string) => value.padStart(64, "0");
  return `0x${word("20")}${word("1")}${word(signer.slice(2))}`;
}

function ethCall(world: World, rawCall: unknown): string {
  const call = (typeof rawCall === "object" && rawCall !== null ? rawCall : {}) as {
    to?: unknown;
    data?: unknown;
    input?: unknown;
  };
  const data = String(call.data ?? call.input ?? "").toLowerCase();
  const to = String(call.to ?? "").toLowerCase();
  if (data === SAFE_GET_OWNERS_SELECTOR && to !== ADAPTER) return safeOwners(world, to);
  const match = to === ADAPTER ? FEE_BIPS_CALL.exec(data) : null;
  if (!match) throw new RpcError(-32000, "execution reverted");
  let fees = feeBipsByMarket.get(world);
  if (!fees) {
    fees = new Map(
      world.events.filter((e) => e.negRiskMarketId).map((e) => [e.negRiskMarketId!.toLowerCase(), e.convertFeeBips]),
    );
    feeBipsByMarket.set(world, fees);
  }
  return `0x${(fees.get(`0x${match[1]}`) ?? 0).toString(16).padStart(64, "0")}`;
}

/** One topic position of a filter: null (anything), or the values allowed there (one, or alternatives). */
function topicValues(value: unknown): ReadonlySet<string> | null {
  if (value === null || value === undefined) return null;
  return new Set((Array.isArray(value) ? value : [value]).map((v) => String(v).toLowerCase()));
}

const matchesTopics = (filter: readonly (ReadonlySet<string> | null)[], topics: readonly string[]) =>
  filter.every((allowed, k) => allowed === null || (topics[k] !== undefined && allowed.has(topics[k]!)));

/** The addresses held by address topic words (12 zero bytes, then the address); other words hold none. */
const topicAddresses = (words: ReadonlySet<string>): Set<string> =>
  new Set([...words].filter((w) => /^0x0{24}[0-9a-f]{40}$/.test(w)).map((w) => `0x${w.slice(26)}`));

/** Two sources of logs, each in chain order, merged in chain order (block, then log index). */
function* inChainOrder<A extends SimLog | SimTransferLog, B extends SimLog | SimTransferLog>(
  a: Iterator<A>,
  b: Iterator<B>,
): Generator<A | B> {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    const takeA =
      !x.done &&
      (y.done ||
        x.value.blockNumber < y.value.blockNumber ||
        (x.value.blockNumber === y.value.blockNumber && x.value.logIndex < y.value.logIndex));
    if (takeA) {
      yield x.value as A;
      x = a.next();
    } else {
      yield (y as IteratorYieldResult<B>).value;
      y = b.next();
    }
  }
}

const NONE: Iterator<never> = [][Symbol.iterator]();

/** A log whose exchange emits from another address: that address wherever the log names the exchange. */
function movedLog(log: SimLog, moved: ReadonlyMap<string, string>): SimLog {
  const fields = log.event as unknown as Record<string, unknown>;
  let event: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(fields)) {
    const to = typeof value === "string" ? moved.get(value) : undefined;
    if (to) (event ??= { ...fields })[name] = to;
  }
  return event ? { ...log, event: event as unknown as VenueEvent } : log;
}

/** The word encoder, byte for byte viem's (tested), and viem for any event it leaves. */
const encodeLog = (event: VenueEvent): EncodedLog => encodeLogWords(event) ?? encodeVenueLog(event);

function getLogs(world: World, rawFilter: unknown, head: number, maxLogs: number, moved: ReadonlyMap<string, string>) {
  if (typeof rawFilter !== "object" || rawFilter === null)
    throw new RpcError(-32602, "eth_getLogs takes a filter object");
  const filter = rawFilter as {
    fromBlock?: unknown;
    toBlock?: unknown;
    address?: unknown;
    topics?: unknown;
    blockHash?: unknown;
  };
  if (filter.blockHash !== undefined) throw new RpcError(-32602, "blockHash filters are not supported by this node");
  const from = blockParam(filter.fromBlock, head);
  const to = Math.min(blockParam(filter.toBlock, head), head);
  if (from > to) return [];
  const addresses =
    filter.address === undefined || filter.address === null
      ? null
      : new Set(
          (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => String(a).toLowerCase()),
        );
  const topics = Array.isArray(filter.topics) ? filter.topics.map(topicValues) : [];
  const topic0 = topics[0] ?? null;
  const deeper = topics.slice(1).some((m) => m !== null);
  // No venue event comes from a collateral token or has the ERC-20 Transfer topic; no transfer is a venue event.
  const venue =
    !(addresses && [...addresses].every((a) => COLLATERAL_TOKENS.includes(a))) &&
    !(topic0 && [...topic0].every((t) => t === ERC20_TRANSFER_TOPIC));
  const transfers =
    (!addresses || COLLATERAL_TOKENS.some((a) => addresses.has(a))) && (!topic0 || topic0.has(ERC20_TRANSFER_TOPIC));
  const recipients = topics[2] ? topicAddresses(topics[2]) : null;
  const out: { log: SimLog | SimTransferLog; encoded: EncodedLog | null }[] = [];
  const sources = inChainOrder(
    venue ? logsInBlocks(world, from, to) : NONE,
    transfers ? transferLogsInBlocks(world, from, to, recipients) : NONE,
  );
  for (const served of sources) {
    let log: SimLog | SimTransferLog;
    let encoded: EncodedLog | null;
    if ("encoded" in served) {
      log = served;
      encoded = served.encoded;
      if ((addresses && !addresses.has(encoded.address)) || !matchesTopics(topics, encoded.topics)) continue;
    } else {
      const venueLog = moved.size > 0 ? movedLog(served, moved) : served;
      log = venueLog;
      if (addresses && !addresses.has(venueLog.event.address)) continue;
      if (topic0 && !topic0.has(VENUE_EVENT_TOPICS[venueLog.event.kind])) continue;
      // Encoding is the costly part: only done up front when a filter looks past topic0.
      encoded = deeper ? encodeLog(venueLog.event) : null;
      if (encoded && !matchesTopics(topics, encoded.topics)) continue;
    }
    out.push({ log, encoded });
    if (out.length > maxLogs) {
      // Like providers, suggest a range that fits: up to the block before the one that overflowed.
      throw new RpcError(
        -32005,
        `query returned more than ${maxLogs} results. Try with this block range [${hex(from)}, ${hex(Math.max(from, log.blockNumber - 1))}].`,
      );
    }
  }
  // Logs come block by block: a block's number, hash and timestamp are written once.
  let block = { number: -1, hex: "", hash: "", timestamp: "" };
  return out.map(({ log, encoded }) => {
    const { address, topics: logTopics, data } = encoded ?? encodeLog((log as SimLog).event);
    if (log.blockNumber !== block.number) {
      block = {
        number: log.blockNumber,
        hex: hex(log.blockNumber),
        hash: blockHash(world, log.blockNumber),
        timestamp: hex(blockTimestamp(log.blockNumber)),
      };
    }
    return {
      address,
      topics: logTopics,
      data,
      blockNumber: block.hex,
      blockHash: block.hash,
      // Erigon, Reth and newer geth add the block's timestamp to each log; clients then need no header lookups.
      blockTimestamp: block.timestamp,
      transactionHash: log.transactionHash,
      transactionIndex: hex(log.transactionIndex),
      logIndex: hex(log.logIndex),
      removed: false,
    };
  });
}
