/**
 * A queue of canned answers for one fake method. An answer is a value or a
 * function of the call; when the queue runs out the fallback answers, and with
 * no fallback the call throws, so a call the scenario did not plan for fails
 * the test loudly instead of getting a convenient default.
 */
export type ScriptedAnswer<A, R> = R | ((arg: A, callNumber: number) => R | Promise<R>);

export class UnexpectedCallError extends Error {
  constructor(call: string) {
    super(`unexpected call: ${call} (the scenario scripted no answer for it)`);
    this.name = 'UnexpectedCallError';
  }
}

export class ScriptedAnswers<A, R> {
  private readonly queue: Array<ScriptedAnswer<A, R>> = [];
  private fallback: ScriptedAnswer<A, R> | null = null;
  private answered = 0;

  /** Appends answers, used once each, in order. */
  push(...answers: Array<ScriptedAnswer<A, R>>): void {
    this.queue.push(...answers);
  }

  /** What every call after the queue runs out gets. */
  setFallback(answer: ScriptedAnswer<A, R>): void {
    this.fallback = answer;
  }

  get remaining(): number {
    return this.queue.length;
  }

  /** Whether a call now would get a scripted answer (a queued one or the fallback). */
  get hasAnswer(): boolean {
    return this.queue.length > 0 || this.fallback !== null;
  }

  clear(): void {
    this.queue.length = 0;
    this.fallback = null;
    this.answered = 0;
  }

  async answer(arg: A, call: string): Promise<R> {
    this.answered += 1;
    const next = this.queue.length > 0 ? this.queue.shift() : this.fallback;
    if (next === null || next === undefined) {
      throw new UnexpectedCallError(call);
    }
    return isAnswerFunction(next) ? next(arg, this.answered) : next;
  }
}

// Every answer value a fake returns is plain data, so a function is always a computed answer.
function isAnswerFunction<A, R>(
  answer: ScriptedAnswer<A, R>,
): answer is (arg: A, callNumber: number) => R | Promise<R> {
  return typeof answer === 'function';
}
