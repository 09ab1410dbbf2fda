/**
 * SQLite WAL checkpoints on a second thread. A checkpoint copies the pages a write appended to the WAL back into
 * the database file and syncs it; run by the writing connection (SQLite's auto-checkpoint), it stalls the event
 * loop for the whole copy: a quarter of a fills backfill's time (measured). A worker thread with a connection per
 * store runs PASSIVE checkpoints instead, on the other core; PASSIVE never waits for readers or writers and never
 * makes them wait. The writing connection keeps an auto-checkpoint at a higher mark as a safety net (the worker
 * lags or is gone), so the WAL stays bounded either way.
 *
 * One worker serves every store of a thread: a worker of its own per store cost about 100 ms of processor time to
 * start, which a process opening many stores (the tests) paid hundreds of times.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often each store is checkpointed; a checkpoint with nothing to copy costs little. */
const CHECKPOINT_INTERVAL_MS = 100;

/** The worker's source, evaluated as a script: it loads the same driver the store uses, by resolved path. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const stores = new Map();
const look = (id) => {
  const store = stores.get(id);
  if (!store) return;
  try {
    store.db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // Looked at again later; the writing connection's own mark bounds the WAL meanwhile.
  }
  store.timer = setTimeout(look, workerData.intervalMs, id);
};
parentPort.on("message", (message) => {
  if (message.open !== undefined) {
    try {
      const db = new Database(message.path, { fileMustExist: true });
      db.pragma("synchronous = NORMAL");
      stores.set(message.open, { db, timer: setTimeout(look, workerData.intervalMs, message.open) });
    } catch {
      // This store's checkpoints are left to its writing connection.
    }
  } else {
    const store = stores.get(message.close);
    stores.delete(message.close);
    if (store) {
      clearTimeout(store.timer);
      store.db.close();
    }
    parentPort.postMessage({ closed: message.close });
  }
});
`;

/** The thread's one checkpoint worker, started with its first store. */
class CheckpointThread {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly closing = new Map<number, () => void>();
  private gone = false;

  constructor(onExit: () => void) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    // It must not keep a process alive that is otherwise done.
    this.worker.unref();
    this.worker.on("message", (message: { closed: number }) => this.settle(message.closed));
    // A worker that could not start (or died) leaves checkpoints to the writing connections' own marks.
    this.worker.on("error", () => undefined);
    this.worker.once("exit", () => {
      this.gone = true;
      onExit();
      for (const id of [...this.closing.keys()]) this.settle(id);
    });
  }

  open(path: string): number {
    const id = this.nextId++;
    if (!this.gone) this.worker.postMessage({ open: id, path });
    return id;
  }

  /** Closes the worker's connection to the store (before the store's own, which then removes the WAL as the last one out). */
  close(id: number): Promise<void> {
    if (this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      this.closing.set(id, resolve);
      // Referenced while a close waits, or a process with nothing else to do would exit before the worker answered.
      this.worker.ref();
      this.worker.postMessage({ close: id });
    });
  }

  private settle(id: number): void {
    this.closing.get(id)?.();
    this.closing.delete(id);
    if (this.closing.size === 0 && !this.gone) this.worker.unref();
  }
}

let thread: CheckpointThread | null = null;

export class WalCheckpointer {
  private readonly thread: CheckpointThread;
  private readonly id: number;

  constructor(sqlitePath: string) {
    thread ??= new CheckpointThread(() => {
      thread = null;
    });
    this.thread = thread;
    this.id = thread.open(sqlitePath);
  }

  /** Closes the worker's connection to this store; the worker stays for the thread's other stores. */
  close(): Promise<void> {
    return this.thread.close(this.id);
  }
}
