import type { Logger } from "../platform/logger.js";

/** Stops the service (or any process part) on SIGTERM/SIGINT, forcing an exit if draining outlasts the grace period. */
export function stopOnSignals(service: { stop(): Promise<void> }, logger: Logger, graceMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, "draining");
    const timer = setTimeout(() => {
      logger.error("drain timed out; exiting");
      process.exit(1);
    }, graceMs);
    timer.unref();
    service.stop().then(
      () => {
        logger.info("stopped cleanly");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}
