/**
 * COPY ... FROM STDIN (text format) through a plain `pg` client, without pg-copy-streams: a "submittable"
 * query object, the protocol `pg` itself offers for custom queries (its client calls submit, then
 * handleCopyInResponse when the server is ready for data, then handleCommandComplete / handleError and
 * handleReadyForQuery).
 */
import type pg from "pg";

const CHUNK_BYTES = 1 << 16;

interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyFromStdin implements pg.Submittable {
  private settled = false;
  private rowCount = 0;
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: unknown) => void;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
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
    for (let offset = 0; offset < this.data.length; offset += CHUNK_BYTES) {
      connection.sendCopyFromChunk(this.data.subarray(offset, offset + CHUNK_BYTES));
    }
    connection.endCopyFrom();
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

/** A value in COPY text format: `\N` for null, backslash escapes for the characters the format reserves. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  const text = typeof value === "string" ? value : String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : text;
}

/** Quotes an identifier we generate ourselves (table and column names of the schema). */
export function sqlIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}

/** Runs `copy <table> (<columns>) from stdin` with the rows' values; resolves with the row count the server reports. */
export async function copyRows(client: pg.PoolClient, statement: string, columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Promise<number> {
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    lines[i] = columns.map((c) => copyText(row[c])).join("\t");
  }
  const copy = new CopyFromStdin(statement, Buffer.from(lines.join("\n") + "\n", "utf8"));
  client.query(copy);
  return copy.done;
}
