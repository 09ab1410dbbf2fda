/** The simulated world's flags, shared by `pelagic sim` and `pelagic demo`, and the world options they make. */
import { WORLD_DEFAULTS, resolveWorldOptions, type ResolvedWorldOptions } from "../sim/world/index.js";
import type { FlagSpec, Flags } from "./spec.js";

const DAY = 86_400;
const MINUTE = 60;

export const WORLD_FLAGS = {
  seed: {
    value: "<integer|text>",
    default: "1",
    description: "the world's seed: the same seed and sizes make the same world",
  },
  markets: { value: "<n>", default: String(WORLD_DEFAULTS.markets), description: "markets in the world" },
  wallets: { value: "<n>", default: String(WORLD_DEFAULTS.wallets), description: "wallets in the world, at least 30" },
  fills: { value: "<n>", default: String(WORLD_DEFAULTS.fills), description: "fills of the world's history" },
  days: { value: "<n>", default: String(WORLD_DEFAULTS.days), description: "days of history, ending at --end" },
  end: {
    value: "<YYYY-MM-DD|YYYY-MM-DDTHH:MMZ|now>",
    defaultText: "today",
    description: "the history's end: that day's 00:00 UTC, that minute, or now (the current minute)",
  },
  "live-rate": { value: "<matches/s>", default: "0.5", description: "live trading after the history; 0: none" },
  faults: {
    value: "<faults>",
    default: "off",
    description:
      "the venue's faults: off, on (a bad day), or name=rate pairs joined by commas, names: rate-limit, server-error, arcgis-throttle, rtds-disconnect, rtds-loss, and retry-after (seconds)",
  },
  "isw-data": {
    value: "<folder>",
    defaultText: "the simulator's snapshots",
    description: "folder of the ISW territory snapshots the ArcGIS layers replay",
  },
  "isw-step": {
    value: "<seconds>",
    default: "300",
    description: "in live mode, seconds between two territory snapshots",
  },
} as const satisfies Record<string, FlagSpec>;

export function numberFlag(flags: Flags, name: string): number {
  const text = flags[name];
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value < 0)
    throw new Error(`--${name} must be a non-negative number, got "${text}"`);
  return value;
}

/** `--end`: YYYY-MM-DD as that day's 00:00 UTC, YYYY-MM-DDTHH:MMZ as that minute, `now` as the current minute; by default today's 00:00. */
function endFlag(flags: Flags): number {
  const text = flags.end;
  if (text === undefined) return Math.floor(Date.now() / 1000 / DAY) * DAY;
  if (text === "now") return Math.floor(Date.now() / 1000 / MINUTE) * MINUTE;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/.test(text)
      ? text.replace("Z", ":00Z")
      : null;
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  if (!Number.isFinite(ms)) throw new Error(`--end must be YYYY-MM-DD, YYYY-MM-DDTHH:MMZ or now, got "${text}"`);
  return ms / 1000;
}

/** A world's end as `--end` takes it back: the minute, so that a second process makes the same world. */
export function endText(end: number): string {
  return `${new Date(end * 1000).toISOString().slice(0, 16)}Z`;
}

export function worldOptionsOf(flags: Flags): ResolvedWorldOptions {
  const seedText = flags.seed as string;
  return resolveWorldOptions({
    seed: /^-?\d+$/.test(seedText) ? Number(seedText) : seedText,
    markets: numberFlag(flags, "markets"),
    wallets: numberFlag(flags, "wallets"),
    fills: numberFlag(flags, "fills"),
    days: numberFlag(flags, "days"),
    end: endFlag(flags),
  });
}

export function describeWorld(o: ResolvedWorldOptions, liveRate: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const live = liveRate > 0 ? `, live ${liveRate} matches/s` : ", no live trading";
  return `seed ${o.seed}: ${n(o.markets)} markets, ${n(o.wallets)} wallets, ${n(o.fills)} fills over ${o.days} days to ${endText(o.end).replace("T", " ")}${live}`;
}
