interface PendingCall<In, Out> {
  readonly input: In;
  readonly resolve: (value: Out) => void;
  readonly reject: (error: unknown) => void;
}

/** Most items one Redis call carries: bounds a script's run (it blocks Redis) and its reply. */
export const MICRO_BATCH_MAX = 256;

/**
 * Coalesces the calls made in one turn of the event loop into one call of `run` (one Redis command): a
 * tick's pods each ask for their own key at the same moment, so N asks cost one round trip, not N.
 * `run` answers one output per input, in order; if it fails, every call of that batch fails with it.
 */
export class MicroBatch<In, Out> {
  private pending: PendingCall<In, Out>[] = [];

  constructor(
    private readonly run: (inputs: readonly In[]) => Promise<readonly Out[]>,
    private readonly max: number = MICRO_BATCH_MAX,
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ input, resolve, reject });
    });
  }

  private flush(): void {
    const calls = this.pending;
    this.pending = [];
    for (let start = 0; start < calls.length; start += this.max) {
      const batch = calls.slice(start, start + this.max);
      Promise.resolve()
        .then(() => this.run(batch.map((call) => call.input)))
        .then(
          (outputs) => batch.forEach((call, i) => call.resolve(outputs[i])),
          (error: unknown) => batch.forEach((call) => call.reject(error)),
        );
    }
  }
}
