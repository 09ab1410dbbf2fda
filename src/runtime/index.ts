/**
 * The composition root: what the commands (src/commands/) and the service share to open the configured store,
 * platform and service. Nothing here imports a command. A command that does not serve imports `./store.js` and
 * `./signals.js` and `./process-guard.js` themselves, not this file, so that it starts without loading the HTTP service.
 */
export { openConfiguredStore, withMigratedStore } from "./store.js";
export { startService, type Service, type StartOptions } from "./service.js";
export { stopOnSignals } from "./signals.js";
export { guardProcess } from "./process-guard.js";
