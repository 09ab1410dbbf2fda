/**
 * `pelagic keys create|rotate|revoke|list`. The whole key is printed once (create, rotate) to stdout and
 * nowhere else; listings show only prefixes.
 */
import type { Kysely } from "kysely";
import {
  AccountError,
  KeyNotFoundError,
  RATE_LIMIT_RANGE,
  announcerOn,
  createKey,
  listKeys,
  revokeKey,
  rotateKey,
  setAccountPlan,
  shownPrefixOf,
  type IssuedKey,
  type KeyChangeAnnouncer,
} from "../accounts/keys.js";
import { storeDescription, type Config } from "../config/index.js";
import { createPlatform, type Platform } from "../platform/index.js";
import { withMigratedStore } from "../runtime/store.js";
import type { Database, Plan } from "../store/schema.js";
import { UsageError, type CommandSpec, type Flags } from "./spec.js";

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value || value === "true") throw new UsageError(`--${name} is required`);
  return value;
}

function printIssued(issued: IssuedKey, store: string, out: (line: string) => void): void {
  out(`account: ${issued.account} (${issued.plan})`);
  out(`key:     ${issued.key}`);
  out(`store:   ${store}: a server reading another store refuses the key`);
  out("This is the only time the key is shown. Store it now.");
}

function planFlag(flags: Flags): Plan {
  const plan = required(flags, "plan");
  if (plan !== "premium" && plan !== "free") throw new UsageError(`--plan must be premium or free, got "${plan}"`);
  return plan;
}

/**
 * Runs `use` with the announcer of key changes: the platform's pub/sub when REDIS_URL is set, where every API process
 * listens (opened only when a change is announced). Without Redis the server is another process that nothing here
 * reaches: it sees the change once its kept check ends (KEY_CHECK_CACHE_SECONDS).
 */
async function withKeyChangeAnnouncer<T>(
  config: Config,
  use: (announcer: KeyChangeAnnouncer) => Promise<T>,
): Promise<T> {
  if (!config.platform.redisUrl) return use(async () => undefined);
  let platform: Platform | undefined;
  try {
    return await use(async (change) => {
      platform ??= await createPlatform(config.platform);
      await announcerOn(platform.pubsub)(change);
    });
  } finally {
    await platform?.close();
  }
}

/** `store`: the store `db` is, as storeDescription tells it (printed with a new key). */
export async function runKeysCommand(
  db: Kysely<Database>,
  action: string | undefined,
  flags: Flags,
  now: number,
  announcer: KeyChangeAnnouncer,
  out: (line: string) => void = console.log,
  store = "the configured store",
): Promise<void> {
  try {
    await runKeysAction(db, action, flags, now, announcer, out, store);
  } catch (error) {
    // Refusals of the accounts layer are the caller's to fix: one line, exit 2.
    if (error instanceof AccountError || error instanceof KeyNotFoundError) throw new UsageError(error.message);
    throw error;
  }
}

async function runKeysAction(
  db: Kysely<Database>,
  action: string | undefined,
  flags: Flags,
  now: number,
  announcer: KeyChangeAnnouncer,
  out: (line: string) => void,
  store: string,
): Promise<void> {
  switch (action) {
    case "create": {
      const plan = planFlag(flags);
      const rate = flags["rate-limit"];
      if (rate !== undefined && !/^[1-9]\d{0,9}$/.test(rate))
        throw new UsageError(
          `--rate-limit must be a whole number from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max}, got "${rate}"`,
        );
      const issued = await createKey(db, {
        account: required(flags, "account"),
        plan,
        rateLimitPerMinute: rate ? Number(rate) : null,
        now,
      });
      printIssued(issued, store, out);
      return;
    }
    case "plan": {
      const account = required(flags, "account");
      const plan = planFlag(flags);
      const { previous, keys } = await setAccountPlan(db, account, plan, announcer);
      out(`account ${account}: plan ${previous} -> ${plan} (${keys} active key${keys === 1 ? "" : "s"})`);
      return;
    }
    case "rotate": {
      const issued = await rotateKey(db, required(flags, "key"), now, announcer);
      out(`rotated: the old key stopped working now`);
      printIssued(issued, store, out);
      return;
    }
    case "revoke":
      await revokeKey(db, required(flags, "key"), now, announcer);
      out(`revoked ${shownPrefixOf(flags.key as string)}`);
      return;
    case "list": {
      const keys = await listKeys(db, flags.account);
      out(["prefix", "account", "plan", "status", "limit/min", "created"].join("\t"));
      for (const k of keys) {
        out(
          [
            k.prefix,
            k.account,
            k.plan,
            k.status,
            k.rateLimitPerMinute ?? "plan",
            new Date(k.createdAt * 1000).toISOString(),
          ].join("\t"),
        );
      }
      return;
    }
    default:
      throw unknownAction(action);
  }
}

const KEY_ACTIONS = {
  create: {
    usage: "pelagic keys create --account <name> --plan premium|free [--rate-limit <per minute>]",
    summary: "issue a key (creating the account if new; an existing account must already be on that plan)",
  },
  plan: {
    usage: "pelagic keys plan --account <name> --plan premium|free",
    summary: "change an account's plan, for every key of it",
  },
  rotate: {
    usage: "pelagic keys rotate --key <prefix>",
    summary: "replace a key with a new one; the old one stops working",
  },
  revoke: { usage: "pelagic keys revoke --key <prefix>", summary: "end a key" },
  list: {
    usage: "pelagic keys list [--account <name>]",
    summary: "keys by prefix, account, plan, status, rate limit and creation time",
  },
};

function unknownAction(action: string | undefined): UsageError {
  const actions = Object.keys(KEY_ACTIONS).join(", ");
  return new UsageError(action === undefined ? `which action? ${actions}` : `unknown action "${action}" (${actions})`);
}

export const keysCommand: CommandSpec = {
  name: "keys",
  summary: "create, rotate, revoke or list API keys, or change an account's plan",
  description:
    "Manages the API keys in the configured store (DATA_DIR or DATABASE_URL). A new key is printed once, to " +
    "stdout, and stored only as a hash; listings show only its prefix. A rotated or revoked key answers 401 from the next request " +
    "(with REDIS_URL set the API processes are told at once; without it a server running beside this command sees it within KEY_CHECK_CACHE_SECONDS).",
  actions: KEY_ACTIONS,
  flags: {
    account: { value: "<name>", description: "the account (create: created if new; list: only its keys)" },
    plan: {
      value: "premium|free",
      description: "the account's plan (create: must match an existing account's; plan: the new one)",
    },
    "rate-limit": {
      value: "<per minute>",
      description: `this key's requests per minute instead of its plan's, ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max} (create)`,
    },
    key: { value: "<prefix>", description: "the key's prefix, as list shows it (rotate, revoke)" },
  },
  examples: [
    "pelagic keys create --account acme --plan premium",
    "pelagic keys list --account acme",
    "pelagic keys revoke --key pelagic_AbCdEf1234",
  ],
  async run(config, flags, [action]) {
    // Refused before the store is opened (and, on SQLite, created).
    if (action === undefined || !Object.hasOwn(KEY_ACTIONS, action)) throw unknownAction(action);
    await withKeyChangeAnnouncer(config, (announcer) =>
      withMigratedStore(config, (store) =>
        runKeysCommand(
          store.db,
          action,
          flags,
          Math.floor(Date.now() / 1000),
          announcer,
          console.log,
          storeDescription(config.store),
        ),
      ),
    );
  },
};
