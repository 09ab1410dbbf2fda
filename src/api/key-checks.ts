/**
 * The key checks an API process keeps, so that a request with a key costs no store read: each outcome is kept for
 * KEY_CHECK_CACHE_SECONDS, found by the key's SHA-256 (never the key itself), KEY_CHECK_CACHE_ENTRIES at most.
 * Only checks of keys that exist (valid, revoked, rotated) are kept: an unknown key reads the store every time (and
 * its refusal is charged to the client IP), so a flood of random keys can neither fill the cache nor push real keys
 * out of it, and a key created a moment ago works at once. An announced change (KEY_CHANGES_CHANNEL: a revocation,
 * a rotation, a plan change) drops every kept check, and so does a gap in the announcements (the connection to Redis
 * dropped): nothing is kept until it is back. The time limit bounds what a change made to the store by hand can leave.
 */
import type { Kysely } from "kysely";
import type { Clock } from "../platform/clock.js";
import { BoundedMap } from "../platform/bounded-map.js";
import type { PubSub } from "../platform/pubsub.js";
import type { Database } from "../store/schema.js";
import {
  KEY_CHANGES_CHANNEL,
  hashKey,
  looksLikeKey,
  verifyHashedKey,
  verifyKey,
  type KeyCheck,
} from "../accounts/keys.js";

export interface KeyCheckLimits {
  /** KEY_CHECK_CACHE_SECONDS; 0 keeps nothing. */
  keyCheckCacheSeconds: number;
  /** KEY_CHECK_CACHE_ENTRIES. */
  keyCheckCacheEntries: number;
}

export class KeyChecks {
  private readonly kept: BoundedMap<KeyCheck> | undefined;
  private readonly keptMs: number;
  /** Announced changes so far: a check read from the store while one arrived may predate it, and is not kept. */
  private changes = 0;
  /** While announcements may be missed, no check is kept. */
  private deaf = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    limits: KeyCheckLimits,
  ) {
    this.keptMs = limits.keyCheckCacheSeconds * 1000;
    this.kept =
      this.keptMs > 0
        ? new BoundedMap({ maxEntries: limits.keyCheckCacheEntries, maxBytes: Number.POSITIVE_INFINITY })
        : undefined;
  }

  /** How many checks are kept. */
  get size(): number {
    return this.kept?.size ?? 0;
  }

  /** The check of a presented key: the one kept for it, else the store's (kept when the key exists). */
  async check(presented: string): Promise<KeyCheck> {
    if (!this.kept || !looksLikeKey(presented)) return verifyKey(this.db, presented);
    const hash = hashKey(presented);
    const id = hash.toString("base64");
    const now = this.clock.nowMs();
    const kept = this.kept.get(id, now);
    if (kept) return kept;
    const changesBefore = this.changes;
    const check = await verifyHashedKey(this.db, presented, hash);
    if (check.status !== "invalid" && this.changes === changesBefore && !this.deaf) {
      this.kept.set(id, Object.freeze(check), 0, now + this.keptMs, now);
    }
    return check;
  }

  /** Drops every kept check: a key was revoked or rotated, or an account's plan changed. */
  forgetAll(): void {
    this.changes++;
    this.kept?.clear();
  }

  /** Drops the kept checks on every announced change and gap; returns the function that stops listening. */
  async listen(pubsub: PubSub): Promise<() => Promise<void>> {
    const stopGaps = pubsub.onGap((listening) => {
      this.deaf = !listening;
      this.forgetAll();
    });
    const stopChanges = await pubsub.subscribe(KEY_CHANGES_CHANNEL, () => this.forgetAll());
    return async () => {
      stopGaps();
      await stopChanges();
    };
  }
}
