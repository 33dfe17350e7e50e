import { captureLogs, testConfig } from '@podwarden/testing';
import type { TickStatusEffectsDependencies } from './tick-status-effects';
import { TickStatusEffectsWiring } from './tick-status-effects-wiring';

describe('TickStatusEffectsWiring', () => {
  it("hands on each store as given and the Redis write timeout as the effects' bound (not the read timeout)", () => {
    const config = testConfig({ REDIS_WRITE_TIMEOUT_MS: '1234', REDIS_READ_TIMEOUT_MS: '99' });
    const publisher = {} as TickStatusEffectsDependencies['publisher'];
    const history = {} as TickStatusEffectsDependencies['history'];
    const readyTimes = {} as TickStatusEffectsDependencies['readyTimes'];
    const readyLog = {} as TickStatusEffectsDependencies['readyLog'];
    const { logger } = captureLogs();
    const wiring = new TickStatusEffectsWiring(publisher, history, readyTimes, readyLog, logger, config);
    expect(wiring.timeoutMs).toBe(1234);
    expect(wiring.publisher).toBe(publisher);
    expect(wiring.history).toBe(history);
    expect(wiring.readyTimes).toBe(readyTimes);
    expect(wiring.readyLog).toBe(readyLog);
    expect(wiring.logger).toBe(logger);
  });
});
