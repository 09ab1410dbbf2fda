/**
 * API keys. A key is `pelagic_` + a 10-character lookup id + a 32-character secret (base62). Only the SHA-256
 * of the whole key is stored; a presented key is found by its lookup id and compared in constant time.
 * Keys are random (about 190 bits of secret), so a fast hash is enough: nothing to brute-force.
 */
import { PelagicError } from "../errors/index.js";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createQueryId, type CompiledQuery, type Kysely, type Transaction } from "kysely";
import { writeTransaction } from "../store/database.js";
import type { Database, KeyStatus, Plan } from "../store/schema.js";

export const KEY_PREFIX = "pelagic_";
const LOOKUP_LENGTH = 10;
const SECRET_LENGTH = 32;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${LOOKUP_LENGTH + SECRET_LENGTH}}$`);
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting higher bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** The SHA-256 of a whole key: what the store keeps, and what a process's kept check is found by (src/api/key-checks.ts). */
export function hashKey(key: string): Buffer {
  return createHash("sha256").update(key).digest();
}

/** The part of a key that may be shown and logged: the service prefix and the lookup id. */
export function displayPrefix(lookupId: string): string {
  return `${KEY_PREFIX}${lookupId}`;
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export interface IssuedKey {
  /** The whole key: shown once, never stored. */
  key: string;
  prefix: string;
  account: string;
  plan: Plan;
}

export type KeyCheck =
  | { status: "valid"; keyId: number; prefix: string; account: string; plan: Plan; rateLimitPerMinute: number | null }
  | { status: "invalid" }
  | { status: "revoked" | "rotated"; prefix: string };

type Db = Kysely<Database> | Transaction<Database>;

/** The pub/sub channel on which a change to keys is announced: every API process then drops the key checks it keeps. */
export const KEY_CHANGES_CHANNEL = "keys:changed";

export type KeyChange = "revoked" | "rotated" | "plan";

/** Announces a change to keys (a revocation, a rotation, a plan change) to every API process; never given a key. */
export type KeyChangeAnnouncer = (change: KeyChange) => Promise<void>;

/** The announcer on a pub/sub (the platform's: in-process, or Redis when scaled). */
export function announcerOn(pubsub: { publish(channel: string, message: string): Promise<void> }): KeyChangeAnnouncer {
  return (change) => pubsub.publish(KEY_CHANGES_CHANNEL, change);
}

/** The change is stored, but the API processes were not told: each keeps its check until KEY_CHECK_CACHE_SECONDS ends. */
export class KeyChangeNotAnnouncedError extends PelagicError {
  constructor(message: string) {
    super("KEY_CHANGE_NOT_ANNOUNCED", message);
  }
}

async function announce(announcer: KeyChangeAnnouncer, change: KeyChange): Promise<void> {
  try {
    await announcer(change);
  } catch (error) {
    throw new KeyChangeNotAnnouncedError(
      `${change === "plan" ? "the plan changed" : `the key was ${change}`} in the store, but announcing it to the API processes failed ` +
        `(${error instanceof Error ? error.message : String(error)}): each one sees it once its kept check ends (KEY_CHECK_CACHE_SECONDS)`,
    );
  }
}

async function insertKey(
  db: Db,
  accountId: number,
  rateLimit: number | null,
  now: number,
): Promise<{ key: string; prefix: string }> {
  const lookupId = randomBase62(LOOKUP_LENGTH);
  const key = `${KEY_PREFIX}${lookupId}${randomBase62(SECRET_LENGTH)}`;
  await db
    .insertInto("api_keys")
    .values({
      account_id: accountId,
      lookup_id: lookupId,
      secret_hash: hashKey(key).toString("hex"),
      status: "active",
      rate_limit_per_minute: rateLimit,
      created_at: now,
      ended_at: null,
    })
    .execute();
  return { key, prefix: displayPrefix(lookupId) };
}

/** A per-key rate limit outside this range (requests per minute) is refused. */
export const RATE_LIMIT_RANGE = { min: 1, max: 100_000 } as const;
const ACCOUNT_NAME_MAX = 64;

/** Why an account request is refused (a bad name, a plan that differs from the account's, an absurd limit). */
export class AccountError extends PelagicError {
  constructor(message: string) {
    super("ACCOUNT_INVALID", message);
  }
}

/** Account names are 1-64 printable characters: a control character could forge rows in a listing or a log. */
export function checkAccountName(name: string): string {
  if (name.trim() === "" || name.length > ACCOUNT_NAME_MAX)
    throw new AccountError(`account names are 1 to ${ACCOUNT_NAME_MAX} characters, got ${name.length}`);
  if (/\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}/u.test(name))
    throw new AccountError("account names cannot hold control characters (tabs, newlines, ...)");
  return name;
}

function checkRateLimit(perMinute: number | null | undefined): number | null {
  if (perMinute === null || perMinute === undefined) return null;
  if (!Number.isInteger(perMinute) || perMinute < RATE_LIMIT_RANGE.min || perMinute > RATE_LIMIT_RANGE.max) {
    throw new AccountError(
      `a key's rate limit is a whole number of requests per minute from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max}, got ${perMinute}`,
    );
  }
  return perMinute;
}

