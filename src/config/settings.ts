import { PelagicError } from "../errors/index.js";
import { isIP } from "node:net";

/**
 * Typed setting builders. A setting knows its environment name, its default, how to parse
 * a raw string, and a one-line description (used for the README table and for /api/v2/site-stats).
 */

export class ConfigError extends PelagicError {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super("CONFIG_INVALID", `invalid setting ${setting}: ${message}`);
  }
}

export interface Setting<T> {
  readonly kind: "setting";
  readonly env: string;
  readonly defaultValue: T;
  readonly description: string;
  /** How the default reads in documentation, when not String(defaultValue). */
  readonly defaultText?: string;
  parse(raw: string): T;
}

type Parser<T> = (raw: string, env: string) => T;

function setting<T>(env: string, defaultValue: T, description: string, parse: Parser<T>): Setting<T> {
  return { kind: "setting", env, defaultValue, description, parse: (raw) => parse(raw, env) };
}

interface Range {
  min?: number;
  max?: number;
}

function checkRange(value: number, env: string, range: Range): number {
  if (range.min !== undefined && value < range.min) throw new ConfigError(env, `must be >= ${range.min}, got ${value}`);
  if (range.max !== undefined && value > range.max) throw new ConfigError(env, `must be <= ${range.max}, got ${value}`);
  return value;
}

export function int(env: string, defaultValue: number, description: string, range: Range = {}): Setting<number> {
  return setting(env, defaultValue, description, (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(env, `expected an integer, got "${raw}"`);
    return checkRange(Number(raw), env, range);
  });
}

export function num(env: string, defaultValue: number, description: string, range: Range = {}): Setting<number> {
  return setting(env, defaultValue, description, (raw) => {
    const value = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(value)) throw new ConfigError(env, `expected a number, got "${raw}"`);
    return checkRange(value, env, range);
  });
}

/**
 * Which proxies in front of the service to trust for the client address in X-Forwarded-For, as Fastify takes it:
 * false (none: the peer is the client), a hop count (the client is that many addresses from the right of the
 * header, each proxy appending its peer), or proxy addresses and CIDR ranges (the client is the rightmost address
 * that is not one of them). `true` is refused: it would take the leftmost address, which the client writes itself.
 */
export type ProxyTrust = false | number | string[];

function proxyAddress(entry: string, env: string): string {
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  const bits = family === 4 ? 32 : 128;
  const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits);
  if (family === 0 || !prefixOk || rest.length > 0)
    throw new ConfigError(env, `"${entry}" is not an IP address or CIDR range`);
  return entry;
}

export function proxyTrust(env: string, description: string): Setting<ProxyTrust> {
  return setting<ProxyTrust>(env, false, description, (raw) => {
    const text = raw.trim().toLowerCase();
    if (text === "" || text === "false" || text === "0") return false;
    if (text === "true") {
      throw new ConfigError(
        env,
        "true would trust an X-Forwarded-For the client writes itself; give the number of proxies in front of the service (e.g. 1) or their addresses (e.g. 10.0.0.0/8)",
      );
    }
    if (/^\d+$/.test(text)) return Number(text);
    return text.split(",").map((entry) => proxyAddress(entry.trim(), env));
  });
}

/** An exchange contract the venue trades on beyond those Pelagic knows, and the event layout it emits. */
export interface ExtraExchange {
  /** Lower case, 0x and 40 hex digits. */
  readonly address: string;
  readonly layout: "v1" | "v2";
}

/** `0x<40 hex>:v1|v2`, comma-separated: exchanges added without a release (src/venue/contracts.ts). */
export function extraExchanges(env: string, description: string): Setting<readonly ExtraExchange[]> {
  const parsed = setting<readonly ExtraExchange[]>(env, [], description, (raw) => {
    const entries = raw
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    return entries.map((entry) => {
      const match = /^(0x[0-9a-fA-F]{40}):(v1|v2)$/.exec(entry);
      if (!match)
        throw new ConfigError(
          env,
          `"${entry}" is not an exchange: write its address and the event layout it emits, e.g. 0xe3333700cA9d93003F00f0F71f8515005F6c00Aa:v2`,
        );
      return { address: match[1]!.toLowerCase(), layout: match[2] as "v1" | "v2" };
    });
  });
  return { ...parsed, defaultText: "(none)" };
}

export interface ExtraHub {
  /** Lower case, 0x and 40 hex digits. */
  readonly address: string;
  readonly name: string;
}

