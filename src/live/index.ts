/**
 * Live trade streams: the relay that labels and publishes live fills (run with the live feed, relay.ts), and the
 * per-process hub that fans them out to SSE and WebSocket subscribers (hub.ts, sse.ts, websocket.ts).
 */
import type { Config } from "../config/index.js";
import type { Platform } from "../platform/index.js";
import { LiveHub, type LiveLogger } from "./hub.js";
import { realScheduler, type Scheduler } from "./scheduler.js";
import { upstreamOf, type LiveUpstream } from "./upstream.js";

export { LiveHub, ALL_ENTRY_TYPES, ENTRY_TYPE_BITS, type StreamName } from "./hub.js";
export { LiveRelay, LIVE_CHANNELS } from "./relay.js";
export { ManualScheduler, realScheduler, type Scheduler } from "./scheduler.js";
export { RedisUpstream, PubSubUpstream, type LiveUpstream } from "./upstream.js";

/** What tests may replace (the timers: a ManualScheduler; where the relay's fills come from) or watch (the hub). */
export interface LiveDeps {
  readonly scheduler?: Scheduler;
  readonly upstream?: LiveUpstream;
  readonly onHub?: (hub: LiveHub) => void;
}

export function createLiveHub(config: Config, platform: Platform, logger: LiveLogger, deps: LiveDeps = {}): LiveHub {
  const live = config.live;
  const hub = new LiveHub(
    deps.upstream ?? upstreamOf(platform),
    deps.scheduler ?? realScheduler(platform.clock),
    {
      keepaliveMs: live.keepaliveSeconds * 1000,
      maxQueuedBytes: live.clientBufferBytes,
      leaseMs: live.slotLeaseSeconds * 1000,
      reconnect: { attempts: live.reconnectAttempts, baseMs: live.reconnectBaseMs },
    },
    logger,
  );
  deps.onHub?.(hub);
  return hub;
}
