import { afterEach, describe, expect, it } from "vitest";
import { decodeVenueLog, encodeVenueLog, type Hex } from "./abi.js";
import { ChainClient, JsonRpcError, isRangeTooLarge } from "./client.js";
import { CONTRACTS } from "../contracts.js";
import { VenueHttpClient } from "../http.js";
import { fakeTime } from "../testing/fake-time.js";
import { startLoopback, type Loopback, type LoopbackReply } from "../testing/loopback.js";

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ADAPTER = CONTRACTS.negRiskAdapter.toLowerCase() as Hex;
const hex = (n: number) => `0x${n.toString(16)}`;

/** One PositionsConverted log in each of blocks 100..139. */
const chainLogs = Array.from({ length: 40 }, (_, i) => {
  const encoded = encodeVenueLog({
    kind: "PositionsConverted",
    address: ADAPTER,
    stakeholder: `0x${(i + 1).toString(16).padStart(40, "0")}`,
    marketId: `0x${"9".repeat(64)}`,
    indexSet: BigInt(i),
    amount: 1_000_000n,
  });
  return {
    ...encoded,
    blockNumber: hex(100 + i),
    blockHash: `0x${(100 + i).toString(16).padStart(64, "0")}`,
    transactionHash: `0x${(i + 1).toString(16).padStart(64, "a")}`,
    transactionIndex: "0x0",
    logIndex: "0x0",
    removed: false,
  };
});

interface RpcRequest {
  id: number;
  method: string;
  params: unknown[];
}

/** A JSON-RPC node that refuses eth_getLogs answers of more than `maxLogs` logs, Infura style. */
function rpcNode(
  options: {
    maxLogs?: number;
    head?: number;
    suggest?: boolean;
    onRequest?: (r: RpcRequest) => LoopbackReply | undefined;
  } = {},
) {
  const answered: [number, number][] = [];
  const refused: [number, number][] = [];
  /** Every eth_getLogs range in the order the node received it. */
  const requested: [number, number][] = [];
  const answer = (r: RpcRequest): unknown => {
    if (r.method === "eth_blockNumber") return { jsonrpc: "2.0", id: r.id, result: hex(options.head ?? 200) };
    if (r.method === "eth_getBlockByNumber") {
      const n = Number(BigInt(r.params[0] as string));
      if (n > (options.head ?? 200)) return { jsonrpc: "2.0", id: r.id, result: null };
      return {
        jsonrpc: "2.0",
        id: r.id,
        result: {
          number: hex(n),
          hash: `0x${n.toString(16).padStart(64, "0")}`,
          parentHash: `0x${"0".repeat(64)}`,
          timestamp: hex(1_770_000_000 + 2 * n),
        },
      };
    }
    if (r.method === "eth_getLogs") {
      const f = r.params[0] as { fromBlock: string; toBlock: string };
      const from = Number(BigInt(f.fromBlock));
      const to = Number(BigInt(f.toBlock));
      requested.push([from, to]);
      const logs = chainLogs.filter(
        (l) => Number(BigInt(l.blockNumber)) >= from && Number(BigInt(l.blockNumber)) <= to,
      );
      if (logs.length > (options.maxLogs ?? Infinity)) {
        // With `suggest`, the refusal names the widest range that fits, as Alchemy and Infura word it.
        const fits = Number(BigInt(logs[options.maxLogs ?? 0]!.blockNumber)) - 1;
        const hint = options.suggest ? ` Try with this block range [${hex(from)}, ${hex(fits)}].` : "";
        refused.push([from, to]);
        return {
          jsonrpc: "2.0",
          id: r.id,
          error: { code: -32005, message: `query returned more than ${options.maxLogs} results.${hint}` },
        };
      }
      answered.push([from, to]);
      return { jsonrpc: "2.0", id: r.id, result: logs };
    }
    return { jsonrpc: "2.0", id: r.id, error: { code: -32601, message: "method not found" } };
  };
  return {
    answered,
    refused,
    requested,
    handler: (req: { body: unknown }): LoopbackReply => {
      const body = req.body as RpcRequest | RpcRequest[];
      const first = Array.isArray(body) ? body[0] : body;
      const special = first && options.onRequest?.(first);
      if (special) return special;
      return { body: Array.isArray(body) ? body.map(answer).reverse() : answer(body) };
    },
  };
}

