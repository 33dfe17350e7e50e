import { validateWakeJobData, wakeDeduplicationId as appsDedupeId } from '@podwarden/platform';
import { InvalidWakeRequest, wakeDeduplicationId, wakeJobData } from './index';

/** The package stands alone (bullmq and ioredis only), so its copy of the rules is held to the waker's. */
describe('@podwarden/producer agrees with the waker on the payload', () => {
  const cases: { what: string; name: unknown; requestedBy?: unknown }[] = [
    { what: 'a plain name', name: 'qwen' },
    { what: 'a name with spaces around', name: '  qwen  ', requestedBy: 'svc' },
    { what: 'an empty name', name: '' },
    { what: 'a blank name', name: '   ' },
    { what: 'a number for a name', name: 7 },
    { what: 'the longest name', name: 'n'.repeat(100) },
    { what: 'a name one too long', name: 'n'.repeat(101) },
    { what: 'requestedBy a number', name: 'qwen', requestedBy: 5 },
    { what: 'requestedBy at its limit', name: 'qwen', requestedBy: 'r'.repeat(200) },
    { what: 'requestedBy one too long', name: 'qwen', requestedBy: 'r'.repeat(201) },
  ];

  it.each(cases)('$what', async ({ name, requestedBy }) => {
    const payload = requestedBy === undefined ? { podName: name } : { podName: name, requestedBy };
    const waker = await validateWakeJobData(payload);
    let ours: unknown;
    try {
      ours = {
        ok: true,
        data: wakeJobData({ name: name as string, volumeId: 'vol-1' }, requestedBy as string),
      };
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidWakeRequest);
      ours = { ok: false };
    }
    expect(ours).toEqual(waker.ok ? { ok: true, data: waker.data } : { ok: false });
  });

  it('refuses a pod without its volume, the dedupe key', () => {
    expect(() => wakeJobData({ name: 'qwen', volumeId: ' ' })).toThrow(InvalidWakeRequest);
  });

  it("uses the apps' dedupe id for the volume", () => {
    expect(wakeDeduplicationId('vol-eu-ro-1')).toBe(appsDedupeId('vol-eu-ro-1'));
    expect(wakeDeduplicationId(' vol-eu-ro-1 ')).toBe(appsDedupeId(' vol-eu-ro-1 '));
    expect(appsDedupeId(' vol-eu-ro-1 ')).toBe('wake:vol-eu-ro-1');
  });
});
