/**
 * A rebuild's reads of a SQLite file on threads of their own (replay-read-thread.ts), so that they overlap the
 * replay's work on the other core, as a PostgreSQL server's reads do:
 * - the pages of every wallet's fills (fill-pages.ts), read ahead of the page the replay applies;
 * - every wallet's wash-ring volume (wash-legs.ts), one pass over the fills sorted by SQLite, started before the
 *   replay and taken after it.
 * One thread per kind and process, one job at a time (another at the same time runs on its caller's thread, as does
 * a store in memory: another connection would not see it); started with its first job, left idle (unreferenced) after.
 */
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";
import type { LedgerConfig } from "../ledger/index.js";
import { workerEntry } from "../platform/worker-entry.js";
import { withSqliteCacheMb } from "../store/database.js";
import { pageCursor, readFillPage, type FillPage, type FillPageCursor, type FillPagePlan } from "./fill-pages.js";
import { everyWalletsRingVolumes } from "./wash-legs.js";

export type ToReadThread =
  | {
      readonly type: "pages";
      readonly id: number;
      readonly path: string;
      readonly plan: FillPagePlan;
      readonly credits: number;
    }
  | { readonly type: "credit"; readonly id: number }
  | { readonly type: "cancel"; readonly id: number }
  | {
      readonly type: "rings";
      readonly id: number;
      readonly path: string;
      readonly cfg: LedgerConfig["farmer"];
      readonly sortCacheMb: number;
    };

export type FromReadThread =
  | { readonly type: "page"; readonly id: number; readonly page: FillPage; readonly last: boolean }
  | { readonly type: "rings"; readonly id: number; readonly wallets: string[]; readonly volumes: Float64Array }
  | { readonly type: "error"; readonly id: number; readonly message: string };

/** Pages read ahead of the one the replay works on. */
const PAGES_AHEAD = 2;

const THREAD_ENTRY = workerEntry("derive/replay-read-thread");

/** One stream's pages, in order; `next` after the last page gives null. */
export interface FillPages {
  next(): Promise<FillPage | null>;
  /** Stops reading (a stream left before its end). */
  close(): void;
}

/** The pages of every wallet's fills in the plan's scope. */
export function readFillPages(handle: SqliteDatabase.Database, plan: FillPagePlan): FillPages {
  const job = handle.memory
    ? null
    : pageThread.start((id) => ({ type: "pages", id, path: handle.name, plan, credits: PAGES_AHEAD }));
  return job ? new ThreadPages(job) : new SameThreadPages(handle, plan);
}

/**
 * Every wallet's ring volume (`WashLegs.ringVolume`) by address, from one pass over the fills, the pass's page cache
 * at `sortCacheMb` (it sizes the sorter's runs).
 */
export async function readRingVolumes(
  handle: SqliteDatabase.Database,
  cfg: LedgerConfig["farmer"],
  sortCacheMb: number,
): Promise<Map<string, number | null>> {
  const job = handle.memory
    ? null
    : ringThread.start((id) => ({ type: "rings", id, path: handle.name, cfg, sortCacheMb }));
  if (!job) return withSqliteCacheMb(handle, sortCacheMb, async () => everyWalletsRingVolumes(handle, cfg));
  try {
    const message = await job.next();
    if (message.type !== "rings")
      throw new Error(`replay read thread: ${message.type === "error" ? message.message : "no ring volumes"}`);
    return new Map(
      message.wallets.map((wallet, i) => [wallet, Number.isNaN(message.volumes[i]!) ? null : message.volumes[i]!]),
    );
  } finally {
    job.close();
  }
}

class SameThreadPages implements FillPages {
  private cursor: FillPageCursor | null = null;
  private done = false;

  constructor(
    private readonly handle: SqliteDatabase.Database,
    private readonly plan: FillPagePlan,
  ) {}

  async next(): Promise<FillPage | null> {
    if (this.done) return null;
    const page = readFillPage(this.handle, this.plan, this.cursor);
    this.cursor = pageCursor(page);
    this.done = page.rows < this.plan.pageRows;
    return page;
  }

  close(): void {
    this.done = true;
  }
}

class ThreadPages implements FillPages {
  private done = false;

  constructor(private readonly job: ThreadJob) {}

  async next(): Promise<FillPage | null> {
    if (this.done) return null;
    const message = await this.job.next();
    if (message.type !== "page") {
      this.close();
      throw new Error(`replay read thread: ${message.type === "error" ? message.message : "not a page"}`);
    }
    if (message.last) this.close();
    else this.job.post({ type: "credit", id: this.job.id });
    return message.page;
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    this.job.close();
  }
}

/** A job's messages from its thread, and the caller waiting for the next. */
class ThreadJob {
  private readonly queue: FromReadThread[] = [];
  private waiter: ((message: FromReadThread) => void) | null = null;

  constructor(
    private readonly thread: ReadThread,
    readonly id: number,
  ) {}

  push(message: FromReadThread): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(message);
    } else this.queue.push(message);
  }

  next(): Promise<FromReadThread> {
    const queued = this.queue.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiter = resolve));
  }

  post(message: ToReadThread): void {
    this.thread.post(message);
  }

  close(): void {
    this.thread.ended(this);
  }
}

class ReadThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private current: ThreadJob | null = null;

  /** Starts a job on the thread; null while another job has it. */
  start(message: (id: number) => ToReadThread): ThreadJob | null {
    if (this.current) return null;
    const worker = this.started();
    const job = new ThreadJob(this, ++this.nextId);
    this.current = job;
    // Referenced while a job runs, so that the process does not exit under the rebuild.
    worker.ref();
    this.post(message(job.id));
    return job;
  }

  post(message: ToReadThread): void {
    this.worker?.postMessage(message);
  }

  ended(job: ThreadJob): void {
    if (this.current !== job) return;
    this.post({ type: "cancel", id: job.id });
    this.current = null;
    this.worker?.unref();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_ENTRY);
    worker.unref();
    worker.on("message", (message: FromReadThread) => {
      if (this.current?.id === message.id) this.current.push(message);
    });
    // A thread that dies fails the job under way; the next job starts a new thread.
    const drop = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.current?.push({ type: "error", id: this.current.id, message: error.message });
      this.current = null;
    };
    worker.on("error", drop);
    worker.on("exit", (code) => drop(new Error(`exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}

const pageThread = new ReadThread();
const ringThread = new ReadThread();
