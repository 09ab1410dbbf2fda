/**
 * The form every kept answer takes: its JSON serialized once, with its gzip form and ETag made on first need
 * (src/kept/send-serialized.ts sends it; src/api/etag.ts answers If-None-Match with the ETag it keeps).
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { type OpenGzip, openGzip } from "./gzip-tail.js";

/** A strong ETag of these bytes: a quoted SHA-1, base64url (27 characters). */
export function strongEtag(bytes: Buffer | string): string {
  return `"${createHash("sha1").update(bytes).digest("base64url")}"`;
}

/** The ETag of the gzip form of an answer whose JSON has `etag`. */
export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}-gz"`;
}

const BODY_OVERHEAD_BYTES = 512;

/**
 * A JSON answer serialized once and kept: sent as it is, or gzip-compressed for clients that accept it. The
 * compressed form and the ETag are made on first need and kept with it, so a kept answer is compressed and hashed
 * once, not per request.
 */
export class SerializedBody {
  private gzipped: Buffer | undefined;
  private opened: OpenGzip | undefined;
  private hashed: string | undefined;

  constructor(
    readonly json: Buffer,
    /** Smaller answers are never compressed (GZIP_MIN_BYTES; 0: none is). */
    private readonly gzipMinBytes: number,
    /** The head of answers that each request ends with its own tail (src/kept/gzip-tail.ts): kept open, not gzipped. */
    readonly openEnded = false,
  ) {}

  /**
   * The JSON gets a memory block of its own: a short Buffer.from slice would hold a whole shared 8 KiB pool block
   * for as long as it is kept, beyond what the cache that keeps it counts.
   */
  static of(text: string, gzipMinBytes: number, openEnded = false): SerializedBody {
    const json = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    json.write(text);
    return new SerializedBody(json, gzipMinBytes, openEnded);
  }

  get compressible(): boolean {
    return this.gzipMinBytes > 0 && this.json.length >= this.gzipMinBytes;
  }

  /**
   * The memory this answer holds once kept: its JSON, its gzip form when it may be sent compressed (made here, once,
   * so that its real size is charged: an upper bound of twice the JSON let a cache hold half the answers it had room
   * for), and its objects (measured about 300 bytes on the heap, and the memory blocks' bookkeeping outside it).
   */
  get keptBytes(): number {
    if (!this.compressible) return BODY_OVERHEAD_BYTES + this.json.length;
    const compressed = this.openEnded ? this.openGzip().start : this.gzip();
    return BODY_OVERHEAD_BYTES + this.json.length + compressed.length;
  }

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json));
  }

  /** The gzip form left open for a tail, made on first need. */
  openGzip(): OpenGzip {
    return (this.opened ??= openGzip(this.json));
  }

  /** The strong ETag of the JSON, hashed once for as long as the answer is kept. */
  get etag(): string {
    return (this.hashed ??= strongEtag(this.json));
  }

  /** The ETag of the gzip form. */
  get gzipEtag(): string {
    return gzipEtag(this.etag);
  }
}
