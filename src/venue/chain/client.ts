/**
 * Polygon JSON-RPC over the shared HTTP client: head, block timestamps, and eth_getLogs that narrows its
 * block range whenever the provider refuses one as too large ("query returned more than 10000 results",
 * "Log response size exceeded", "block range is too wide", ...), and sizes its ranges to the log limit a
 * refusal names.
 */
import { PelagicError } from "../../errors/index.js";
import type { Config } from "../../config/index.js";
import { configuredHttpClient, type VenueHttpClient, type Verdict, type VenueHttpOptions } from "../http.js";
import type { RateLimit } from "../pacing.js";
import { JsonRpcResponseShape, RpcBlockShape, RpcLogShape, type RpcLog } from "../shapes/json-rpc.js";
import { VenueShapeError, partitionRows, type RejectedRow } from "../shapes/shape.js";

/** Providers differ by plan: `VENUE_RPC_REQUESTS_PER_SECOND` (default 25, under common free-tier limits). */
export function chainRateLimits(requestsPerSecond: number): readonly RateLimit[] {
  return [{ name: "rpc", limit: requestsPerSecond * 10, windowMs: 10_000 }];
}

/**
 * The RPC rate split when eth_getLogs runs on a thread (and client) of its own: 4/5 for it, 1/5 for every other
 * call (head, block headers, fee rates), at least one request a second each.
 */
export function rpcRateShares(requestsPerSecond: number): { readonly logs: number; readonly other: number } {
  const other = Math.max(1, Math.round(requestsPerSecond / 5));
  return { logs: Math.max(1, requestsPerSecond - other), other };
}

export class JsonRpcError extends PelagicError {
  constructor(
    readonly method: string,
    /** The JSON-RPC error's own code (-32005, ...). */
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super("VENUE_RPC_ERROR", `${method}: JSON-RPC error ${rpcCode}: ${rpcMessage}`);
  }
}

const RATE_LIMITED =
  /rate.?limit|too many requests|request limit reached|daily request count|exceeded .*(quota|capacity|compute units)/i;
const RANGE_TOO_LARGE =
  /more than \d+ results|too many (results|logs)|response size|limit exceeded|block range|range (is )?too (large|wide|big)|exceeds? (the )?max|query timeout|results? (limit|cap)|is limited to/i;

/** The end block of the range a refusing node suggests ("... Try with this block range [0xa, 0xb]."), when inside [from, to). */
function suggestedEnd(error: unknown, from: number, to: number): number | null {
  const match =
    error instanceof JsonRpcError
      ? /\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]/i.exec(error.rpcMessage)
      : null;
  if (!match) return null;
  const end = Number(match[2]);
  return Number.isSafeInteger(end) && end >= from && end < to ? end : null;
}

/** The most logs an answer may hold, when the refusal names it ("query returned more than 10000 results"). */
function refusedLogLimit(error: unknown): number | null {
  const match = error instanceof JsonRpcError ? /more than (\d+) (results|logs)/i.exec(error.rpcMessage) : null;
  const limit = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(limit) && limit > 0 ? limit : null;
}

/**
 * Share of a node's log limit a chunk aims at: the next range is sized from the last answer's log density, and
 * activity varies from block to block, so aiming at the limit itself would have every other request refused.
 */
const LOG_LIMIT_AIM = 0.8;

/**
 * eth_getLogs requests in flight ahead of the chunk the caller works on: with two, the node starts the next
 * answer while the caller still reads the last one, and one slow answer does not leave the caller idle.
 */
const RANGES_AHEAD = 2;

/** Batches of block headers requested at once. */
const TIMESTAMP_BATCHES_IN_FLIGHT = 4;

/** Whether an eth_getLogs failure means "ask for a smaller block range". */
export function isRangeTooLarge(error: unknown): boolean {
  return (
    error instanceof JsonRpcError && !RATE_LIMITED.test(error.rpcMessage) && RANGE_TOO_LARGE.test(error.rpcMessage)
  );
}

