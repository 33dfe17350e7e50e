import { Test } from '@nestjs/testing';
import { StopService, WakeGate } from '@podwarden/platform';
import { captureLogs, testConfig } from '@podwarden/testing';
import { WakerModule } from './waker.module';

describe('WakerModule', () => {
  // Preview resolves every constructor's dependencies without building anything (no Redis, no sockets).
  const compile = () =>
    Test.createTestingModule({
      imports: [WakerModule.forRoot({ config: testConfig(), logger: captureLogs().logger })],
    }).compile({ preview: true });

  it('resolves every dependency of the waker from the modules it imports, and has no stop service', async () => {
    const app = await compile();
    expect(app.get(WakeGate, { strict: false })).toBeDefined();
    expect(() => app.get(StopService, { strict: false })).toThrow();
  });
});
