import { Test } from '@nestjs/testing';
import { StopService } from '@podwarden/platform';
import { captureLogs, testConfig } from '@podwarden/testing';
import { IdleMonitorModule } from './idle-monitor.module';

describe('IdleMonitorModule', () => {
  it('resolves every dependency of the idle monitor from the modules it imports', async () => {
    // Preview resolves every constructor's dependencies without building anything (no Redis, no sockets).
    const app = await Test.createTestingModule({
      imports: [IdleMonitorModule.forRoot({ config: testConfig(), logger: captureLogs().logger })],
    }).compile({ preview: true });
    expect(app.get(StopService, { strict: false })).toBeDefined();
  });
});
