import { SingleFlight } from './single-flight';

function controllable<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
} {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe(SingleFlight.name, () => {
  it('concurrent runs of one key share one read', async () => {
    const sut = new SingleFlight<number>();
    const read = controllable<number>();
    let reads = 0;
    const work = () => {
      reads += 1;
      return read.promise;
    };
    const all = Promise.all([sut.run('a', work), sut.run('a', work), sut.run('a', work)]);
    read.resolve(7);
    expect(await all).toEqual([7, 7, 7]);
    expect(reads).toBe(1);
  });

  it('different keys do not share', async () => {
    const sut = new SingleFlight<string>();
    const results = await Promise.all([sut.run('a', async () => 'A'), sut.run('b', async () => 'B')]);
    expect(results).toEqual(['A', 'B']);
  });

  it('nothing is kept once the read settles', async () => {
    const sut = new SingleFlight<number>();
    let reads = 0;
    const work = async () => ++reads;
    expect(await sut.run('a', work)).toBe(1);
    expect(await sut.run('a', work)).toBe(2);
  });

  it('after invalidate a new run does not join the read already in flight', async () => {
    const sut = new SingleFlight<string>();
    const stale = controllable<string>();
    const before = sut.run('a', () => stale.promise);
    sut.invalidate('a');
    const after = sut.run('a', async () => 'fresh');
    const joined = sut.run('a', async () => 'not called');
    stale.resolve('stale');
    expect(await before).toBe('stale');
    expect(await after).toBe('fresh');
    expect(await joined).toBe('fresh');
  });

  it('a stale read settling late does not evict the fresh one', async () => {
    const sut = new SingleFlight<string>();
    const stale = controllable<string>();
    const fresh = controllable<string>();
    void sut.run('a', () => stale.promise);
    sut.invalidate('a');
    const first = sut.run('a', () => fresh.promise);
    stale.resolve('stale');
    await stale.promise;
    await new Promise((resolve) => setImmediate(resolve));
    const second = sut.run('a', async () => 'should join the fresh read instead');
    fresh.resolve('fresh');
    expect([await first, await second]).toEqual(['fresh', 'fresh']);
  });

  it('a failed read is shared as a failure (one read, every caller gets its error) and not kept', async () => {
    const sut = new SingleFlight<number>();
    const read = controllable<number>();
    let reads = 0;
    const work = () => {
      reads += 1;
      return read.promise;
    };
    const callers = Promise.allSettled([sut.run('a', work), sut.run('a', work), sut.run('a', work)]);
    const blip = new Error('blip');
    read.reject(blip);
    const settled = await callers;
    expect(reads).toBe(1);
    expect(settled).toEqual([
      { status: 'rejected', reason: blip },
      { status: 'rejected', reason: blip },
      { status: 'rejected', reason: blip },
    ]);
    expect(settled.every((result) => result.status === 'rejected' && result.reason === blip)).toBe(true);
    expect(await sut.run('a', async () => 1)).toBe(1);
  });
});