function isRateLimited(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.some((item) => {
    const error = (item as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    return !!error && (error.code === 429 || (typeof error.message === "string" && RATE_LIMITED.test(error.message)));
  });
}

/** A rate-limit error inside an HTTP 200 is retried like a 429. */
const inspectRpc = (status: number, body: unknown): Verdict | null =>
  status === 200 && isRateLimited(body) ? { kind: "retry", status: 429 } : null;

const hex = (n: number) => `0x${n.toString(16)}`;

/** Block, then log index: the order eth_getLogs answers in, kept when two answers are merged. */
function chainOrder(a: RpcLog, b: RpcLog): number {
  // Hex quantities (RpcLogShape checked them): Number reads the 0x prefix, and both fit a double exactly.
  return Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex);
}

/** Which logs: contracts and topic alternatives per position (null matches anything). */
export interface LogSelection {
  readonly address?: string | readonly string[];
  readonly topics?: readonly (string | readonly string[] | null)[];
}

export interface LogFilter extends LogSelection {
  /** Further selections read for the same blocks (one eth_getLogs each), their logs merged in chain order. */
  readonly also?: readonly LogSelection[];
  readonly fromBlock: number;
  readonly toBlock: number;
}

export interface LogsResult {
  readonly logs: RpcLog[];
  readonly rejected: RejectedRow[];
}

export interface LogChunk extends LogsResult {
  readonly fromBlock: number;
  readonly toBlock: number;
}

export interface BlockHeader {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  /** Unix seconds. */
  readonly timestamp: number;
}

export interface ChainClientOptions {
  /** Largest block span the chunked log reader asks for at once. Default 2000. */
  readonly maxBlockSpan?: number;
  /** Calls per JSON-RPC batch; 1 turns batching off. Default 50. */
  readonly batchSize?: number;
}

export class ChainClient {
  private nextId = 1;
  private readonly maxBlockSpan: number;
  private readonly batchSize: number;
  /** The span the chunked log reader starts from: the one it sized after its last answer (a next call continues with it). */
  private logsSpan: number;
  /** The most logs the node returns in one answer, once a refusal has named it. */
  private logLimit: number | null = null;

  constructor(
    readonly http: VenueHttpClient,
    options: ChainClientOptions = {},
  ) {
    this.maxBlockSpan = Math.max(1, options.maxBlockSpan ?? 2_000);
    this.logsSpan = this.maxBlockSpan;
    this.batchSize = Math.max(1, options.batchSize ?? 50);
  }

  /** Null when no RPC URL is configured (fills then come from the Data API). */
  static fromConfig(
    config: Pick<Config, "venue">,
    overrides: Partial<VenueHttpOptions> = {},
    options: ChainClientOptions = {},
  ): ChainClient | null {
    if (!config.venue.rpcUrl) return null;
    const api = {
      name: "rpc",
      baseUrl: config.venue.rpcUrl,
      rateLimits: chainRateLimits(config.venue.rpcRequestsPerSecond),
    };
    return new ChainClient(configuredHttpClient(config, api, overrides), options);
  }

