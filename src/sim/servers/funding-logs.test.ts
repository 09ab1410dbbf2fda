import { decodeEventLog } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ERC20_TRANSFER,
  ERC20_TRANSFER_TOPIC,
  VENUE_EVENT_TOPICS,
  adapterTransfersFilter,
  addressTopic,
  logFilterFor,
  type Hex,
  type VenueEventKind,
} from "../../venue/chain/abi.js";
import { CONTRACTS } from "../../venue/contracts.js";
import { RpcLogsShape } from "../../venue/shapes/index.js";
import { FUNDING_HUBS, V2_CUTOVER_TS, blockAt, blockTimestamp } from "../world/index.js";
import { logsInBlocks } from "./chain-logs.js";
import type { SimVenue } from "./index.js";
import { closeVenues, hex, rpc, smallVenue } from "./testing/venues.js";

interface Log {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: string;
  blockTimestamp: string;
  transactionHash: string;
  logIndex: string;
}

let venue: SimVenue;
beforeAll(async () => {
  venue = await smallVenue();
});
afterAll(closeVenues);

const BOTH_TOKENS = [CONTRACTS.usdcE, CONTRACTS.pUsd];
const getLogs = async (filter: Record<string, unknown>) => {
  const answer = await rpc(venue, "eth_getLogs", [filter]);
  if (answer.error) throw new Error(answer.error.message);
  return answer.result as Log[];
};
const order = (log: Log) => Number(log.blockNumber) * 1e6 + Number(log.logIndex);
const f = () => venue.world.funding;

/** A wallet funded more than once, over both tokens when one is. */
function fundedWallet(): string {
  const funding = f();
  const wallets = venue.world.wallets.map((w) => w.proxyWallet);
  const both = wallets.find((w) => {
    const into = funding.into(w);
    return into.length >= 2 && new Set(into.map((i) => funding.token(i))).size === 2;
  });
  return both ?? wallets.find((w) => funding.into(w).length >= 2)!;
}

