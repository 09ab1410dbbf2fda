/**
 * `pelagic keys create|rotate|revoke|list`. The whole key is printed once (create, rotate) to stdout and
 * nowhere else; listings show only prefixes.
 */
import type { Kysely } from "kysely";
import type { Database, Plan } from "../store/schema.js";
import { createKey, listKeys, revokeKey, rotateKey, type IssuedKey } from "./keys.js";

export const KEYS_USAGE = [
  "pelagic keys create --account <name> --plan premium|free [--rate-limit <per minute>]",
  "pelagic keys rotate --key <prefix>",
  "pelagic keys revoke --key <prefix>",
  "pelagic keys list [--account <name>]",
].join("\n");

export class UsageError extends Error {}

function required(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value || value === "true") throw new UsageError(`--${name} is required\n${KEYS_USAGE}`);
  return value;
}

function printIssued(issued: IssuedKey, out: (line: string) => void): void {
  out(`account: ${issued.account} (${issued.plan})`);
  out(`key:     ${issued.key}`);
  out("This is the only time the key is shown. Store it now.");
}

export async function runKeysCommand(
  db: Kysely<Database>,
  action: string | undefined,
  flags: Record<string, string>,
  now: number,
  out: (line: string) => void = console.log,
): Promise<void> {
  switch (action) {
    case "create": {
      const plan = required(flags, "plan");
      if (plan !== "premium" && plan !== "free") throw new UsageError(`--plan must be premium or free, got "${plan}"`);
      const rate = flags["rate-limit"];
      if (rate !== undefined && !/^[1-9]\d*$/.test(rate)) throw new UsageError(`--rate-limit must be a positive integer, got "${rate}"`);
      const issued = await createKey(db, { account: required(flags, "account"), plan: plan as Plan, rateLimitPerMinute: rate ? Number(rate) : null, now });
      printIssued(issued, out);
      return;
    }
    case "rotate": {
      const issued = await rotateKey(db, required(flags, "key"), now);
      out(`rotated: the old key stopped working now`);
      printIssued(issued, out);
      return;
    }
    case "revoke":
      await revokeKey(db, required(flags, "key"), now);
      out(`revoked ${flags.key}`);
      return;
    case "list": {
      const keys = await listKeys(db, flags.account);
      out(["prefix", "account", "plan", "status", "limit/min", "created"].join("\t"));
      for (const k of keys) {
        out([k.prefix, k.account, k.plan, k.status, k.rateLimitPerMinute ?? "plan", new Date(k.createdAt * 1000).toISOString()].join("\t"));
      }
      return;
    }
    default:
      throw new UsageError(KEYS_USAGE);
  }
}
