/**
 * While the store's first sync is not derived (health's `ready: false`), every answer says so in `X-Pelagic-Ready:
 * false`: an empty list then means "not synced yet", not "nothing there". Once ready the header is gone; the
 * contract's bodies are never changed for it (docs/decisions.md, "Saying what is happening").
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "./context.js";

export const READY_HEADER = "x-pelagic-ready";

export function registerSyncHeader(app: FastifyInstance, ctx: AppContext): void {
  app.addHook("onRequest", (_request, reply, done) => {
    if (!ctx.readiness.ready) reply.header(READY_HEADER, "false");
    done();
  });
}
