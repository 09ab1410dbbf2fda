/**
 * From a map to events: measures the subscriptions a map change may concern (a fingerprint that did not move
 * keeps the previous measurement and emits nothing), turns each change of threat level into its crossings, and
 * confirms captures once the next full update still shows them. Pure: the probe stores what this returns.
 */
import { measure, type Measurement } from "./geo/measure.js";
import type { LayerFilter, Shading } from "./geo/shading.js";
import type { StateRow, SubscriptionRecord } from "./monitor-store.js";
import { crossings, threatOf, type Crossing, type Place, type ThreatLevel, type ThreatThresholds } from "./threat.js";

export interface EventDraft {
  readonly subscription: SubscriptionRecord;
  readonly crossing: Crossing;
  readonly measurement: Measurement;
  /** MAP_ROLLBACK: whether the capture it undoes had been confirmed. */
  readonly captureConfirmed?: boolean;
}

/** A state to store; `map_version_id` and a new capture's event id are filled in when stored. */
export interface StateDraft {
  readonly row: Omit<StateRow, "map_version_id">;
  /** The state's capture is the CAPTURED event among this evaluation's drafts. */
  readonly newCapture: boolean;
}

/**
 * A capture waiting for its confirmation. Once ISW_CONFIRM_AFTER_HOURS have passed it is armed with the daily
 * layers' edit dates of that moment, and the first map whose daily layers are all newer confirms it.
 */
interface CaptureMark {
  readonly at: number;
  readonly armed: boolean;
  readonly edits: Readonly<Record<string, number>>;
}

export interface EvaluationInput {
  readonly subscriptions: readonly SubscriptionRecord[];
  readonly states: ReadonlyMap<number, StateRow>;
  readonly shading: Shading;
  readonly thresholds: ThreatThresholds;
  readonly searchRadiusM: number;
  readonly layersFor: (subscription: SubscriptionRecord) => LayerFilter;
  /** No new map: measure only the subscriptions without a state of their current definition (a baseline). */
  readonly baselineOnly: boolean;
  readonly now: number;
  /** Edit dates (ms) of the daily layers after this probe, and before it. */
  readonly dailyEdits: Readonly<Record<string, number>>;
  readonly previousDailyEdits: Readonly<Record<string, number>>;
  readonly confirmAfterSeconds: number;
}

export function placeOf(s: SubscriptionRecord): Place {
  return { checkType: s.checkType, bufferAdvanceM: s.bufferAdvanceM ?? 0 };
}

function measurementOf(state: StateRow): Measurement {
  return {
    coverage: state.coverage,
    closestDistanceM: state.closest_distance_m,
    signedDistanceM: state.signed_distance_m,
    fingerprint: state.fingerprint,
  };
}

function captureMark(state: Pick<StateRow, "capture_edit_dates">): CaptureMark | null {
  return state.capture_edit_dates ? (JSON.parse(state.capture_edit_dates) as CaptureMark) : null;
}

export function evaluateSubscriptions(input: EvaluationInput): { states: StateDraft[]; events: EventDraft[] } {
  const states: StateDraft[] = [];
  const events: EventDraft[] = [];
  for (const subscription of input.subscriptions) {
    const state = input.states.get(subscription.id);
    const current = state && state.definition_hash === subscription.definitionHash ? state : undefined;
    if (input.baselineOnly && current) continue;
    const previous = current ? measurementOf(current) : undefined;
    const measured = measure(
      input.shading,
      { checkType: subscription.checkType, points: subscription.geometry },
      {
        searchRadiusM: input.searchRadiusM + (subscription.bufferAdvanceM ?? 0),
        layers: input.layersFor(subscription),
      },
      previous,
    );
    if (current && measured === previous) continue;
    const level = threatOf(placeOf(subscription), measured, input.thresholds);
    const drafts = crossings(current ? (current.threat as ThreatLevel) : null, level);
    const captured = drafts.some((d) => d.eventType === "CAPTURED");
    const rolledBack = drafts.some((d) => d.eventType === "MAP_ROLLBACK");
    const confirmed = current?.capture_confirmed === 1;
    for (const crossing of drafts)
      events.push({
        subscription,
        crossing,
        measurement: measured,
        captureConfirmed: crossing.eventType === "MAP_ROLLBACK" ? confirmed : undefined,
      });
    const keep = current && !rolledBack && !captured;
    const mark: CaptureMark | null = captured
      ? { at: input.now, armed: input.confirmAfterSeconds === 0, edits: input.dailyEdits }
      : null;
    states.push({
      newCapture: captured,
      row: {
        subscription_id: subscription.id,
        definition_hash: subscription.definitionHash,
        threat: level,
        coverage: measured.coverage,
        closest_distance_m: measured.closestDistanceM,
        signed_distance_m: measured.signedDistanceM,
        fingerprint: measured.fingerprint,
        evaluated_at: input.now,
        capture_event_id: keep ? current.capture_event_id : null,
        capture_edit_dates: keep ? current.capture_edit_dates : mark ? JSON.stringify(mark) : null,
        capture_confirmed: keep ? current.capture_confirmed : 0,
      },
    });
  }
  return { states, events };
}

/**
 * Captures still shown by the next full daily update: once armed (ISW_CONFIRM_AFTER_HOURS after the capture, with
 * the edit dates known before the probe that saw the time pass, so an update arriving late still counts), the
 * first map whose daily layers were all edited again confirms it. Returns the states that changed.
 */
export function confirmCaptures(
  subscriptions: readonly SubscriptionRecord[],
  states: ReadonlyMap<number, StateRow>,
  input: Pick<EvaluationInput, "now" | "dailyEdits" | "previousDailyEdits" | "confirmAfterSeconds">,
): { states: StateRow[]; events: EventDraft[] } {
  const changed: StateRow[] = [];
  const events: EventDraft[] = [];
  for (const subscription of subscriptions) {
    const state = states.get(subscription.id);
    if (
      !state ||
      state.definition_hash !== subscription.definitionHash ||
      state.capture_event_id === null ||
      state.capture_confirmed === 1 ||
      state.threat !== "CRITICAL"
    )
      continue;
    let mark = captureMark(state);
    if (!mark) continue;
    const arming = !mark.armed;
    if (arming) {
      if (input.now - mark.at < input.confirmAfterSeconds) continue;
      mark = { at: mark.at, armed: true, edits: input.previousDailyEdits };
    }
    const editedAgain = Object.entries(mark.edits).every(([layer, at]) => (input.dailyEdits[layer] ?? at) > at);
    if (editedAgain) {
      changed.push({ ...state, capture_edit_dates: JSON.stringify(mark), capture_confirmed: 1 });
      events.push({
        subscription,
        crossing: { eventType: "CAPTURE_CONFIRMED", severity: "CRITICAL", previous: "CRITICAL" },
        measurement: measurementOf(state),
      });
    } else if (arming) {
      changed.push({ ...state, capture_edit_dates: JSON.stringify(mark) });
    }
  }
  return { states: changed, events };
}
