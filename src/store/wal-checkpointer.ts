/**
 * SQLite WAL checkpoints on a second thread. A checkpoint copies the pages a write appended to the WAL back into
 * the database file and syncs it; run by the writing connection (SQLite's auto-checkpoint), it stalls the event
 * loop for the whole copy: a quarter of a fills backfill's time (measured). A worker thread with its own connection
 * runs PASSIVE checkpoints every CHECKPOINT_INTERVAL_MS instead, on the other core; PASSIVE never waits for readers or
 * writers and never makes them wait. The writing connection keeps an auto-checkpoint at a higher mark as a safety net
 * (the worker lags or is gone), so the WAL stays bounded either way.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker checkpoints; a checkpoint with nothing to copy costs microseconds. */
const CHECKPOINT_INTERVAL_MS = 100;

/** The worker's source, evaluated as a script: it loads the same driver the store uses, by resolved path. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
let timer;
const checkpoint = () => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // Retried at the next interval; the writing connection's own mark bounds the WAL meanwhile.
  }
  timer = setTimeout(checkpoint, workerData.intervalMs);
};
timer = setTimeout(checkpoint, workerData.intervalMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(sqlitePath: string) {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, path: sqlitePath, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    // It must not keep a process alive that is otherwise done.
    this.worker.unref();
    // A worker that could not start (or died) leaves checkpoints to the writing connection's own mark.
    this.worker.on("error", () => undefined);
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
  }

  /** Closes the worker's connection (before the store's own, which then removes the WAL as the last one out). */
  async close(): Promise<void> {
    // Referenced again, or a process with nothing else to do would exit before the worker has closed.
    this.worker.ref();
    this.worker.postMessage("close");
    await this.exited;
  }
}
