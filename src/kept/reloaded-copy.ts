/**
 * A copy of stored rows kept by an API process: the last completed load, and the load under way. A load that began
 * before `forget` (readiness turned on: it read a store still filling) completes for its callers but is not kept.
 */
import type { BackgroundWork } from "../platform/background-work.js";

export class ReloadedCopy<T> {
  view: T | null = null;
  loading: Promise<T> | null = null;
  private epoch = 0;

  constructor(
    private readonly name: string,
    private readonly load: () => Promise<T>,
    private readonly background: BackgroundWork,
  ) {}

  /** The load under way, or a new one. */
  reload(): Promise<T> {
    if (this.loading) return this.loading;
    const epoch = this.epoch;
    const loading = this.load()
      .then((view) => {
        if (epoch === this.epoch) this.view = view;
        return view;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }

  /** In the background (none once the app closes): a failed load leaves the kept copy answering. */
  reloadQuietly(): void {
    this.background.run(this.name, () => this.reload());
  }

  forget(): void {
    this.epoch++;
    this.view = null;
    this.loading = null;
  }
}
