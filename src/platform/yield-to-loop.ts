/**
 * Lets the event loop run what waits (requests, timers) before going on. Store reads on SQLite are synchronous, so a
 * long piece of work in an API process (a reload of an in-memory copy, a warm-up, an AI analysis) blocks every
 * request until it awaits something that is not already settled: it calls this between slices.
 */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
