/**
 * Role all's ingest in a worker thread of its own (ingest-thread.ts), so that no request waits behind its work:
 * fetching and settling batches, committing them, the derivation's refreshes and rebuild steps, the first sync's
 * wallet syncs and the territory geometry all run there, on a store connection of the thread's own, while this
 * thread only serves. What crosses back is small: the live feed's messages for the streams (on the in-process
 * platform; with Redis both threads use Redis), and the thread's metric families for /metrics.
 *
 * A thread that dies leaves the ingest stopped and its state unknown; the process then exits with code 1 for its
 * supervisor to restart it, as the process guard does for an uncaught error (ingest is resumable).
 */
import { Worker } from "node:worker_threads";
import type { Config } from "../config/index.js";
import type { Platform } from "../platform/index.js";
import type { Logger } from "../platform/logger.js";
import type { ThreadMetrics } from "../platform/metrics.js";
import { workerEntry } from "../platform/worker-entry.js";

export interface IngestWorkerData {
  readonly config: Config;
  /** Whether the thread posts what it publishes to this thread (the in-process platform). */
  readonly forwardsPublishes: boolean;
}

export type ToIngestThread = { readonly type: "metrics"; readonly id: number } | { readonly type: "stop" };

export type FromIngestThread =
  | { readonly type: "started" }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "publish"; readonly channel: string; readonly message: string }
  | { readonly type: "metrics"; readonly id: number; readonly families: ThreadMetrics };

const THREAD_ENTRY = workerEntry("runtime/ingest-thread");

export class IngestWorker {
  private readonly pendingMetrics = new Map<number, (families: ThreadMetrics) => void>();
  private nextId = 1;
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly exited: Promise<number>,
  ) {}

  /** Starts the thread and resolves once its ingest runs; rejects with the thread's error if it could not start. */
  static start(config: Config, platform: Platform, logger: Logger): Promise<IngestWorker> {
    const data: IngestWorkerData = { config, forwardsPublishes: platform.kind === "memory" };
    const worker = new Worker(THREAD_ENTRY, { workerData: data });
    const exited = new Promise<number>((resolve) => worker.once("exit", resolve));
    const handle = new IngestWorker(worker, exited);
    return new Promise<IngestWorker>((resolve, reject) => {
      let started = false;
      worker.on("message", (message: FromIngestThread) => {
        if (message.type === "started") {
          started = true;
          resolve(handle);
        } else if (message.type === "failed") reject(new Error(message.message));
        else if (message.type === "publish") void platform.pubsub.publish(message.channel, message.message);
        else if (message.type === "metrics") handle.settleMetrics(message.id, message.families);
      });
      worker.on("error", (error) => {
        if (!started) reject(error);
        else logger.fatal({ err: error }, "the ingest thread failed");
      });
      void exited.then((code) => {
        if (!started) return reject(new Error(`the ingest thread exited with code ${code} before it started`));
        if (handle.stopping) return;
        logger.fatal(
          { code },
          "the ingest thread stopped on its own; exiting for the supervisor to restart the process",
        );
        process.exit(1);
      });
    });
  }

  /** The thread's metric families (none if it does not answer within a second: /metrics answers regardless). */
  metrics(): Promise<ThreadMetrics> {
    if (this.stopping) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise<ThreadMetrics>((resolve) => {
      const timer = setTimeout(() => this.settleMetrics(id, []), 1_000);
      this.pendingMetrics.set(id, (families) => {
        clearTimeout(timer);
        resolve(families);
      });
      this.worker.postMessage({ type: "metrics", id } satisfies ToIngestThread);
    });
  }

  /** Stops the ingest between two batches, closes the thread's store and waits for the thread to end. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.worker.postMessage({ type: "stop" } satisfies ToIngestThread);
      await this.exited;
      for (const id of [...this.pendingMetrics.keys()]) this.settleMetrics(id, []);
    })();
    return this.stopping;
  }

  private settleMetrics(id: number, families: ThreadMetrics): void {
    const settle = this.pendingMetrics.get(id);
    this.pendingMetrics.delete(id);
    settle?.(families);
  }
}
