import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "../config/index.js";
import { venueEnvironment, type SimVenue } from "../sim/servers/index.js";
import { blockAt } from "../sim/world/index.js";
import { closeVenues, smallVenue } from "../sim/servers/testing/venues.js";
import { ChainClient, logFilterFor, type LogFilter, type SettledChunk, type VenueHttpEvent } from "../venue/index.js";
import { inlineChainReader, ThreadedChainReader, type ChainReader } from "./chain-reader.js";

let venue: SimVenue;
let config: Config;
let first: number;
let head: number;
const FILTER = logFilterFor([
  "OrderFilledV1",
  "OrdersMatchedV1",
  "OrderFilledV2",
  "OrdersMatchedV2",
  "PositionsConverted",
  "PositionSplit",
  "PositionsMerge",
  "PayoutRedemption",
  "ConditionResolution",
]);

beforeAll(async () => {
  venue = await smallVenue();
  // A narrow span: the world's history takes many chunks.
  config = loadConfig({ ...venueEnvironment(venue.urls), INGEST_BLOCK_SPAN: "100000" });
  first = blockAt(venue.world.start);
  head = await (ChainClient.fromConfig(config) as ChainClient).blockNumber();
});
afterAll(closeVenues);

async function readAll(
  reader: ChainReader,
  filter: LogFilter,
  signal = new AbortController().signal,
): Promise<SettledChunk[]> {
  const chunks: SettledChunk[] = [];
  for await (const chunk of reader.chunks(filter, signal)) chunks.push(chunk);
  return chunks;
}

describe("ThreadedChainReader", () => {
  it("yields, chunk for chunk, what the reader on the pipeline's thread settles", async () => {
    const filter = { ...FILTER, fromBlock: first, toBlock: head };
    const inline = await readAll(
      inlineChainReader(ChainClient.fromConfig(config, {}, { maxBlockSpan: config.ingest.blockSpan }) as ChainClient),
      filter,
    );
    const threaded = new ThreadedChainReader(config);
    try {
      const chunks = await readAll(threaded, filter);
      expect(chunks.length).toBeGreaterThan(5);
      expect(chunks.reduce((n, c) => n + c.fills.length, 0)).toBeGreaterThan(10_000);
      expect(chunks.some((c) => c.others.length > 0)).toBe(true);
      expect(chunks).toEqual(inline);
      // Consecutive chunks cover the range.
      expect(chunks[0]?.fromBlock).toBe(first);
      expect(chunks.at(-1)?.toBlock).toBe(head);
      for (let i = 1; i < chunks.length; i++) expect(chunks[i]?.fromBlock).toBe((chunks[i - 1]?.toBlock as number) + 1);
    } finally {
      await threaded.close();
    }
  }, 60_000);

  it("stops reading when the pipeline leaves a read early, and reads again afterwards", async () => {
    const threaded = new ThreadedChainReader(config);
    try {
      const filter = { ...FILTER, fromBlock: first, toBlock: head };
      let taken = 0;
      for await (const chunk of threaded.chunks(filter, new AbortController().signal)) {
        expect(chunk.fromBlock).toBe(first);
        taken++;
        break;
      }
      expect(taken).toBe(1);
      const again = await readAll(threaded, { ...filter, toBlock: first + 100_000 });
      expect(again.at(-1)?.toBlock).toBe(first + 100_000);
    } finally {
      await threaded.close();
    }
  }, 60_000);

  it("ends a waiting read with its signal's reason when the signal aborts", async () => {
    const threaded = new ThreadedChainReader(config);
    const controller = new AbortController();
    try {
      const reading = (async () => {
        for await (const _chunk of threaded.chunks({ ...FILTER, fromBlock: first, toBlock: head }, controller.signal))
          controller.abort(new Error("stop now"));
      })();
      await expect(reading).rejects.toThrow("stop now");
    } finally {
      await threaded.close();
    }
  }, 60_000);

  describe("against a node that is unavailable once", () => {
    let node: Server;
    let url: string;
    beforeAll(async () => {
      let requests = 0;
      node = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          requests += 1;
          if (requests === 1) res.writeHead(503).end("busy");
          else res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: [] }));
        });
      });
      await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

    it("retries in the worker and reports the retry to the pipeline's thread", async () => {
      const events: VenueHttpEvent[] = [];
      const threaded = new ThreadedChainReader(loadConfig({ VENUE_RPC_URL: url }), (event) => events.push(event));
      try {
        const chunks = await readAll(threaded, { ...FILTER, fromBlock: 0, toBlock: 100 });
        expect(chunks.map((c) => [c.fromBlock, c.toBlock, c.fills.length])).toEqual([[0, 100, 0]]);
        expect(events).toEqual([expect.objectContaining({ type: "retry", client: "rpc", attempt: 1, status: 503 })]);
      } finally {
        await threaded.close();
      }
    }, 30_000);
  });

  describe("against a node that answers with an error", () => {
    let node: Server;
    let url: string;
    beforeAll(async () => {
      node = createServer((req, res) => {
        req.resume();
        req.on("end", () =>
          res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "header not found" } })),
        );
      });
      await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

    it("fails the read with the node's error, in the pipeline's thread", async () => {
      const threaded = new ThreadedChainReader(loadConfig({ VENUE_RPC_URL: url }));
      try {
        await expect(readAll(threaded, { ...FILTER, fromBlock: 0, toBlock: 100 })).rejects.toThrow(
          "eth_getLogs: JSON-RPC error -32000: header not found",
        );
      } finally {
        await threaded.close();
      }
    }, 30_000);
  });
});
