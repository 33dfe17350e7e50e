import { errorMessage } from './error-message';
import { TimeoutError, withinTimeout } from './within-timeout';

describe(withinTimeout.name, () => {
  it('passes the answer through when it comes in time', async () => {
    await expect(withinTimeout(Promise.resolve(42), 1000, 'read')).resolves.toBe(42);
  });

  it('passes a failure through unchanged', async () => {
    await expect(withinTimeout(Promise.reject(new Error('boom')), 1000, 'read')).rejects.toThrow('boom');
  });

  it('rejects with a TimeoutError naming the work when the answer is late', async () => {
    const never = new Promise<number>(() => undefined);
    const outcome = withinTimeout(never, 10, 'redis read');
    await expect(outcome).rejects.toBeInstanceOf(TimeoutError);
    await expect(outcome).rejects.toThrow('redis read timed out after 10 ms');
  });
});

describe(errorMessage.name, () => {
  it.each([
    ['an Error gives its message', new Error('gone'), 'gone'],
    ['a string is itself', 'plain', 'plain'],
    ['anything else is stringified', 42, '42'],
  ])('%s', (_rule, thrown, message) => {
    expect(errorMessage(thrown)).toBe(message);
  });
});
