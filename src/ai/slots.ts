/** A count of slots in one process: the generations it may run at once, taken by the worker (without waiting) and by generate calls (waiting their turn). */
export class Slots {
  private taken = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  get free(): number {
    return this.size - this.taken;
  }

  tryTake(): boolean {
    if (this.taken >= this.size) return false;
    this.taken++;
    return true;
  }

  async take(): Promise<void> {
    if (this.tryTake()) return;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Frees a slot, or hands it straight to the longest waiter. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken--;
  }
}
