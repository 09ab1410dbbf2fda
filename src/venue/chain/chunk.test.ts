import { describe, expect, it } from "vitest";
import type { RpcLog } from "../shapes/json-rpc.js";
import { CTF, EXCHANGE_V2, address, hash32, matchEvents, split } from "../testing/chain-events.js";
import { encodeVenueLog, type VenueEvent } from "./abi.js";
import { mergeChunks, settleChunk, type SettledChunk } from "./chunk.js";

const hex = (n: number) => `0x${n.toString(16)}`;
const TOKEN = 77n;

function rpcLog(
  event: VenueEvent,
  block: number,
  tx: number,
  logIndex: number,
  extra: Record<string, unknown> = {},
): RpcLog {
  return {
    ...encodeVenueLog(event),
    blockNumber: hex(block),
    blockHash: hash32(block),
    transactionHash: hash32(tx),
    transactionIndex: "0x0",
    logIndex: hex(logIndex),
    removed: false,
    ...extra,
  };
}

describe("settleChunk", () => {
  it("decodes and settles an answer, keeps the other events and the carried timestamps, and names what it could not read", () => {
    const match = matchEvents(
      EXCHANGE_V2,
      { owner: address(1), side: "BUY", token: TOKEN, size: 10_000_000n, usd: 6_000_000n },
      [{ owner: address(2), side: "BUY", token: TOKEN + 1n, size: 10_000_000n, usd: 4_000_000n }],
    );
    const splitEvent = split(address(3), hash32(0xc0), 5_000_000n);
    const zeroFill = matchEvents(
      EXCHANGE_V2,
      { owner: address(4), side: "BUY", token: TOKEN, size: 0n, usd: 0n },
      [],
    )[0] as VenueEvent;
    const logs: RpcLog[] = [
      ...match.map((event, i) => rpcLog(event, 100, 0xa1, i, { blockTimestamp: "0x6000" })),
      rpcLog(splitEvent, 101, 0xa2, 0),
      rpcLog(splitEvent, 101, 0xa3, 1, { removed: true }),
      // A venue event's topic from the right contract whose data is cut short.
      { ...rpcLog(splitEvent, 101, 0xa4, 2), data: "0x1234" },
      // A log of another contract: not the venue's, ignored.
      { ...rpcLog(splitEvent, 101, 0xa5, 3), address: address(0xdead) },
      // An orphan fill of zero size: settlement's anomaly.
      rpcLog({ ...zeroFill, taker: address(5) } as VenueEvent, 102, 0xa6, 0),
    ];
    const rejected = [
      {
        source: "rpc eth_getLogs 100-102",
        index: 9,
        issues: [{ path: "/logIndex", message: "expected a hex quantity" }],
        raw: {},
      },
    ];

    const settled = settleChunk({ fromBlock: 100, toBlock: 102, logs, rejected });

    expect(settled.fromBlock).toBe(100);
    expect(settled.toBlock).toBe(102);
    expect(settled.fills.map((f) => [f.wallet, f.role, f.entryType, f.blockNumber, f.logIndex])).toEqual([
      [address(2), "MAKER", "MINT", 100, 0],
      [address(1), "TAKER", "MINT", 100, 1],
    ]);
    expect(settled.others.map((e) => [e.kind, e.address, e.transactionHash])).toEqual([
      ["PositionSplit", CTF, hash32(0xa2)],
    ]);
    expect([...settled.timestamps]).toEqual([[100, 0x6000]]);
    expect(settled.skipped.map((s) => s.origin)).toEqual([
      "rpc eth_getLogs 100-102 row 9",
      `rpc log ${hash32(0xa4)}#2`,
      `rpc log ${hash32(0xa6)}#0`,
    ]);
    expect(settled.skipped[0]?.reason).toBe("/logIndex expected a hex quantity");
    expect(settled.skipped[2]?.reason).toBe("zero size");
  });
});

describe("mergeChunks", () => {
  const chunk = (from: number, to: number, stamp: number): SettledChunk => ({
    fromBlock: from,
    toBlock: to,
    fills: [],
    others: [],
    timestamps: new Map([[from, stamp]]),
    skipped: [{ origin: `chunk ${from}`, reason: "r" }],
  });

  it("joins consecutive chunks into one, from the first's start to the last's end", () => {
    const merged = mergeChunks([chunk(1, 5, 10), chunk(6, 9, 20)]);
    expect([merged.fromBlock, merged.toBlock]).toEqual([1, 9]);
    expect([...merged.timestamps]).toEqual([
      [1, 10],
      [6, 20],
    ]);
    expect(merged.skipped.map((s) => s.origin)).toEqual(["chunk 1", "chunk 6"]);
  });

  it("hands a single chunk back as it is", () => {
    const only = chunk(1, 5, 10);
    expect(mergeChunks([only])).toBe(only);
  });
});