describe("the collateral tokens' Transfer logs (eth_getLogs)", () => {
  it("serves a wallet's funding by its recipient topic, over the whole chain, as the tokens emit it", async () => {
    const wallet = fundedWallet();
    const logs = await getLogs({
      fromBlock: "earliest",
      toBlock: "latest",
      address: BOTH_TOKENS,
      topics: [ERC20_TRANSFER_TOPIC, null, addressTopic(wallet)],
    });
    expect(RpcLogsShape.issues(logs)).toEqual([]);
    const expected = f().into(wallet);
    expect(logs).toHaveLength(expected.length);
    logs.forEach((log, k) => {
      const i = expected[k]!;
      const { eventName, args } = decodeEventLog({
        abi: [ERC20_TRANSFER],
        topics: log.topics as [Hex],
        data: log.data,
        strict: true,
      });
      expect(eventName).toBe("Transfer");
      const { from, to, value } = args as { from: string; to: string; value: bigint };
      expect([from.toLowerCase(), to.toLowerCase(), value]).toEqual([f().from[i], wallet, BigInt(f().amount[i]!)]);
      const ts = f().ts[i]!;
      expect(log.address).toBe((ts < V2_CUTOVER_TS ? CONTRACTS.usdcE : CONTRACTS.pUsd).toLowerCase());
      expect([Number(log.blockNumber), Number(log.blockTimestamp)]).toEqual([blockAt(ts), ts]);
      expect(log.transactionHash).toBe(venue.world.txHashOfFunding(i));
    });
  });

  it("takes OR-arrays per topic position and null wildcards", async () => {
    const [a, b] = venue.world.wallets.filter((w) => venue.world.fillsOfWallet(w.index).length > 0);
    const both = await getLogs({
      fromBlock: "earliest",
      topics: [
        [ERC20_TRANSFER_TOPIC, VENUE_EVENT_TOPICS.OrderFilledV1],
        null,
        [a, b].map((w) => addressTopic(w!.proxyWallet)),
      ],
    });
    // Topic 2 is a transfer's recipient and a V1 OrderFilled's maker (the order's owner: every fill of the wallet).
    const v1Fills = (w: number) =>
      [...venue.world.fillsOfWallet(w)].filter((i) => venue.world.fill(i).exchangeVersion === 1);
    const transfers = f().into(a!.proxyWallet).length + f().into(b!.proxyWallet).length;
    expect(v1Fills(a!.index).length + v1Fills(b!.index).length).toBeGreaterThan(0);
    expect(both).toHaveLength(transfers + v1Fills(a!.index).length + v1Fills(b!.index).length);
    expect(both.filter((log) => log.topics[0] === ERC20_TRANSFER_TOPIC)).toHaveLength(transfers);
    expect(both.map(order)).toEqual(both.map(order).sort((x, y) => x - y));
    // A sender in topic 1, anything in topic 2: every transfer from that hub in the range, and nothing else.
    const hub = FUNDING_HUBS[0]!.address;
    const from = blockAt(venue.world.start);
    const to = blockAt(venue.world.end);
    const fromHub = await getLogs({ fromBlock: hex(from), toBlock: hex(to), topics: [null, addressTopic(hub)] });
    const [lo, hi] = f().between(blockTimestamp(from), blockTimestamp(to) + 2);
    const expected = [...Array(hi - lo).keys()].filter((k) => f().from[lo + k] === hub).length;
    expect(expected).toBeGreaterThan(0);
    expect(fromHub).toHaveLength(expected);
    for (const log of fromHub)
      expect([log.topics[0], log.topics[1]]).toEqual([ERC20_TRANSFER_TOPIC, addressTopic(hub)]);
    // A topic word that holds no address matches no transfer.
    expect(await getLogs({ fromBlock: "earliest", topics: [null, null, `0x${"f".repeat(64)}`] })).toEqual([]);
  });

  it("takes one address or several, in any case: one token leaves out the other's transfers", async () => {
    const wallet = fundedWallet();
    const topics = [ERC20_TRANSFER_TOPIC, null, addressTopic(wallet)];
    const usdcE = await getLogs({
      fromBlock: "earliest",
      address: CONTRACTS.usdcE.toUpperCase().replace("0X", "0x"),
      topics,
    });
    const pUsd = await getLogs({ fromBlock: "earliest", address: [CONTRACTS.pUsd], topics });
    expect(usdcE.every((log) => log.address === CONTRACTS.usdcE.toLowerCase())).toBe(true);
    expect(pUsd.every((log) => log.address === CONTRACTS.pUsd.toLowerCase())).toBe(true);
    expect(usdcE.length + pUsd.length).toBe(f().into(wallet).length);
    expect(await getLogs({ fromBlock: "earliest", address: CONTRACTS.ctfExchangeV1, topics })).toEqual([]);
  });

  it("bounds the answer by fromBlock and toBlock", async () => {
    const i = Math.floor(f().count * 0.8);
    const block = blockAt(f().ts[i]!);
    const logs = await getLogs({ fromBlock: hex(block - 50), toBlock: hex(block), topics: [ERC20_TRANSFER_TOPIC] });
    const [lo, hi] = f().between(blockTimestamp(block - 50), blockTimestamp(block) + 2);
    expect(logs.map((log) => log.transactionHash)).toEqual(
      [...Array(hi - lo).keys()].map((k) => venue.world.txHashOfFunding(lo + k)),
    );
    expect(logs.map((log) => log.transactionHash)).toContain(venue.world.txHashOfFunding(i));
  });

  it("leaves what the ingest asks for as it was, and merges the transfers in chain order when asked for everything", async () => {
    const kinds = Object.keys(VENUE_EVENT_TOPICS) as VenueEventKind[];
    const i = f().count - 1;
    const block = blockAt(f().ts[i]!);
    const range = { fromBlock: hex(block - 3_000), toBlock: hex(block) };
    for (const filter of [logFilterFor(kinds), adapterTransfersFilter()]) {
      const logs = await getLogs({ ...range, ...filter });
      const addresses = new Set(filter.address);
      const topics = new Set(filter.topics[0]);
      const before = [...logsInBlocks(venue.world, block - 3_000, block)].filter(
        (log) => addresses.has(log.event.address) && topics.has(VENUE_EVENT_TOPICS[log.event.kind]),
      );
      expect(logs.some((log) => log.topics[0] === ERC20_TRANSFER_TOPIC)).toBe(false);
      if (filter.topics.length === 1) expect(logs).toHaveLength(before.length);
    }
    const everything = await getLogs(range);
    const transfers = everything.filter((log) => log.topics[0] === ERC20_TRANSFER_TOPIC);
    expect(transfers.map((log) => log.transactionHash)).toContain(venue.world.txHashOfFunding(i));
    expect(everything.length).toBe([...logsInBlocks(venue.world, block - 3_000, block)].length + transfers.length);
    const keys = everything.map(order);
    expect(keys.every((k, n) => n === 0 || k > keys[n - 1]!)).toBe(true);
  });

  it("refuses an answer past the node's log limit the way it refuses the venue's logs", async () => {
    const strict = await smallVenue({ rpc: { maxLogs: 3 } });
    const answer = await rpc(strict, "eth_getLogs", [
      {
        fromBlock: "earliest",
        toBlock: "latest",
        topics: [ERC20_TRANSFER_TOPIC, addressTopic(FUNDING_HUBS[0]!.address)],
      },
    ]);
    expect(answer.error?.code).toBe(-32005);
    expect(answer.error?.message).toMatch(
      /^query returned more than 3 results\. Try with this block range \[0x0, 0x[0-9a-f]+\]\.$/,
    );
  });

  it("lists each funding transaction in its block", async () => {
    const i = Math.floor(f().count / 2);
    const { result } = await rpc(venue, "eth_getBlockByNumber", [hex(blockAt(f().ts[i]!)), false]);
    expect((result as { transactions: string[] }).transactions).toContain(venue.world.txHashOfFunding(i));
  });
});
