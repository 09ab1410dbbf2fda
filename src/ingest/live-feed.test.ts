import { afterEach, beforeEach, expect, it } from "vitest";
import { describeLocal, storeBackends } from "../../test/support/backends.js";
import { realSleep, type DataTradeRow } from "../venue/index.js";
import { LiveFeed } from "./live-feed.js";
import { LIVE_TRADES_CHANNEL, parseLiveTradeMessage, type LiveTradeMessage } from "./live-message.js";
import { SOURCES } from "./sources.js";
import { address, hash32, startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { checkpointOf, openIngestHarness, type IngestHarness } from "./testing/harness.js";

let serial = 0;
function trade(ts: number): DataTradeRow {
  serial += 1;
  return {
    proxyWallet: address(0x500 + serial),
    side: "BUY",
    asset: "4242",
    conditionId: hash32(0xd),
    size: 100,
    price: 0.97,
    timestamp: ts,
    outcomeIndex: 0,
    transactionHash: hash32(0x9000 + serial),
    title: "T",
    outcome: "Yes",
    name: `n${serial}`,
    pseudonym: "Swift-Otter",
  };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// One store is enough (the feed is what is tested) and its platform is in-process: `npm test` runs it on SQLite.
describeLocal.each(storeBackends.slice(0, 1))("live feed on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;
  let feed: LiveFeed;
  const messages: LiveTradeMessage[] = [];

  beforeEach(async () => {
    venue = await startFakeVenue();
    h = await openIngestHarness(backend, venue);
    messages.length = 0;
    await h.platform.pubsub.subscribe(LIVE_TRADES_CHANNEL, (text) => void messages.push(parseLiveTradeMessage(text)!));
    feed = new LiveFeed(h.context(), venue.clients().rtds, venue.clients().dataApi, h.platform.pubsub, {
      pollMs: 20,
      sleep: realSleep,
      checkpointEveryMs: 0,
    });
  });
  afterEach(async () => {
    await feed.stop();
    await h.dispose();
    await venue.close();
  });

  it("polls /trades while RTDS is down and publishes each new trade once, oldest first", async () => {
    venue.rtds.refuse = true;
    venue.dataApi.trades = [trade(1_000), trade(1_001)];
    feed.start();
    await until(() => feed.isPolling, "polling");
    // The first poll only marks where "now" is: history is not replayed as live trades.
    await new Promise((r) => setTimeout(r, 100));
    expect(messages).toEqual([]);
    const fresh = [trade(1_002), trade(1_003)];
    venue.dataApi.trades.push(...fresh);
    await until(() => messages.length === 2, "two polled trades");
    expect(messages.map((m) => [m.via, m.txHash, m.wallet, m.size, m.price, m.usd])).toEqual(
      fresh.map((t) => ["poll", t.transactionHash, t.proxyWallet, 100_000_000, 970_000, 97_000_000]),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(messages).toHaveLength(2);
    await until(async () => (await checkpointOf(h.store, SOURCES.live))?.cursor === "ts:1003", "the live checkpoint");
  });

  it("relays RTDS trades while it is up, falls back to polling when it drops, and stops polling when it is back", async () => {
    venue.dataApi.trades = [trade(2_000)];
    feed.start();
    await until(() => venue.rtds.sockets.size === 1 && !feed.isPolling, "an RTDS connection");
    const live = trade(2_001);
    venue.rtds.broadcastTrade({ ...live });
    await until(() => messages.length === 1, "the RTDS trade");
    expect(messages[0]).toMatchObject({
      via: "rtds",
      key: `data:${live.transactionHash}:${live.proxyWallet}:4242:BUY:100000000:970000`,
      name: live.name,
    });

    venue.rtds.refuse = true;
    venue.rtds.dropAll();
    await until(() => feed.isPolling, "polling after the drop");
    // The trade RTDS already delivered comes back in the poll: not published again.
    const missed = trade(2_002);
    venue.dataApi.trades.push(live, missed);
    await until(() => messages.length === 2, "the trade missed while RTDS was down");
    expect(messages[1]).toMatchObject({ via: "poll", txHash: missed.transactionHash });

    venue.rtds.refuse = false;
    await until(() => venue.rtds.sockets.size === 1 && !feed.isPolling, "RTDS back up");
    venue.rtds.broadcastTrade({ ...missed });
    venue.rtds.broadcastTrade({ ...trade(2_003) });
    await until(() => messages.length === 3, "the next RTDS trade");
    expect(messages.map((m) => m.via)).toEqual(["rtds", "poll", "rtds"]);
  });
});
