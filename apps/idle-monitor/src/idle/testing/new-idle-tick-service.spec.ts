import { newIdleTickService } from './new-idle-tick-service';

describe('newIdleTickService', () => {
  it('builds the tick on recording fakes: each collaborator is asked, none changes the outcome', async () => {
    const built = newIdleTickService();
    const outcomes = await built.service.run('tick-1');
    expect(outcomes.get('qwen')).toMatchObject({ kind: 'advanced', stop: null, stopAccepted: null });
    // No pod is listed: the volume reads NotRunning, so its run is settled.
    expect(built.calls).toEqual([
      'status.begin',
      'orphans.sweep',
      'store.withLock qwen',
      'status.publish qwen',
      'rhythm.windowFor qwen',
      'boots.check qwen',
      'ledger.settle qwen',
      'rhythm.afterTick qwen',
    ]);
  });

  it('uses an override in place of its fake', async () => {
    const swept: string[] = [];
    const built = newIdleTickService({
      orphans: {
        sweep: () => {
          swept.push('override');
          return Promise.resolve();
        },
      },
    });
    await built.service.run('tick-1');
    expect(swept).toEqual(['override']);
    expect(built.calls).not.toContain('orphans.sweep');
  });
});
