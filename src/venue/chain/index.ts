/**
 * The venue's Polygon side, from the node's eth_getLogs answers to settled fills and events: the JSON-RPC client
 * (client.ts), the events' ABI with viem's reference decoding and encoding (abi.ts), the same events as 32-byte
 * words and their fast encoder (words.ts), the backfill's word decoder (decoder.ts), settlement into fills with
 * their match type (settlement.ts), operations attributed to the wallets that made them (attribution.ts), and one
 * answer decoded, settled and attributed (chunk.ts). Ingest only reads and writes.
 */
export * from "./abi.js";
export * from "./attribution.js";
export * from "./chunk.js";
export * from "./client.js";
export * from "./decoder.js";
export * from "./settlement.js";
export * from "./words.js";