/**
 * Creates a key for an account, creating the account as needed. An existing account keeps its plan: asking for
 * another one is refused (`setAccountPlan` changes it, for every key of the account, on purpose).
 */
export async function createKey(
  db: Kysely<Database>,
  options: { account: string; plan: Plan; rateLimitPerMinute?: number | null; now: number },
): Promise<IssuedKey> {
  const name = checkAccountName(options.account);
  const rateLimit = checkRateLimit(options.rateLimitPerMinute);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("accounts")
      .values({ name, plan: options.plan, created_at: options.now })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const account = await trx
      .selectFrom("accounts")
      .select(["id", "plan"])
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    if (account.plan !== options.plan) {
      throw new AccountError(
        `account ${name} is on the ${account.plan} plan; change it for all its keys with: pelagic keys plan --account ${name} --plan ${options.plan}`,
      );
    }
    const issued = await insertKey(trx, account.id, rateLimit, options.now);
    return { ...issued, account: name, plan: options.plan };
  });
}

/** Changes an account's plan (every key of it answers with the new plan from the next request). */
export async function setAccountPlan(
  db: Kysely<Database>,
  account: string,
  plan: Plan,
  announcer: KeyChangeAnnouncer,
): Promise<{ previous: Plan; keys: number }> {
  const changed = await writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom("accounts").select(["id", "plan"]).where("name", "=", account).executeTakeFirst();
    if (!row) throw new AccountError(`no account ${account}`);
    await trx.updateTable("accounts").set({ plan }).where("id", "=", row.id).execute();
    const keys = await trx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", row.id)
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    return { previous: row.plan, keys: Number(keys.n) };
  });
  await announce(announcer, "plan");
  return changed;
}

/** The lookup id of a key given by its prefix, its bare lookup id, or whole. */
function lookupIdOf(given: string): string {
  return given.startsWith(KEY_PREFIX) ? given.slice(KEY_PREFIX.length, KEY_PREFIX.length + LOOKUP_LENGTH) : given;
}

/** What may be printed of a key given by its prefix or whole: its display prefix, never its secret part. */
export function shownPrefixOf(given: string): string {
  return displayPrefix(lookupIdOf(given).slice(0, LOOKUP_LENGTH));
}

async function findActiveByPrefix(db: Db, prefix: string) {
  const lookupId = lookupIdOf(prefix);
  return db
    .selectFrom("api_keys")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select([
      "api_keys.id",
      "api_keys.account_id",
      "api_keys.rate_limit_per_minute",
      "accounts.name",
      "accounts.plan",
      "api_keys.status",
    ])
    .where("api_keys.lookup_id", "=", lookupId)
    .executeTakeFirst();
}

export class KeyNotFoundError extends PelagicError {
  constructor(message: string) {
    super("KEY_NOT_FOUND", message);
  }
}

/** Ends a key (by its prefix) and issues a new one on the same account with the same override. */
export async function rotateKey(
  db: Kysely<Database>,
  prefix: string,
  now: number,
  announcer: KeyChangeAnnouncer,
): Promise<IssuedKey> {
  const issued = await writeTransaction(db, async (trx) => {
    const row = await findActiveByPrefix(trx, prefix);
    if (row?.status !== "active") throw new KeyNotFoundError(`no active key ${shownPrefixOf(prefix)}`);
    await trx.updateTable("api_keys").set({ status: "rotated", ended_at: now }).where("id", "=", row.id).execute();
    const issued = await insertKey(trx, row.account_id, row.rate_limit_per_minute, now);
    return { ...issued, account: row.name, plan: row.plan };
  });
  await announce(announcer, "rotated");
  return issued;
}

