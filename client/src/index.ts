/**
 * `@pelagic/client`: the typed client of Pelagic's HTTP API. `createPelagicClient({ baseUrl, apiKey })`; the types
 * of every path are `paths` (generated from the service's OpenAPI document).
 */
export {
  createPelagicClient,
  type LiveSocketOptions,
  type PelagicClient,
  type PelagicClientOptions,
} from "./client.js";
export { PelagicApiError, type ValidationIssue, errorDetail, retryAfterSeconds } from "./errors.js";
export { type EtagOptions, type RetryOptions, keyHeaders } from "./fetch-policy.js";
export type { components, operations, paths } from "./openapi.js";
export type { ReconnectOptions, SseEvent, StreamOptions } from "./sse.js";
export type {
  Answer,
  BacktestPosition,
  IndexedTrade,
  Init,
  ItemOf,
  ListField,
  MarketWhaleTrade,
  Method,
  PathsWith,
  Query,
  RelayTrade,
} from "./types.js";
export type { SocketMessage, WebSocketConstructor, WebSocketLike } from "./websocket.js";
