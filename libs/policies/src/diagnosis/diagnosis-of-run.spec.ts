import { diagnosisOfRun, reasonWithDiagnosis, type DiagnosisNote } from './diagnosis-of-run';

const note = (podId: string, at: string, kind: DiagnosisNote['kind'] = 'restart-loop'): DiagnosisNote => ({
  podId,
  at,
  kind,
  summary: `${kind} seen`,
});

describe('diagnoses kept with runs and the last wake', () => {
  const diagnoses = [
    note('p1', '2026-12-01T12:00:00Z', 'cold-pull'),
    note('p1', '2026-12-01T10:05:00Z'),
    note('p2', '2026-12-01T10:06:00Z'),
  ];

  it.each<[string, { podId: string; startedAt: string | null; stoppedAt: string | null }, string | null]>([
    [
      'the newest of its pod within the run',
      { podId: 'p1', startedAt: '2026-12-01T10:00:00Z', stoppedAt: '2026-12-01T10:30:00Z' },
      '2026-12-01T10:05:00Z',
    ],
    [
      'a running run takes the newest since its start',
      { podId: 'p1', startedAt: '2026-12-01T11:00:00Z', stoppedAt: null },
      '2026-12-01T12:00:00Z',
    ],
    ['none of another pod', { podId: 'p3', startedAt: null, stoppedAt: null }, null],
    ['none from before the run', { podId: 'p2', startedAt: '2026-12-01T11:00:00Z', stoppedAt: null }, null],
  ])('%s', (_rule, run, at) => {
    expect(diagnosisOfRun(run, diagnoses)?.at ?? null).toBe(at);
  });

  it.each<[string, string, DiagnosisNote | null, string]>([
    [
      'appended to the reason',
      'created p1',
      note('p1', '2026-12-01T10:05:00Z'),
      'created p1; boot diagnosis (restart-loop): restart-loop seen',
    ],
    [
      'the reason alone when empty',
      '',
      note('p1', '2026-12-01T10:05:00Z'),
      'boot diagnosis (restart-loop): restart-loop seen',
    ],
    ['not for another pod', 'created p1', note('p2', '2026-12-01T10:05:00Z'), 'created p1'],
    ['not from before the wake', 'created p1', note('p1', '2026-12-01T09:00:00Z'), 'created p1'],
    ['nothing without a diagnosis', 'created p1', null, 'created p1'],
  ])('%s', (_rule, reason, diagnosis, expected) => {
    expect(reasonWithDiagnosis(reason, { podId: 'p1', requestedAt: '2026-12-01T10:00:00Z' }, diagnosis)).toBe(
      expected,
    );
  });
});
