/** What the alerts' route files share (built once by alerts.ts). */
import type { FastifyRequest } from "fastify";
import type { DeliveryWorker } from "../../../alerts/delivery-worker.js";
import type { Config } from "../../../config/index.js";
import type { SecretBox } from "../../../alerts/webhooks/secret-box.js";
import type { TargetPolicy } from "../../../alerts/webhooks/ssrf.js";
import type { Clock } from "../../../platform/clock.js";
import type { Store } from "../../../store/database.js";

export interface AlertRoutesContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: Config["alerts"];
  readonly policy: TargetPolicy;
  /** The key that seals secrets, opened on first use (a process that never stores one creates no key file). */
  box(): SecretBox;
  /** This process's delivery worker (the test fire sends through it). */
  readonly worker: DeliveryWorker;
  /** The account of the request's valid key. */
  accountOf(request: FastifyRequest): string;
}
