/**
 * Presence sets with expiry: "who is looking at this page now". A member stays present for the TTL of its
 * last touch. Expiry follows the injected clock on both backends (Redis keeps expiry times as sorted-set scores).
 * Neither backend keeps a set once its last member expired: memory sweeps them (a few sets per touch, and a
 * larger share every second while idle), Redis expires a set's key shortly after its last member.
 */
import type { Redis } from "ioredis";
import { SweepCursor } from "./bounded-map.js";
import type { Clock } from "./clock.js";

export interface Presence {
  touch(set: string, member: string, ttlMs: number): Promise<void>;
  count(set: string): Promise<number>;
  close(): Promise<void>;
}

/** Sets each touch looks at in turn: two, so the sweep outpaces the one set a touch may create. */
const SWEEP_SETS_PER_TOUCH = 2;
/** Sets the idle sweep looks at each second. */
const IDLE_SWEEP_SETS = 10_000;
const IDLE_SWEEP_MS = 1_000;

interface MemberSet {
  /** Expiry by member, in touch order (a touch moves its member last). */
  members: Map<string, number>;
  /** The latest expiry of any member: the set is dropped after it. */
  until: number;
}

export class MemoryPresence implements Presence {
  private readonly sets = new Map<string, MemberSet>();
  private readonly cursor = new SweepCursor(this.sets);
  private readonly idleSweep: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    this.idleSweep = setInterval(() => this.sweep(IDLE_SWEEP_SETS), IDLE_SWEEP_MS);
    this.idleSweep.unref();
  }

  /** Sets and members held (expired ones included until swept). */
  get footprint(): { sets: number; members: number } {
    let members = 0;
    for (const set of this.sets.values()) members += set.members.size;
    return { sets: this.sets.size, members };
  }

  async touch(set: string, member: string, ttlMs: number): Promise<void> {
    const now = this.clock.nowMs();
    let entry = this.sets.get(set);
    if (!entry) this.sets.set(set, (entry = { members: new Map(), until: 0 }));
    entry.members.delete(member);
    entry.members.set(member, now + ttlMs);
    entry.until = Math.max(entry.until, now + ttlMs);
    dropExpiredFront(entry, now);
    this.sweep(SWEEP_SETS_PER_TOUCH);
  }

  async count(set: string): Promise<number> {
    const entry = this.sets.get(set);
    if (!entry) return 0;
    const now = this.clock.nowMs();
    for (const [member, expires] of entry.members) if (expires <= now) entry.members.delete(member);
    if (entry.members.size === 0) this.sets.delete(set);
    return entry.members.size;
  }

  /** Looks at up to `count` sets in turn: drops those whose members all expired, trims the others. */
  sweep(count: number): void {
    const now = this.clock.nowMs();
    this.cursor.step(count, (name, entry) => {
      if (entry.until <= now) this.sets.delete(name);
      else dropExpiredFront(entry, now);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.idleSweep);
    this.sets.clear();
  }
}

/**
 * Drops the expired members at the front of a set (the least recently touched). With one TTL per set, as the
 * routes use, these are all its expired members; `count` scans the whole set anyway.
 */
function dropExpiredFront(entry: MemberSet, now: number): void {
  for (const [member, expires] of entry.members) {
    if (expires > now) return;
    entry.members.delete(member);
  }
}

/** How long a Redis set outlives its last member's expiry (clock differences between processes). */
const REDIS_KEY_GRACE_MS = 5_000;

export class RedisPresence implements Presence {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  async touch(set: string, member: string, ttlMs: number): Promise<void> {
    const key = this.prefix + "presence:" + set;
    const keepMs = ttlMs + REDIS_KEY_GRACE_MS;
    // NX gives a new key its expiry, GT pushes an existing one later (never earlier: another member may last longer).
    await this.redis
      .multi()
      .zadd(key, this.clock.nowMs() + ttlMs, member)
      .pexpire(key, keepMs, "NX")
      .pexpire(key, keepMs, "GT")
      .exec();
  }

  async count(set: string): Promise<number> {
    const key = this.prefix + "presence:" + set;
    const now = this.clock.nowMs();
    const replies = await this.redis.multi().zremrangebyscore(key, "-inf", now).zcard(key).exec();
    const last = replies?.[1];
    if (!last || last[0]) throw last?.[0] ?? new Error("presence count failed");
    return last[1] as number;
  }

  async close(): Promise<void> {}
}
