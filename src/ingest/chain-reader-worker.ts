/**
 * The chain reader's thread (chain-reader.ts): reads the ranges it is asked for with a ChainClient of its own,
 * settles each chunk (settleChunk, src/venue/chain/chunk.ts) and posts it, at most `credits` ahead of what the
 * pipeline has taken.
 */
import { parentPort, workerData } from "node:worker_threads";
import {
  ChainClient,
  chainRateLimits,
  rpcRateShares,
  settleChunk,
  useExtraExchanges,
  type LogFilter,
} from "../venue/index.js";
import type { ChainReaderWorkerData, FromReaderWorker, ToReaderWorker } from "./chain-reader.js";

interface Read {
  readonly controller: AbortController;
  credits: number;
  /** Wakes the read waiting for a credit (or its cancel). */
  wake: (() => void) | null;
}

const port = parentPort;
if (!port) throw new Error("chain-reader-worker runs as a worker thread");
const { config } = workerData as ChainReaderWorkerData;
// The thread has its own copy of the contracts table: VENUE_EXTRA_EXCHANGES is applied to it as to the process's.
useExtraExchanges(config.venue.extraExchanges);
const post = (message: FromReaderWorker) => port.postMessage(message);
const chain = ChainClient.fromConfig(
  config,
  {
    rateLimits: chainRateLimits(rpcRateShares(config.venue.rpcRequestsPerSecond).logs),
    onEvent: (event) => post({ type: "venue", event }),
  },
  { maxBlockSpan: config.ingest.blockSpan },
);
const reads = new Map<number, Read>();

port.on("message", (message: ToReaderWorker) => {
  const read = reads.get(message.id);
  if (message.type === "read") void run(message.id, message.filter, message.credits);
  else if (read && message.type === "credit") read.credits += 1;
  else if (read && message.type === "cancel") read.controller.abort();
  read?.wake?.();
});

async function run(id: number, filter: LogFilter, credits: number): Promise<void> {
  const read: Read = { controller: new AbortController(), credits, wake: null };
  reads.set(id, read);
  const { signal } = read.controller;
  try {
    if (!chain) throw new Error("no VENUE_RPC_URL is configured");
    for await (const chunk of chain.logs(filter, signal)) {
      const settled = settleChunk(chunk);
      while (read.credits === 0 && !signal.aborted) await new Promise<void>((resolve) => (read.wake = resolve));
      if (signal.aborted) return;
      read.credits -= 1;
      post({ type: "chunk", id, chunk: settled });
    }
    post({ type: "done", id });
  } catch (error) {
    if (!signal.aborted)
      post({
        type: "error",
        id,
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      });
  } finally {
    reads.delete(id);
  }
}
