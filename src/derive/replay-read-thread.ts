/**
 * A replay's read thread (replay-reads.ts), on read-only connections of its own: the pages of one stream of every
 * wallet's fills at a time, at most `credits` pages ahead of what the replay has taken, each page's buffer handed
 * over without a copy; or every wallet's ring volume from one pass over the fills.
 */
import { parentPort } from "node:worker_threads";
import SqliteDatabase from "better-sqlite3";
import { pageCursor, readFillPage, type FillPageCursor } from "./fill-pages.js";
import type { FromReadThread, ToReadThread } from "./replay-reads.js";
import { everyWalletsRingVolumes } from "./wash-legs.js";

/**
 * A read connection maps the file (as far as SQLite's build allows: 2 GiB): every wallet's fills are rows scattered
 * over a table stored in time order, and a read through the page cache copied each page it visited (measured on the
 * 10,000,000-fill world: 2,000,000 rows in wallet order 12.8-16.6 s through the page cache, 8.0 s mapped).
 */
const MAPPED_BYTES = 1 << 40;

interface Read {
  readonly id: number;
  readonly handle: SqliteDatabase.Database;
  readonly plan: Extract<ToReadThread, { type: "pages" }>["plan"];
  credits: number;
  cursor: FillPageCursor | null;
  scheduled: boolean;
}

const port = parentPort;
if (!port) throw new Error("replay-read-thread runs as a worker thread");
const post = (message: FromReadThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
let read: Read | null = null;

function connect(path: string): SqliteDatabase.Database {
  const handle = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  handle.pragma(`mmap_size = ${MAPPED_BYTES}`);
  return handle;
}

function finish(): void {
  read?.handle.close();
  read = null;
}

function pump(): void {
  const current = read;
  if (!current) return;
  current.scheduled = false;
  if (current.credits <= 0) return;
  try {
    const page = readFillPage(current.handle, current.plan, current.cursor);
    current.credits--;
    const last = page.rows < current.plan.pageRows;
    // Before the page's buffer is handed over (it is then empty here).
    current.cursor = pageCursor(page);
    post({ type: "page", id: current.id, page, last }, [page.values.buffer as ArrayBuffer]);
    if (last) return finish();
  } catch (error) {
    post({ type: "error", id: current.id, message: (error as Error).message });
    return finish();
  }
  schedule();
}

/** The next page after the event loop has turned, so that a cancel or a credit is seen between pages. */
function schedule(): void {
  if (read && !read.scheduled && read.credits > 0) {
    read.scheduled = true;
    setImmediate(pump);
  }
}

function ringVolumes(message: Extract<ToReadThread, { type: "rings" }>): void {
  let handle: SqliteDatabase.Database | null = null;
  try {
    handle = connect(message.path);
    handle.pragma(`cache_size = -${message.sortCacheMb * 1024}`);
    const volumes = everyWalletsRingVolumes(handle, message.cfg);
    const values = Float64Array.from(volumes.values(), (volume) => volume ?? Number.NaN);
    post({ type: "rings", id: message.id, wallets: [...volumes.keys()], volumes: values }, [values.buffer]);
  } catch (error) {
    post({ type: "error", id: message.id, message: (error as Error).message });
  } finally {
    handle?.close();
  }
}

port.on("message", (message: ToReadThread) => {
  if (message.type === "rings") return ringVolumes(message);
  if (message.type === "pages") {
    finish();
    try {
      read = {
        id: message.id,
        handle: connect(message.path),
        plan: message.plan,
        credits: message.credits,
        cursor: null,
        scheduled: false,
      };
    } catch (error) {
      post({ type: "error", id: message.id, message: (error as Error).message });
      return;
    }
  } else if (message.type === "credit") {
    if (read?.id === message.id) read.credits++;
  } else if (read?.id === message.id) finish();
  schedule();
});
