import { cancellationOf } from './job-cancellation';

describe(cancellationOf.name, () => {
  it.each<[string, unknown, string]>([
    ['a reason given as text', 'operator cancelled', 'wake cancelled: operator cancelled'],
    ['no reason (the platform AbortError)', undefined, 'wake cancelled: no reason given'],
    ['a blank reason', '  ', 'wake cancelled: no reason given'],
    ['a reason that is neither text nor an Error', 42, 'wake cancelled: no reason given'],
  ])('turns %s into an Error that says the wake was cancelled', (_what, reason, message) => {
    const job = new AbortController();
    job.abort(reason);

    const error = cancellationOf(job.signal);

    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(message);
  });

  it('reads an AbortError (the default reason, from any realm) as no reason given', () => {
    const aborted = new Error('This operation was aborted');
    aborted.name = 'AbortError';
    expect(cancellationOf(AbortSignal.abort(aborted)).message).toBe('wake cancelled: no reason given');
  });

  it("keeps the caller's own Error as it is", () => {
    const own = new Error('shutting down');
    expect(cancellationOf(AbortSignal.abort(own))).toBe(own);
  });
});