export async function revokeKey(
  db: Kysely<Database>,
  prefix: string,
  now: number,
  announcer: KeyChangeAnnouncer,
): Promise<void> {
  const row = await findActiveByPrefix(db, prefix);
  if (row?.status !== "active") throw new KeyNotFoundError(`no active key ${shownPrefixOf(prefix)}`);
  await db.updateTable("api_keys").set({ status: "revoked", ended_at: now }).where("id", "=", row.id).execute();
  await announce(announcer, "revoked");
}

/**
 * Revokes every active key of an account (none: nothing happens); how many. For the demo, whose runs each issue
 * keys to its own accounts: a new run ends the keys of the runs before it.
 */
export async function revokeAccountKeys(db: Kysely<Database>, account: string, now: number): Promise<number> {
  const result = await db
    .updateTable("api_keys")
    .set({ status: "revoked", ended_at: now })
    .where("status", "=", "active")
    .where("account_id", "in", (eb) => eb.selectFrom("accounts").select("id").where("name", "=", account))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface KeyListing {
  prefix: string;
  account: string;
  plan: Plan;
  status: KeyStatus;
  rateLimitPerMinute: number | null;
  createdAt: number;
  endedAt: number | null;
}

export async function listKeys(db: Kysely<Database>, account?: string): Promise<KeyListing[]> {
  let query = db
    .selectFrom("api_keys")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select([
      "api_keys.lookup_id",
      "accounts.name",
      "accounts.plan",
      "api_keys.status",
      "api_keys.rate_limit_per_minute",
      "api_keys.created_at",
      "api_keys.ended_at",
    ])
    .orderBy("api_keys.id");
  if (account) query = query.where("accounts.name", "=", account);
  const rows = await query.execute();
  return rows.map((r) => ({
    prefix: displayPrefix(r.lookup_id),
    account: r.name,
    plan: r.plan,
    status: r.status,
    rateLimitPerMinute: r.rate_limit_per_minute,
    createdAt: r.created_at,
    endedAt: r.ended_at,
  }));
}

const DUMMY_HASH = hashKey("pelagic_dummy");

interface KeyRow {
  id: number;
  secret_hash: string;
  status: KeyStatus;
  rate_limit_per_minute: number | null;
  name: string;
  plan: Plan;
}

/**
 * The key lookup, compiled once per database: every request that sends a key runs it, and building and compiling
 * the query again each time cost more than running it (only the lookup id, its one parameter, differs).
 */
const keyLookups = new WeakMap<Kysely<Database>, CompiledQuery<KeyRow>>();

function keyLookup(db: Kysely<Database>): CompiledQuery<KeyRow> {
  let compiled = keyLookups.get(db);
  if (!compiled) {
    compiled = db
      .selectFrom("api_keys")
      .innerJoin("accounts", "accounts.id", "api_keys.account_id")
      .select([
        "api_keys.id",
        "api_keys.secret_hash",
        "api_keys.status",
        "api_keys.rate_limit_per_minute",
        "accounts.name",
        "accounts.plan",
      ])
      .where("api_keys.lookup_id", "=", "")
      .compile();
    keyLookups.set(db, compiled);
  }
  return compiled;
}

/** Checks a presented key against the store. Unknown keys cost the same hash and comparison as known ones. */
export async function verifyKey(db: Kysely<Database>, presented: string): Promise<KeyCheck> {
  return looksLikeKey(presented) ? verifyHashedKey(db, presented, hashKey(presented)) : { status: "invalid" };
}

/** verifyKey for a key already hashed (`presentedHash` is hashKey(presented)). */
export async function verifyHashedKey(
  db: Kysely<Database>,
  presented: string,
  presentedHash: Buffer,
): Promise<KeyCheck> {
  if (!looksLikeKey(presented)) return { status: "invalid" };
  const lookupId = presented.slice(KEY_PREFIX.length, KEY_PREFIX.length + LOOKUP_LENGTH);
  const lookup = keyLookup(db);
  const { rows } = await db.executeQuery<KeyRow>({ ...lookup, parameters: [lookupId], queryId: createQueryId() });
  const row = rows[0];
  const stored = row ? Buffer.from(row.secret_hash, "hex") : DUMMY_HASH;
  const matches = timingSafeEqual(presentedHash, stored) && row !== undefined;
  if (!row || !matches) return { status: "invalid" };
  const prefix = displayPrefix(lookupId);
  if (row.status !== "active") return { status: row.status, prefix };
  return {
    status: "valid",
    keyId: row.id,
    prefix,
    account: row.name,
    plan: row.plan,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
}
