/**
 * A gzip answer whose head is kept and whose last few bytes change per request (a search's `_elapsed_ms`). The head
 * is deflated once and flushed to a byte boundary without a last block (Z_SYNC_FLUSH), so each request only appends
 * its tail as stored (uncompressed) deflate blocks, the last one final, and the gzip trailer: the CRC-32 of the whole
 * JSON, continued from the head's, and its length. The result is one ordinary gzip member (RFC 1951, RFC 1952) that
 * any client unpacks; compressing the whole answer per request would cost more than the search itself.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

/** ID1 ID2, CM = deflate, no flags, no mtime, no extra flags, OS = unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const STORED_BLOCK_MAX = 0xffff;

/** A head deflated once and left open for a tail. */
export interface OpenGzip {
  /** The gzip header and the head's deflate blocks, ending on a byte boundary. */
  readonly start: Buffer;
  readonly crc: number;
  readonly length: number;
}

export function openGzip(head: Buffer): OpenGzip {
  const blocks = deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
  return { start: Buffer.concat([GZIP_HEADER, blocks]), crc: crc32(head), length: head.length };
}

/** The complete gzip member of the head followed by `tail`. */
export function closeGzip(open: OpenGzip, tail: Buffer): Buffer {
  const blockCount = Math.max(1, Math.ceil(tail.length / STORED_BLOCK_MAX));
  const out = Buffer.allocUnsafe(open.start.length + blockCount * 5 + tail.length + 8);
  let at = open.start.copy(out, 0);
  for (let block = 0; block < blockCount; block++) {
    const chunk = tail.subarray(block * STORED_BLOCK_MAX, (block + 1) * STORED_BLOCK_MAX);
    // BFINAL on the last block, BTYPE 00 (stored); the header's other bits pad it to the byte, then LEN and NLEN.
    out[at++] = block === blockCount - 1 ? 1 : 0;
    at = out.writeUInt16LE(chunk.length, at);
    at = out.writeUInt16LE(~chunk.length & 0xffff, at);
    at += chunk.copy(out, at);
  }
  // zlib's crc32 answers 0 for an empty buffer without memory behind it (a null pointer), not the CRC it continues.
  at = out.writeUInt32LE(tail.length === 0 ? open.crc : crc32(tail, open.crc), at);
  out.writeUInt32LE((open.length + tail.length) % 2 ** 32, at);
  return out;
}
