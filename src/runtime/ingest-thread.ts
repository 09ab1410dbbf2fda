/**
 * Role all's ingest thread (ingest-worker.ts): opens the store with a connection of its own and the platform, runs
 * the ingest side (ingest-side.ts) until it is told to stop, forwards what it publishes to the serving thread on
 * the in-process platform, and answers for its metric families.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createPlatform, type Platform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import { metrics } from "../platform/metrics.js";
import { MemoryPubSub } from "../platform/pubsub.js";
import { guardProcess } from "./process-guard.js";
import { startIngestSide, type IngestSide } from "./ingest-side.js";
import type { FromIngestThread, IngestWorkerData, ToIngestThread } from "./ingest-worker.js";
import { openConfiguredStore } from "./store.js";

const port = parentPort;
if (!port) throw new Error("ingest-thread runs as a worker thread");
const { config, forwardsPublishes } = workerData as IngestWorkerData;
const post = (message: FromIngestThread) => port.postMessage(message);

/** The in-process pub/sub of this thread, whose messages the serving thread's subscribers (the streams) get too. */
class ForwardingPubSub extends MemoryPubSub {
  override async publish(channel: string, message: string): Promise<void> {
    await super.publish(channel, message);
    post({ type: "publish", channel, message });
  }
}

const logger = createLogger(config.server.logLevel);
// An uncaught error ends this thread with code 1 (process.exit in a worker ends the thread); the serving thread
// then exits the process.
guardProcess(logger);

let side: IngestSide;
let platform: Platform;
const store = await openConfiguredStore(config, { ingests: true });
try {
  const created = await createPlatform(config.platform);
  platform = forwardsPublishes ? { ...created, pubsub: new ForwardingPubSub() } : created;
  side = await startIngestSide({ config, store, platform, logger });
} catch (error) {
  await store.close();
  post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
post({ type: "started" });

port.on("message", async (message: ToIngestThread) => {
  if (message.type === "metrics") {
    post({ type: "metrics", id: message.id, families: await metrics.ownFamilies() });
    return;
  }
  await side.stop();
  await platform.close();
  await store.close();
  process.exit(0);
});
