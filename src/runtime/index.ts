/**
 * The composition root: what the commands (src/commands/) and the service share to open the configured store,
 * platform and service. Nothing here imports a command.
 */
export { openConfiguredStore, withMigratedStore } from "./store.js";
export { startService, stopOnSignals, type Service, type StartOptions } from "./service.js";