async function chainClient(node: ReturnType<typeof rpcNode>, maxBlockSpan = 2_000) {
  server = await startLoopback(node.handler);
  const time = fakeTime();
  const http = new VenueHttpClient({
    name: "rpc",
    baseUrl: server.url,
    timeoutMs: 2_000,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0,
  });
  return { client: new ChainClient(http, { maxBlockSpan, batchSize: 3 }), time, server };
}

describe("ChainClient", () => {
  it("reads the head and block timestamps (batched, answered out of order)", async () => {
    const { client, server } = await chainClient(rpcNode({ head: 150 }));
    expect(await client.blockNumber()).toBe(150);
    expect(await client.block(10)).toMatchObject({ number: 10, timestamp: 1_770_000_020 });
    const stamps = await client.blockTimestamps([1, 2, 3, 4, 2]);
    expect([...stamps]).toEqual([
      [1, 1_770_000_002],
      [2, 1_770_000_004],
      [3, 1_770_000_006],
      [4, 1_770_000_008],
    ]);
    // Two batches of at most three calls.
    expect(server.requests.slice(2).map((r) => (r.body as unknown[]).length)).toEqual([3, 1]);
    await expect(client.block(151)).rejects.toThrow("block not found");
  });

  it("reads timestamps one call at a time when batching is off", async () => {
    const node = rpcNode();
    server = await startLoopback(node.handler);
    const client = new ChainClient(new VenueHttpClient({ name: "rpc", baseUrl: server.url, timeoutMs: 2_000 }), {
      batchSize: 1,
    });
    expect([...(await client.blockTimestamps([7, 8]))]).toEqual([
      [7, 1_770_000_014],
      [8, 1_770_000_016],
    ]);
    expect(server.requests.every((r) => !Array.isArray(r.body))).toBe(true);
  });

  it("halves eth_getLogs ranges the provider refuses and returns every log in order", async () => {
    const node = rpcNode({ maxLogs: 10 });
    const { client } = await chainClient(node);
    const { logs, rejected } = await client.getLogs({ address: [ADAPTER], fromBlock: 100, toBlock: 139 });
    expect(rejected).toEqual([]);
    expect(logs.map((l) => Number(BigInt(l.blockNumber)))).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
    expect(node.answered).toEqual([
      [100, 109],
      [110, 119],
      [120, 129],
      [130, 139],
    ]);
    const decoded = logs.map((l) => decodeVenueLog(l));
    expect(decoded.every((d) => d?.kind === "PositionsConverted")).toBe(true);
  });

  it("reads a long range in consecutive chunks whose span adapts to the provider", async () => {
    const node = rpcNode({ maxLogs: 12 });
    const { client } = await chainClient(node, 64);
    const chunks = [];
    for await (const chunk of client.logs({ address: ADAPTER, fromBlock: 90, toBlock: 160 })) chunks.push(chunk);
    expect(chunks[0]?.fromBlock).toBe(90);
    expect(chunks.at(-1)?.toBlock).toBe(160);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]?.fromBlock).toBe((chunks[i - 1]?.toBlock ?? 0) + 1);
    expect(chunks.flatMap((c) => c.logs)).toHaveLength(40);
    expect(chunks.every((c) => c.logs.length <= 12)).toBe(true);
  });

  it("follows the range the provider suggests, and keeps two ranges requested while the caller works", async () => {
    const node = rpcNode({ maxLogs: 12, suggest: true });
    const { client } = await chainClient(node, 64);
    const chunks: [number, number][] = [];
    const requestedNext: boolean[] = [];
    for await (const chunk of client.logs({ address: ADAPTER, fromBlock: 90, toBlock: 160 })) {
      chunks.push([chunk.fromBlock, chunk.toBlock]);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the caller at work
      requestedNext.push(node.requested.some(([from]) => from === chunk.toBlock + 1));
    }
    // Logs sit one per block in 100..139. 90..153 is refused with 90..111 suggested (12 logs, the most an answer
    // holds); 112..133, requested beside it at that span, holds 22 and is refused too. From then on the span aims
    // at 80% of the limit named (12) at the density just read: 9 blocks at a log a block, 18 where the logs end.
    expect(chunks).toEqual([
      [90, 111],
      [112, 123],
      [124, 135],
      [136, 144],
      [145, 153],
      [154, 160],
    ]);
    expect(node.refused).toEqual([
      [90, 153],
      [112, 133],
    ]);
    expect(requestedNext).toEqual([true, true, true, true, true, false]);
  });

  it("sizes the next ranges to the log limit the refusal names, at the density just read, and starts the next call there", async () => {
    const node = rpcNode({ maxLogs: 12, suggest: true });
    const { client } = await chainClient(node, 64);
    const read = async (fromBlock: number, toBlock: number) => {
      const chunks = [];
      for await (const chunk of client.logs({ address: ADAPTER, fromBlock, toBlock }))
        chunks.push([chunk.fromBlock, chunk.toBlock]);
      return chunks;
    };
    // 100..119 at one log a block: refused, then the suggested 12 blocks and the 8 left beside them; the limit
    // named is 12, so the span becomes 80% of it at a log a block: 9 blocks.
    expect(await read(100, 119)).toEqual([
      [100, 111],
      [112, 119],
    ]);
    expect(node.refused).toEqual([[100, 119]]);
    // The next call starts from the span learnt: no refusal, 9 blocks a chunk.
    expect(await read(120, 139)).toEqual([
      [120, 128],
      [129, 137],
      [138, 139],
    ]);
    expect(node.refused).toHaveLength(1);
  });

  it("gives up when a single block is still too large", async () => {
    const { client } = await chainClient(rpcNode({ maxLogs: 0 }));
    const error = await client.getLogs({ fromBlock: 120, toBlock: 121 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(isRangeTooLarge(error)).toBe(true);
  });

  it("does not halve on other JSON-RPC errors", async () => {
    const node = rpcNode({
      onRequest: (r) =>
        r.method === "eth_getLogs"
          ? {
              body: {
                jsonrpc: "2.0",
                id: r.id,
                error: { code: -32602, message: "invalid argument 0: hex string without 0x prefix" },
              },
            }
          : undefined,
    });
    const { client, server } = await chainClient(node);
    await expect(client.getLogs({ fromBlock: 100, toBlock: 139 })).rejects.toThrow(JsonRpcError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a rate-limit error the provider wraps in HTTP 200", async () => {
    let calls = 0;
    const node = rpcNode({
      onRequest: (r) =>
        ++calls === 1
          ? {
              body: {
                jsonrpc: "2.0",
                id: r.id,
                error: { code: -32005, message: "daily request count exceeded, request rate limited" },
              },
            }
          : undefined,
    });
    const { client, time } = await chainClient(node);
    expect(await client.blockNumber()).toBe(200);
    expect(time.sleeps).toHaveLength(1);
  });
});

describe("isRangeTooLarge", () => {
  it("recognises the providers' range refusals, not rate limits", () => {
    const e = (message: string) => new JsonRpcError("eth_getLogs", -32005, message);
    expect(
      isRangeTooLarge(e("Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range")),
    ).toBe(true);
    expect(isRangeTooLarge(e("block range is too wide"))).toBe(true);
    expect(isRangeTooLarge(e("exceed maximum block range: 50000"))).toBe(true);
    expect(isRangeTooLarge(e("daily request count exceeded, request rate limited"))).toBe(false);
    expect(isRangeTooLarge(e("execution reverted"))).toBe(false);
  });
});
