import { Test } from '@nestjs/testing';
import { BudgetLedger, StopService, WakeGate } from '@podwarden/platform';
import { captureLogs, testConfig } from '@podwarden/testing';
import { InferenceProxyModule } from './inference-proxy.module';

describe('InferenceProxyModule', () => {
  // Preview resolves every constructor's dependencies without building anything (no Redis, no sockets).
  const compile = () =>
    Test.createTestingModule({
      imports: [InferenceProxyModule.forRoot({ config: testConfig(), logger: captureLogs().logger })],
    }).compile({ preview: true });

  it('resolves every dependency of the proxy from the modules it imports', async () => {
    const app = await compile();
    expect(app.get(WakeGate, { strict: false })).toBeDefined();
  });

  it('has no stop service and no budget ledger: the proxy never stops a pod or reserves budget', async () => {
    const app = await compile();
    expect(() => app.get(StopService, { strict: false })).toThrow();
    expect(() => app.get(BudgetLedger, { strict: false })).toThrow();
  });
});
