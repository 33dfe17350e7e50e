import { Test } from '@nestjs/testing';
import { ProxyActivityStore, StopService } from '@podwarden/platform';
import { captureLogs, testConfig } from '@podwarden/testing';
import { GatewayModule } from './gateway.module';

describe('GatewayModule', () => {
  it('resolves every dependency of the gateway from the modules it imports', async () => {
    // Preview resolves every constructor's dependencies without building anything (no Redis, no sockets).
    const app = await Test.createTestingModule({
      imports: [GatewayModule.forRoot({ config: testConfig(), logger: captureLogs().logger })],
    }).compile({ preview: true });
    expect(app.get(StopService, { strict: false })).toBeDefined();
    expect(() => app.get(ProxyActivityStore, { strict: false })).toThrow();
  });
});