  /** One JSON-RPC call; throws JsonRpcError for an error response. */
  async call(method: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown> {
    const id = this.nextId++;
    const response = await this.http.post("", { jsonrpc: "2.0", id, method, params }, { signal, inspect: inspectRpc });
    const body = JsonRpcResponseShape.parse(response.body, `rpc ${method}`);
    if (body.error) throw new JsonRpcError(method, body.error.code, body.error.message, body.error.data);
    if (!("result" in body))
      throw new VenueShapeError(`rpc ${method}`, [{ path: "", message: "neither result nor error" }]);
    return body.result;
  }

  /** Several calls in one JSON-RPC batch; results in call order, errors thrown as JsonRpcError. */
  async batch(
    calls: readonly { method: string; params: readonly unknown[] }[],
    signal?: AbortSignal,
  ): Promise<unknown[]> {
    if (calls.length === 0) return [];
    const requests = calls.map((c) => ({ jsonrpc: "2.0", id: this.nextId++, method: c.method, params: c.params }));
    const response = await this.http.post("", requests, { signal, inspect: inspectRpc });
    if (!Array.isArray(response.body))
      throw new VenueShapeError("rpc batch", [{ path: "", message: "expected an array" }]);
    const byId = new Map<unknown, unknown>();
    for (const item of response.body) {
      const parsed = JsonRpcResponseShape.parse(item, "rpc batch item");
      byId.set(parsed.id, parsed);
    }
    return requests.map((req) => {
      const item = byId.get(req.id) as
        | { result?: unknown; error?: { code: number; message: string; data?: unknown } }
        | undefined;
      if (!item) throw new VenueShapeError("rpc batch", [{ path: "", message: `no answer for id ${req.id}` }]);
      if (item.error) throw new JsonRpcError(req.method, item.error.code, item.error.message, item.error.data);
      return item.result;
    });
  }

  async blockNumber(signal?: AbortSignal): Promise<number> {
    const result = await this.call("eth_blockNumber", [], signal);
    if (typeof result !== "string" || !/^0x[0-9a-f]+$/i.test(result))
      throw new VenueShapeError("rpc eth_blockNumber", [{ path: "", message: "not a hex quantity" }]);
    return Number(BigInt(result));
  }

  async block(number: number, signal?: AbortSignal): Promise<BlockHeader> {
    return this.toHeader(number, await this.call("eth_getBlockByNumber", [hex(number), false], signal));
  }

  /** Timestamps (unix seconds) of the given blocks, fetched in JSON-RPC batches. */
  async blockTimestamps(numbers: readonly number[], signal?: AbortSignal): Promise<Map<number, number>> {
    const unique = [...new Set(numbers)];
    const result = new Map<number, number>();
    if (this.batchSize === 1) {
      // For providers without JSON-RPC batches.
      for (const n of unique) result.set(n, (await this.block(n, signal)).timestamp);
      return result;
    }
    const slices: number[][] = [];
    for (let i = 0; i < unique.length; i += this.batchSize) slices.push(unique.slice(i, i + this.batchSize));
    // A few batches in flight: one at a time spends most of a dense range's time waiting on round trips (the
    // pacer still holds the request rate).
    let next = 0;
    const worker = async () => {
      for (let k = next++; k < slices.length; k = next++) {
        const slice = slices[k]!;
        try {
          const blocks = await this.batch(
            slice.map((n) => ({ method: "eth_getBlockByNumber", params: [hex(n), false] })),
            signal,
          );
          slice.forEach((n, j) => result.set(n, this.toHeader(n, blocks[j]).timestamp));
        } catch (error) {
          next = slices.length; // the other workers stop after their current batch
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(TIMESTAMP_BATCHES_IN_FLIGHT, slices.length) }, worker));
    return result;
  }

  private toHeader(number: number, raw: unknown): BlockHeader {
    if (raw === null) throw new VenueShapeError(`rpc block ${number}`, [{ path: "", message: "block not found" }]);
    const block = RpcBlockShape.parse(raw, `rpc block ${number}`);
    return {
      number: Number(BigInt(block.number)),
      hash: block.hash.toLowerCase(),
      parentHash: block.parentHash.toLowerCase(),
      timestamp: Number(BigInt(block.timestamp)),
    };
  }

  /** eth_getLogs for one range, split in halves (recursively) while the provider calls it too large. */
  async getLogs(filter: LogFilter, signal?: AbortSignal): Promise<LogsResult> {
    try {
      return await this.getLogsOnce(filter, signal);
    } catch (error) {
      if (!isRangeTooLarge(error) || filter.fromBlock >= filter.toBlock) throw error;
      const mid = Math.floor((filter.fromBlock + filter.toBlock) / 2);
      const left = await this.getLogs({ ...filter, toBlock: mid }, signal);
      const right = await this.getLogs({ ...filter, fromBlock: mid + 1 }, signal);
      return { logs: [...left.logs, ...right.logs], rejected: [...left.rejected, ...right.rejected] };
    }
  }

  /**
   * The logs of `filter`'s block range in chunks, oldest first. A range the node refuses as too large is
   * retried smaller: up to the block the node suggests ("Try with this block range [a, b]", as providers word
   * it), else half as wide. After a success the span changes to aim at LOG_LIMIT_AIM of the node's log limit
   * at the density just seen (at most doubling), or doubles while no refusal has named a limit; it never exceeds
   * `maxBlockSpan`, and the next call starts from it. The next range is requested while the caller works on the
   * current chunk, so a span that fits keeps the node and the caller busy at once.
   */
  async *logs(filter: LogFilter, signal?: AbortSignal): AsyncGenerator<LogChunk, void, undefined> {
    let span = this.logsSpan;
    /** Ranges requested and not yet read, consecutive, the first starting at the first block not yet yielded. */
    const ahead: { fromBlock: number; toBlock: number; requested: number; result: Promise<LogsResult> }[] = [];
    let unrequested = filter.fromBlock;
    const request = (fromBlock: number, wanted: number) => {
      const toBlock = Math.min(filter.toBlock, fromBlock + wanted - 1);
      const result = this.getLogsOnce({ ...filter, fromBlock, toBlock }, signal);
      result.catch(() => undefined); // observed when awaited; a prefetch the caller never reaches must not go unhandled
      ahead.push({ fromBlock, toBlock, requested: wanted, result });
      unrequested = toBlock + 1;
    };
    const fillAhead = () => {
      while (ahead.length < RANGES_AHEAD && unrequested <= filter.toBlock) request(unrequested, span);
    };
    fillAhead();
    while (ahead.length > 0) {
      const { fromBlock: from, toBlock: to, requested, result: pending } = ahead.shift() as (typeof ahead)[number];
      let result: LogsResult;
      try {
        result = await pending;
      } catch (error) {
        if (!isRangeTooLarge(error) || from === to) throw error;
        this.logLimit = refusedLogLimit(error) ?? this.logLimit;
        const suggested = suggestedEnd(error, from, to);
        span = suggested === null ? Math.max(1, Math.floor((to - from + 1) / 2)) : suggested - from + 1;
        // The ranges requested after this one start at the wrong block now (their answers are dropped).
        ahead.length = 0;
        unrequested = from;
        fillAhead();
        continue;
      }
      const chunk: LogChunk = { fromBlock: from, toBlock: to, ...result };
      span = this.logsSpan = this.nextSpan(requested, to - from + 1, chunk.logs.length + chunk.rejected.length);
      fillAhead();
      yield chunk;
    }
  }

  /** After an answer of `logs` logs over `blocks` blocks (fewer than `requested` at the filter's end). */
  private nextSpan(requested: number, blocks: number, logs: number): number {
    const fitting =
      this.logLimit === null ? Infinity : Math.floor((LOG_LIMIT_AIM * this.logLimit * blocks) / Math.max(1, logs));
    return Math.max(1, Math.min(this.maxBlockSpan, 2 * requested, fitting));
  }

  private async getLogsOnce(filter: LogFilter, signal?: AbortSignal): Promise<LogsResult> {
    const selections = [filter, ...(filter.also ?? [])];
    const answers = await Promise.all(selections.map((selection) => this.selectionLogs(filter, selection, signal)));
    if (answers.length === 1) return answers[0]!;
    const logs = answers.flatMap((a) => a.logs);
    logs.sort(chainOrder);
    return { logs, rejected: answers.flatMap((a) => a.rejected) };
  }

  private async selectionLogs(range: LogFilter, selection: LogSelection, signal?: AbortSignal): Promise<LogsResult> {
    const params: Record<string, unknown> = { fromBlock: hex(range.fromBlock), toBlock: hex(range.toBlock) };
    if (selection.address !== undefined) params.address = selection.address;
    if (selection.topics !== undefined) params.topics = selection.topics;
    const result = await this.call("eth_getLogs", [params], signal);
    const { rows, rejected } = partitionRows(
      RpcLogShape,
      result,
      `rpc eth_getLogs ${range.fromBlock}-${range.toBlock}`,
    );
    return { logs: rows, rejected };
  }
}
