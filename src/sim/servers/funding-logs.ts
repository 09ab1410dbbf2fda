/**
 * The world's funding transfers (src/sim/world/funding.ts) as the collateral tokens' ERC-20 `Transfer` logs, as
 * USDC.e and pUSD emit them: `from` and `to` in topics 1 and 2, the value (6 decimals) as the data. Each is a
 * transaction of one log, after the venue's transactions of its block. The transfers inside trades, splits and
 * redemptions are left out, as the rest of the simulated chain leaves them out.
 */
import { ERC20_TRANSFER_TOPIC, addressTopic, type EncodedLog, type Hex } from "../../venue/chain/abi.js";
import { blockAt, blockTimestamp, BLOCK_TIME_SECONDS, type World } from "../world/index.js";

/** One transfer log, encoded, with its place on the simulated chain. */
export interface SimTransferLog {
  readonly encoded: EncodedLog;
  readonly blockNumber: number;
  readonly transactionHash: Hex;
  readonly transactionIndex: number;
  readonly logIndex: number;
}

export function transferLog(world: World, i: number): SimTransferLog {
  const f = world.funding;
  return {
    encoded: {
      address: f.token(i) as Hex,
      topics: [ERC20_TRANSFER_TOPIC, addressTopic(f.from[i]!), addressTopic(f.to[i]!)],
      data: `0x${BigInt(f.amount[i]!).toString(16).padStart(64, "0")}`,
    },
    blockNumber: blockAt(f.ts[i]!),
    transactionHash: world.txHashOfFunding(i),
    transactionIndex: f.txIndex[i]!,
    logIndex: f.logIndex[i]!,
  };
}

/**
 * Transfer logs of blocks [fromBlock, toBlock] in chain order; with `recipients` (lower-case addresses), only the
 * transfers into them, found through the recipient index rather than by a scan of the range.
 */
export function* transferLogsInBlocks(
  world: World,
  fromBlock: number,
  toBlock: number,
  recipients: ReadonlySet<string> | null,
): Generator<SimTransferLog> {
  const f = world.funding;
  const [lo, hi] = f.between(blockTimestamp(fromBlock), blockTimestamp(toBlock) + BLOCK_TIME_SECONDS);
  if (recipients === null) {
    for (let i = lo; i < hi; i++) yield transferLog(world, i);
    return;
  }
  // Transfers are numbered in chain order: the recipients' transfers merged by number are in chain order too.
  const chosen = [...recipients].flatMap((to) => f.into(to).filter((i) => i >= lo && i < hi)).sort((a, b) => a - b);
  for (const i of chosen) yield transferLog(world, i);
}