/** `0x<40 hex>` or `0x<40 hex>:<name>`, comma-separated: funding hubs added to the built-in table (src/venue/funding-hubs.ts). */
export function extraHubs(env: string, description: string): Setting<readonly ExtraHub[]> {
  const parsed = setting<readonly ExtraHub[]>(env, [], description, (raw) =>
    raw
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => {
        const match = /^(0x[0-9a-fA-F]{40})(?::(.+))?$/.exec(entry);
        if (!match)
          throw new ConfigError(
            env,
            `"${entry}" is not a hub: write its address, optionally with a name, e.g. 0x28c6c06298d514db089934071355e5743bf21d60:Binance 14`,
          );
        const address = match[1]!.toLowerCase();
        return { address, name: match[2]?.trim() || address };
      }),
  );
  return { ...parsed, defaultText: "(none)" };
}

export function str(env: string, defaultValue: string, description: string): Setting<string> {
  return setting(env, defaultValue, description, (raw) => raw);
}

export function optionalStr(env: string, description: string): Setting<string | undefined> {
  return setting<string | undefined>(env, undefined, description, (raw) => (raw === "" ? undefined : raw));
}

/** A comma-separated list of names (host names, say), each trimmed and lower-cased; the default as written. */
export function nameList(env: string, defaultValue: string, description: string): Setting<readonly string[]> {
  const parse = (raw: string) =>
    raw
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "");
  return { ...setting(env, parse(defaultValue), description, parse), defaultText: defaultValue };
}

export function bool(env: string, defaultValue: boolean, description: string): Setting<boolean> {
  return setting(env, defaultValue, description, (raw) => {
    const v = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off"].includes(v)) return false;
    throw new ConfigError(env, `expected true or false, got "${raw}"`);
  });
}

export function oneOf<const T extends string>(
  env: string,
  defaultValue: T,
  choices: readonly T[],
  description: string,
): Setting<T> {
  return setting(env, defaultValue, description, (raw) => {
    if (!(choices as readonly string[]).includes(raw)) {
      throw new ConfigError(env, `expected one of ${choices.join(", ")}, got "${raw}"`);
    }
    return raw as T;
  });
}

/** The schemes an HTTP(S) endpoint setting accepts. */
export const HTTP = ["http:", "https:"];

export function url(env: string, defaultValue: string, description: string, protocols: string[]): Setting<string> {
  return setting(env, defaultValue, description, (raw) => parseUrl(raw, env, protocols));
}

export function optionalUrl(env: string, description: string, protocols: string[]): Setting<string | undefined> {
  return setting<string | undefined>(env, undefined, description, (raw) =>
    raw === "" ? undefined : parseUrl(raw, env, protocols),
  );
}

function parseUrl(raw: string, env: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(env, `expected a URL, got "${redactUrl(raw)}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(env, `expected a ${protocols.join(" or ")} URL, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, "");
}

/** Hides a password in a URL so it can be printed. */
export function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):([^@]*)@/, "//$1:***@");
}

/** A `YYYY-MM-DD` date as the unix seconds of its 00:00 UTC. */
function parseDate(raw: string, env: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw new ConfigError(env, `expected YYYY-MM-DD, got "${raw}"`);
  const ms = Date.parse(`${raw}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new ConfigError(env, `not a calendar date: "${raw}"`);
  return ms / 1000;
}

export function date(env: string, defaultValue: string, description: string): Setting<number> {
  return { ...setting(env, parseDate(defaultValue, env), description, parseDate), defaultText: defaultValue };
}

export function optionalDate(env: string, description: string): Setting<number | undefined> {
  return setting<number | undefined>(env, undefined, description, (raw) =>
    raw === "" ? undefined : parseDate(raw, env),
  );
}

export type SettingTree = { [key: string]: Setting<unknown> | SettingTree };

export type Resolved<S> = S extends Setting<infer T> ? T : { readonly [K in keyof S]: Resolved<S[K]> };

function isSetting(node: Setting<unknown> | SettingTree): node is Setting<unknown> {
  return (node as Setting<unknown>).kind === "setting";
}

/** Every setting of a tree, depth first, with its dotted path. */
export function listSettings(tree: SettingTree, prefix = ""): Array<{ path: string; setting: Setting<unknown> }> {
  return Object.entries(tree).flatMap(([key, node]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isSetting(node) ? [{ path, setting: node }] : listSettings(node, path);
  });
}

/** Resolves a tree against a source of raw values keyed by environment name. */
export function resolveTree<S extends SettingTree>(tree: S, raw: (env: string) => string | undefined): Resolved<S> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(tree)) {
    if (isSetting(node)) {
      const value = raw(node.env);
      out[key] = value === undefined ? node.defaultValue : node.parse(value);
    } else {
      out[key] = resolveTree(node, raw);
    }
  }
  return Object.freeze(out) as Resolved<S>;
}
