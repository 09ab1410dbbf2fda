/**
 * COPY ... FROM STDIN (text format) through a plain `pg` client, without pg-copy-streams: a "submittable"
 * query object, the protocol `pg` itself offers for custom queries (its client calls submit, then
 * handleCopyInResponse when the server is ready for data, then handleCommandComplete / handleError and
 * handleReadyForQuery).
 *
 * Rows are formatted a chunk at a time once the server is ready, each chunk sent before the next is formatted, so
 * that the server parses and indexes one chunk while this process formats the next (on the other core): formatting
 * everything first left each side idle while the other worked (measured: this process 42% idle in a backfill).
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import type pg from "pg";
import { rowBinder } from "./row-values.js";

/** About 250 KB of fills per COPY data message. */
const ROWS_PER_CHUNK = 500;

interface CopyConnection {
  readonly stream: Writable;
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

class CopyFromStdin implements pg.Submittable {
  private settled = false;
  private rowCount = 0;
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: unknown) => void;

  constructor(
    private readonly text: string,
    private readonly chunks: Iterable<Buffer>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    (connection as unknown as CopyConnection).query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    void this.send(connection);
  }

  private async send(connection: CopyConnection): Promise<void> {
    try {
      for (const chunk of this.chunks) {
        // The server refused the data (a duplicate key): the rest would only be discarded.
        if (this.settled) return;
        connection.sendCopyFromChunk(chunk);
        if (connection.stream.writableNeedDrain) await once(connection.stream, "drain");
        else await new Promise((resolve) => setImmediate(resolve));
      }
      connection.endCopyFrom();
    } catch (error) {
      // The server answers CopyFail with an error, which rejects `done`.
      connection.sendCopyFail(`copy aborted: ${(error as Error).message}`);
    }
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rowCount = Number(/(\d+)\s*$/.exec(message.text ?? "")?.[1] ?? 0);
  }

  // `pg` detaches the query on an error, so ReadyForQuery never reaches it afterwards: settle on either, once.
  handleError(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.rowCount);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
  handleCopyData(): void {}
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** A value in COPY text format: `\N` for null, backslash escapes for the characters the format reserves. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number") return String(value);
  const text = typeof value === "string" ? value : String(value);
  return NEEDS_ESCAPE.test(text) ? text.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : text;
}

/** Quotes an identifier we generate ourselves (table and column names of the schema). */
export function sqlIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}

/** The rows in COPY text format, `ROWS_PER_CHUNK` lines per buffer, formatted as they are taken. */
function* copyChunks(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Generator<Buffer> {
  const bind = rowBinder(columns);
  const values = new Array<unknown>(columns.length);
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    const chunk = new ChunkBuilder();
    const end = Math.min(rows.length, start + ROWS_PER_CHUNK);
    for (let i = start; i < end; i++) {
      bind(rows[i] as Record<string, unknown>, values);
      for (let c = 0; c < values.length; c++) {
        if (c > 0) chunk.byte(TAB);
        chunk.value(values[c]);
      }
      chunk.byte(NEWLINE);
    }
    yield chunk.done();
  }
}

const TAB = 0x09;
const NEWLINE = 0x0a;
const DIGIT_ZERO = 0x30;
const MINUS = 0x2d;

/**
 * One COPY data message, written straight into a buffer: integers digit by digit, strings by `Buffer.write`.
 * Building the text as a string first made about 40 short-lived strings per fill (a quarter of a PostgreSQL
 * backfill's CPU went to garbage collection) and one large flat copy per chunk.
 */
class ChunkBuilder {
  private buffer = Buffer.allocUnsafe(256 * 1024);
  private length = 0;

  byte(code: number): void {
    this.reserve(1);
    this.buffer[this.length++] = code;
  }

  value(value: unknown): void {
    if (typeof value === "number" && Number.isSafeInteger(value)) return this.integer(value);
    const text = copyText(value);
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, "utf8");
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private integer(value: number): void {
    this.reserve(17);
    if (value < 0) {
      this.buffer[this.length++] = MINUS;
      value = -value;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = this.length + digits - 1;
    for (let rest = value; ; at--) {
      const next = Math.floor(rest / 10);
      this.buffer[at] = DIGIT_ZERO + (rest - next * 10);
      if (next === 0) break;
      rest = next;
    }
    this.length += digits;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}

/** Runs `copy <table> (<columns>) from stdin` with the rows' values; resolves with the row count the server reports. */
export async function copyRows(client: pg.PoolClient, statement: string, columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Promise<number> {
  const copy = new CopyFromStdin(statement, copyChunks(columns, rows));
  client.query(copy);
  return copy.done;
}
