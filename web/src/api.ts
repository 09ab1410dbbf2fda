/**
 * The dashboard's only way to the service: openapi-fetch over the types generated from the served OpenAPI document,
 * the typed client's (client/src/openapi.ts; test/client/client.test.ts fails when they no longer match what the
 * service serves).
 */
import createClient from "openapi-fetch";
import { useEffect, useState } from "preact/hooks";
import type { paths } from "../../client/src/openapi.js";

export type { paths };

export const api = createClient<paths>({ baseUrl: location.origin });

/** The JSON body a GET path answers with 200. */
export type Answer<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer B } } } };
}
  ? B
  : never;

/** The values a GET path's query parameter takes. */
export type QueryParam<P extends keyof paths, K extends string> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? K extends keyof NonNullable<Q>
    ? NonNullable<NonNullable<Q>[K]>
    : never
  : never;

const KEY_STORAGE = "pelagic.apiKey";

/** The Premium key the user entered: kept in this browser's localStorage only, sent as X-API-Key. */
export const premiumKey = {
  get: (): string => localStorage.getItem(KEY_STORAGE) ?? "",
  set: (key: string) => (key ? localStorage.setItem(KEY_STORAGE, key) : localStorage.removeItem(KEY_STORAGE)),
  headers: (): Record<string, string> => {
    const key = localStorage.getItem(KEY_STORAGE);
    return key ? { "X-API-Key": key } : {};
  },
};

export type Loaded<T> =
  | { state: "loading" }
  | { state: "ok"; data: T }
  | { state: "error"; status: number; detail: string };

type FetchResult<T> = { data?: T; error?: unknown; response: Response };

function detailOf(error: unknown, response: Response): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => (d as { msg?: string }).msg ?? "").join("; ");
  return `${response.status} ${response.statusText}`;
}

/** Runs `load` when `deps` change and keeps its latest answer (an answer that arrives after newer deps is dropped). */
export function useLoad<T>(load: () => Promise<FetchResult<T>>, deps: unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let current = true;
    setLoaded({ state: "loading" });
    load().then(
      ({ data, error, response }) => {
        if (!current) return;
        if (data !== undefined && response.ok) setLoaded({ state: "ok", data });
        else setLoaded({ state: "error", status: response.status, detail: detailOf(error, response) });
      },
      (thrown: unknown) => current && setLoaded({ state: "error", status: 0, detail: String(thrown) }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return loaded;
}

/** Calls `tick` now and every `ms` while the page is open. */
export function useEvery(ms: number, tick: () => void, deps: unknown[]): void {
  useEffect(() => {
    tick();
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, deps);
}
