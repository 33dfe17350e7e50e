import type { GpuCandidate } from '@podwarden/policies';
import type { PodActionResult } from '@podwarden/runpod-client';
import { actionAccepted, actionRefused } from '@podwarden/testing';
import { A100 } from '../testing/gpu-catalogs';
import { MemoryIntents } from '../testing/memory-intents';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction } from '../testing/wake-scenarios';
import { tearDownCreatedPod } from './tear-down-created-pod';

const CANDIDATE: GpuCandidate = {
  gpuId: A100,
  pricePerHour: 1.19,
  dataCenterAvailability: 'MEDIUM',
  vramGb: 80,
};
const WHY = 'reached Failed';

describe(tearDownCreatedPod.name, () => {
  it.each<[string, PodActionResult, string | null, 'info' | 'warn', string, string]>([
    [
      'accepted: recorded with the reason as its detail',
      actionAccepted(200),
      WHY,
      'info',
      `terminated pod new1 this wake created (${WHY})`,
      'terminated by this wake',
    ],
    [
      "refused: recorded with RunPod's detail, and the wake says it may still bill",
      actionRefused(503, 'no capacity to terminate'),
      'no capacity to terminate',
      'warn',
      'terminate of pod new1 this wake created refused (HTTP 503); it may still bill',
      'its terminate was refused (HTTP 503); it may still bill',
    ],
  ])('%s', async (_case, answer, detail, level, line, returned) => {
    const runpod = scriptedRunPod().onTerminate(answer);
    const intents = new MemoryIntents(runpod);
    const h = wakeRunHarness(runpod, { intents });

    const said = await tearDownCreatedPod(h.context(), 'new1', CANDIDATE, WHY);

    expect(said).toBe(returned);
    expect(runpod.events).toEqual([
      'intent Terminate new1',
      'terminate new1',
      `record Terminate new1 ok=${answer.ok}`,
    ]);
    expect(h.progress.reports).toEqual([
      { phase: 'terminate', message: `terminating pod new1 this wake created: ${WHY}` },
    ]);
    expect(h.actions.entries).toEqual([
      wakeAction({
        action: 'Terminate',
        podId: 'new1',
        gpuId: A100,
        pricePerHour: 1.19,
        httpStatus: answer.httpStatus,
        ok: answer.ok,
        detail,
      }),
    ]);
    expect(h.logs.messages(level)).toEqual([line]);
    // The record closes the intent written before the call.
    expect(intents.entries.size).toBe(0);
  });
});
