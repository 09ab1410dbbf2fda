/**
 * The window aggregates' thread (aggregates-worker.ts): opens the store the API reads from with a connection of its
 * own, computes each aggregate it is asked for and posts the value back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { WINDOW_AGGREGATES } from "../analytics/windows/window-aggregates.js";
import type { AggregatesWorkerData, FromAggregatesThread, ToAggregatesThread } from "./aggregates-worker.js";
import { openConfiguredReadStore, openConfiguredStore } from "./store.js";

const port = parentPort;
if (!port) throw new Error("aggregates-thread runs as a worker thread");
const { config } = workerData as AggregatesWorkerData;
const store = (await openConfiguredReadStore(config)) ?? (await openConfiguredStore(config, { ingests: false }));
const post = (message: FromAggregatesThread) => port.postMessage(message);

port.on("message", async (message: ToAggregatesThread) => {
  if (message.type === "close") {
    await store.close();
    port.close();
    return;
  }
  try {
    const value = await WINDOW_AGGREGATES[message.name].compute(store, config, message.now);
    post({ type: "value", id: message.id, value });
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    post({ type: "error", id: message.id, name, message: text });
  }
});
