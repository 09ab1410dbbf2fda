/**
 * The window aggregates (src/analytics/windows/window-aggregates.ts) computed in a worker thread with its own connection to
 * the store (aggregates-thread.ts), so that their reads and sums (0.1-0.8 s at each window's boundary on the
 * 10,000,000-fill world, in slices of 13-25 ms and a few single blocks of 40-110 ms) never hold the event loop that
 * answers requests. Only the small values cross back. A thread that dies fails the computations under way (the
 * warm-up logs it and the next request computes in its place); the next computation starts a new thread.
 */
import { workerEntry } from "../platform/worker-entry.js";
import { Worker } from "node:worker_threads";
import type { AggregateComputer, AggregateName, AggregateValue } from "../analytics/windows/window-aggregates.js";
import type { Config } from "../config/index.js";

export interface AggregatesWorkerData {
  readonly config: Config;
}

export type ToAggregatesThread =
  | { readonly type: "compute"; readonly id: number; readonly name: AggregateName; readonly now: number }
  | { readonly type: "close" };

export type FromAggregatesThread =
  | { readonly type: "value"; readonly id: number; readonly value: unknown }
  | { readonly type: "error"; readonly id: number; readonly name: string; readonly message: string };

/** The thread's entry: aggregates-thread compiled, or its shim that loads the TypeScript source. */
const THREAD_ENTRY = workerEntry("runtime/aggregates-thread");
/** How long closing waits for the thread to close its store before it is stopped. */
const CLOSE_WAIT_MS = 2_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class WorkerAggregates implements AggregateComputer {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly config: Config) {}

  compute<N extends AggregateName>(name: N, now: number): Promise<AggregateValue<N>> {
    if (this.closed) return Promise.reject(new Error("the aggregates thread is closed"));
    const worker = this.started();
    const id = this.nextId++;
    worker.ref();
    return new Promise<AggregateValue<N>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const message: ToAggregatesThread = { type: "compute", id, name, now };
      worker.postMessage(message);
    });
  }

  /** Lets the thread close its store, then stops it; what is under way fails. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ type: "close" } satisfies ToAggregatesThread);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const data: AggregatesWorkerData = { config: this.config };
    const worker = new Worker(THREAD_ENTRY, { workerData: data });
    worker.unref();
    worker.on("message", (message: FromAggregatesThread) => this.settle(message));
    worker.on("error", (error) => this.drop(worker, error));
    worker.on("exit", (code) => this.drop(worker, new Error(`exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private settle(message: FromAggregatesThread): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (message.type === "value") pending.resolve(message.value);
    else pending.reject(Object.assign(new Error(message.message), { name: message.name }));
  }

  private drop(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new Error(`aggregates thread: ${error.message}`));
  }
}
