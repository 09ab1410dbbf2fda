/** Types over the generated `paths` (openapi.ts): paths by method, what a call takes and what it answers. */
import type { MaybeOptionalInit } from "openapi-fetch";
import type { paths } from "./openapi.js";

export type Method = "get" | "post" | "delete";

/** The paths that answer a method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];

/** What a call of `path` takes: `params` (`path`, `query`, `header`) and, for a POST, `body`. */
export type Init<P extends PathsWith<M>, M extends Method = "get"> = MaybeOptionalInit<paths[P], M>;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** The init argument, optional when nothing in it is required (as openapi-fetch takes it). */
export type InitArgs<I> = RequiredKeys<I> extends never ? [I?] : [I];

/** The JSON body `path` answers with 200. */
export type Answer<P extends PathsWith<M>, M extends Method = "get"> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer B } } };
}
  ? B
  : never;

/** The query parameters of a GET path. */
export type Query<P extends PathsWith<"get">> = paths[P]["get"] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

/** The fields of an answer that hold a list. */
export type ListField<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never;
}[keyof T] &
  string;

/** The item of the list in field K. */
export type ItemOf<T, K extends keyof T> = NonNullable<T[K]> extends readonly (infer I)[] ? I : never;

type StreamEvent<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "text/event-stream": infer E } } } };
}
  ? E
  : never;

/** A `trade` event of the raw relay (`/api/public/v1/live/trades`). */
export type RelayTrade = StreamEvent<"/api/public/v1/live/trades">;
/** A `trade` event of the indexed stream (`/api/public/v1/live/trades-indexed`). */
export type IndexedTrade = StreamEvent<"/api/public/v1/live/trades-indexed">;

/** A resolved outcome side of a whale's history (`/api/v2/whale/{address}/backtest`). */
export type BacktestPosition = ItemOf<Answer<"/api/v2/whale/{address}/backtest">, "positions">;
/** A whale-class trade of a market (`/api/v2/market/{condition_id}/whale-trades`). */
export type MarketWhaleTrade = ItemOf<Answer<"/api/v2/market/{condition_id}/whale-trades">, "trades">;
