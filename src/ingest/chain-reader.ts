/**
 * Where the chain pipeline gets its settled chunks (settleChunk, src/venue/chain/chunk.ts): read on its own thread
 * (`inlineChainReader`), or on a worker thread (`ThreadedChainReader`, INGEST_READ_THREAD), which fetches, parses,
 * shape-checks, decodes and settles while the pipeline's thread writes: about half of the ingest's CPU a fill moves
 * off the writer's thread.
 * The worker has its own ChainClient built from the configuration (chain-reader-worker.ts), paced at its share
 * of the RPC rate (rpcRateShares); what crosses the threads is the settled fills (a structured clone costs about
 * 1 µs a fill, a decoded log 4).
 */
import { workerEntry } from "../platform/worker-entry.js";
import { Worker } from "node:worker_threads";
import type { Config } from "../config/index.js";
import {
  settleChunk,
  type ChainClient,
  type LogFilter,
  type SettledChunk,
  type VenueHttpEvent,
} from "../venue/index.js";

export interface ChainReader {
  /** The settled chunks of the filter's block range, oldest first. */
  chunks(filter: LogFilter, signal: AbortSignal): AsyncIterable<SettledChunk>;
  close(): Promise<void>;
}

export function inlineChainReader(chain: ChainClient): ChainReader {
  return {
    async *chunks(filter, signal) {
      for await (const chunk of chain.logs(filter, signal)) yield settleChunk(chunk);
    },
    close: async () => undefined,
  };
}

/** What the worker is built from: plain data, cloned into it. */
export interface ChainReaderWorkerData {
  readonly config: Pick<Config, "venue" | "ingest">;
}

export type ToReaderWorker =
  | { readonly type: "read"; readonly id: number; readonly filter: LogFilter; readonly credits: number }
  | { readonly type: "credit"; readonly id: number }
  | { readonly type: "cancel"; readonly id: number };

export type FromReaderWorker =
  | { readonly type: "chunk"; readonly id: number; readonly chunk: SettledChunk }
  | { readonly type: "done"; readonly id: number }
  | { readonly type: "error"; readonly id: number; readonly name: string; readonly message: string }
  /** A retry or give-up of the worker's HTTP client, for the pipeline's thread to log as its own clients' are. */
  | { readonly type: "venue"; readonly event: VenueHttpEvent };

/** The messages of one read. */
type ReadMessage = Exclude<FromReaderWorker, { readonly type: "venue" }>;

/**
 * Chunks the worker may settle ahead of the pipeline: one being written, one ready; the worker's ChainClient
 * keeps its own two ranges requested ahead meanwhile.
 */
const CHUNKS_AHEAD = 2;

/** The worker's entry: chain-reader-worker compiled, or its shim that loads the TypeScript source. */
const WORKER_ENTRY = workerEntry("ingest/chain-reader-worker");

/** Messages of one read, and the pipeline waiting for the next. */
class Inbox {
  private readonly queue: ReadMessage[] = [];
  private waiter: ((message: ReadMessage) => void) | null = null;

  push(message: ReadMessage): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(message);
    } else this.queue.push(message);
  }

  next(signal: AbortSignal): Promise<ReadMessage> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiter = null;
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiter = (message) => {
        signal.removeEventListener("abort", onAbort);
        resolve(message);
      };
    });
  }
}

export class ThreadedChainReader implements ChainReader {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly reads = new Map<number, Inbox>();

  constructor(
    private readonly config: Pick<Config, "venue" | "ingest">,
    private readonly onVenueEvent: (event: VenueHttpEvent) => void = () => undefined,
  ) {}

  async *chunks(filter: LogFilter, signal: AbortSignal): AsyncGenerator<SettledChunk, void, undefined> {
    const worker = this.started();
    const id = ++this.nextId;
    const inbox = new Inbox();
    this.reads.set(id, inbox);
    // Referenced while a read waits on it, so that the process does not exit under the pipeline.
    worker.ref();
    this.post({ type: "read", id, filter, credits: CHUNKS_AHEAD });
    let finished = false;
    try {
      for (;;) {
        const message = await inbox.next(signal);
        if (message.type === "chunk") {
          yield message.chunk;
          this.post({ type: "credit", id });
          continue;
        }
        finished = true;
        if (message.type === "done") return;
        throw Object.assign(new Error(message.message), { name: message.name });
      }
    } finally {
      this.reads.delete(id);
      if (!finished) this.post({ type: "cancel", id });
      if (this.reads.size === 0) this.worker?.unref();
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.dropWorker(worker, new Error("closed"));
    await worker.terminate();
  }

  private post(message: ToReaderWorker): void {
    this.worker?.postMessage(message);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const data: ChainReaderWorkerData = { config: { venue: this.config.venue, ingest: this.config.ingest } };
    const worker = new Worker(WORKER_ENTRY, { workerData: data });
    worker.unref();
    worker.on("message", (message: FromReaderWorker) => {
      if (message.type === "venue") this.onVenueEvent(message.event);
      else this.reads.get(message.id)?.push(message);
    });
    // A worker that dies fails the reads under way; the next read starts a new one.
    worker.on("error", (error) => this.dropWorker(worker, error));
    worker.on("exit", (code) => this.dropWorker(worker, new Error(`exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private dropWorker(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const [id, inbox] of this.reads)
      inbox.push({ type: "error", id, name: error.name, message: `chain reader thread: ${error.message}` });
  }
}
