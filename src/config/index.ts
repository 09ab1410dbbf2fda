/**
 * The one configuration of Pelagic. Every setting, URL and threshold of docs/METRICS.md lives here,
 * read from the environment (`PORT=9000`) or from a flag (`--port 9000`); flags win.
 */
import { join, resolve } from "node:path";
import { ConfigError, listSettings, redactUrl, resolveTree, type Resolved } from "./settings.js";
import { server, store, platform } from "./sections/serving.js";
import { venue, ingest } from "./sections/venue.js";
import { isw } from "./sections/isw.js";
import { ledger, farmer, smart, whales } from "./sections/metrics.js";
import { whaleReads, markets, insights, boards } from "./sections/reads.js";
import { derive, limits, wallet, live, ai, drilldowns } from "./sections/service.js";
import { mcp } from "./sections/mcp.js";
import { alerts } from "./sections/alerts.js";
import { aheadOfNews, funding, insider } from "./sections/informed.js";
import { checkRetrySchedule, checkWebhookKey } from "./isw-settings.js";

export { ConfigError, redactUrl };

export const settings = {
  server,
  store,
  platform,
  venue,
  isw,
  ledger,
  farmer,
  smart,
  whales,
  whaleReads,
  markets,
  insights,
  boards,
  derive,
  limits,
  wallet,
  live,
  ai,
  drilldowns,
  ingest,
  mcp,
  alerts,
  funding,
  insider,
  aheadOfNews,
} as const;

export type Config = Resolved<typeof settings> & {
  readonly store: Resolved<typeof settings.store> & {
    readonly kind: "sqlite" | "postgres";
    readonly sqlitePath: string;
  };
  readonly platform: Resolved<typeof settings.platform> & { readonly kind: "memory" | "redis" };
};

/** Every setting with its dotted path, environment name, default and description. */
export function describeSettings() {
  return listSettings(settings).map(({ path, setting }) => ({
    path,
    env: setting.env,
    default: setting.defaultValue,
    defaultText: setting.defaultText ?? (setting.defaultValue === undefined ? "(unset)" : String(setting.defaultValue)),
    description: setting.description,
  }));
}

/** The flag `--data-dir` sets `DATA_DIR`. */
export function flagToEnv(flag: string): string {
  return flag.replace(/^--/, "").replace(/-/g, "_").toUpperCase();
}

/** `DATA_DIR` is set by the flag `--data-dir`: its name without the dashes. */
export function settingFlagName(env: string): string {
  return env.toLowerCase().replace(/_/g, "-");
}

/**
 * Builds the configuration. `flags` maps environment names to values taken from the command line;
 * they override the environment. Throws ConfigError naming the first invalid setting.
 */
/** Settings that were renamed: setting the old name is refused, so that it is never silently ignored. */
const RENAMED_SETTINGS: Readonly<Record<string, string>> = {
  FARMER_MINT_MERGE_VOLUME_SHARE:
    "FARMER_SPLIT_MERGE_VOLUME_SHARE (the two-sided test now reads the wallet's own splits and merges)",
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string> = {}): Config {
  for (const [old, now] of Object.entries(RENAMED_SETTINGS)) {
    if ((flags[old] ?? env[old]) !== undefined) throw new ConfigError(old, `was renamed: set ${now}`);
  }
  const base = resolveTree(settings, (name) => flags[name] ?? env[name]);
  if (base.isw.busyWindowEndHour <= base.isw.busyWindowStartHour) {
    throw new ConfigError("ISW_BUSY_END_HOUR_UTC", "must be after ISW_BUSY_START_HOUR_UTC");
  }
  if (base.ai.baseUrl && !base.ai.model)
    throw new ConfigError("AI_MODEL", "is required with AI_MODEL_BASE_URL (the model name the server knows)");
  if (base.store.databaseReadUrl && !base.store.databaseUrl)
    throw new ConfigError(
      "DATABASE_READ_URL",
      "needs DATABASE_URL: a replica is read beside the PostgreSQL primary that is written",
    );
  checkRetrySchedule(base.isw.webhookRetrySchedule);
  checkWebhookKey(base.isw.webhookKey);
  const dataDir = resolve(base.store.dataDir);
  return Object.freeze({
    ...base,
    store: Object.freeze({
      ...base.store,
      dataDir,
      kind: base.store.databaseUrl ? "postgres" : "sqlite",
      sqlitePath: join(dataDir, "pelagic.sqlite"),
    }),
    platform: Object.freeze({ ...base.platform, kind: base.platform.redisUrl ? "redis" : "memory" }),
  }) as Config;
}

/** The store a command wrote to, as its operator is told: the SQLite file, or the PostgreSQL URL without its password. */
export function storeDescription(store: Config["store"]): string {
  return store.kind === "sqlite" || !store.databaseUrl
    ? `SQLite ${store.sqlitePath} (DATA_DIR)`
    : `PostgreSQL ${redactUrl(store.databaseUrl)} (DATABASE_URL)`;
}

/**
 * The kind of store a server reads its keys from, as a refused client is told: the setting that chooses it, never
 * the path or URL (a client learns nothing of the server's disk or network from a mistyped key).
 */
export function keyStoreHint(store: Config["store"]): string {
  return store.kind === "postgres" ? "its PostgreSQL store (DATABASE_URL)" : "its SQLite store (DATA_DIR)";
}
