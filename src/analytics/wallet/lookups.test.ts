import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../../test/support/backends.js";
import { BackgroundWork } from "../../platform/background-work.js";
import type { Store } from "../../store/database.js";
import { LookupCounter, lookupClient, topLookups } from "./lookups.js";

describe("lookupClient", () => {
  it("is the IPv4 address, or the /64 of an IPv6 address however it is written", () => {
    expect(lookupClient("203.0.113.9")).not.toBe(lookupClient("203.0.113.10"));
    expect(lookupClient("::ffff:203.0.113.9")).toBe(lookupClient("203.0.113.9"));
    expect(lookupClient("2001:db8:1:2::1")).toBe(lookupClient("2001:0db8:0001:0002:ffff:1:2:3"));
    expect(lookupClient("2001:db8::1")).toBe(lookupClient("2001:db8:0:0:1::"));
    expect(lookupClient("2001:db8:1:2::1")).not.toBe(lookupClient("2001:db8:1:3::1"));
    expect(lookupClient("203.0.113.9")).toMatch(/^[0-9a-f]{16}$/);
  });
});

const HOUR = 3_600;
const NOW = 1_700_000_000 - (1_700_000_000 % HOUR) + 600;

describe.each(storeBackends)("community lookups on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });
  const open = async (): Promise<Store> => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    return store;
  };

  it("count a wallet once per client and hour, across API processes", async () => {
    const store = await open();
    const [one, other] = [
      new LookupCounter(store, new BackgroundWork()),
      new LookupCounter(store, new BackgroundWork()),
    ];
    disposers.push(
      () => one.close(),
      () => other.close(),
    );
    for (let i = 0; i < 50; i++) one.record("0xpushed", NOW + i, "198.51.100.7");
    other.record("0xpushed", NOW + 60, "198.51.100.7");
    for (const ip of ["198.51.100.1", "198.51.100.2", "2001:db8::1"]) one.record("0xpopular", NOW, ip);
    other.record("0xpopular", NOW, "2001:db8::2");
    await one.flush();
    await other.flush();
    other.record("0xpushed", NOW + 120, "198.51.100.7");
    await other.flush();
    const top = async (now: number) => (await topLookups(store, now, 6)).map((w) => [w.wallet, w.lookups]);
    expect(await top(NOW)).toEqual([
      ["0xpopular", 3],
      ["0xpushed", 1],
    ]);
    // The next hour, the same client counts again.
    one.record("0xpushed", NOW + HOUR, "198.51.100.7");
    await one.flush();
    expect(await top(NOW + HOUR)).toEqual([
      ["0xpopular", 3],
      ["0xpushed", 2],
    ]);
    // Who looked a wallet up is forgotten after two hours; the counts stay for the window.
    const clients = async () =>
      Number(
        (
          await store.db
            .selectFrom("wallet_lookup_clients")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await clients()).toBe(5);
    expect(await top(NOW + 2 * HOUR)).toEqual([
      ["0xpopular", 3],
      ["0xpushed", 2],
    ]);
    expect(await clients()).toBe(1);
  });
});
