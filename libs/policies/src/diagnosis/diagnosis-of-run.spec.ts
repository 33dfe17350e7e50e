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
    [
      'a run whose start was not recorded takes any before its stop',
      { podId: 'p1', startedAt: null, stoppedAt: '2026-12-01T11:00:00Z' },
      '2026-12-01T10:05:00Z',
    ],
    [
      'one made the instant the run started',
      { podId: 'p1', startedAt: '2026-12-01T10:05:00Z', stoppedAt: '2026-12-01T11:00:00Z' },
      '2026-12-01T10:05:00Z',
    ],
    [
      'one made the instant the run stopped',
      { podId: 'p1', startedAt: '2026-12-01T09:00:00Z', stoppedAt: '2026-12-01T10:05:00Z' },
      '2026-12-01T10:05:00Z',
    ],
    [
      'none from after the run',
      { podId: 'p2', startedAt: '2026-12-01T09:00:00Z', stoppedAt: '2026-12-01T10:05:59.999Z' },
      null,
    ],
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
    [
      'the reason alone when blank',
      ' \t',
      note('p1', '2026-12-01T10:05:00Z'),
      'boot diagnosis (restart-loop): restart-loop seen',
    ],
    [
      'one made the instant the wake was requested',
      'created p1',
      note('p1', '2026-12-01T10:00:00Z', 'cold-pull'),
      'created p1; boot diagnosis (cold-pull): cold-pull seen',
    ],
    ['not for another pod', 'created p1', note('p2', '2026-12-01T10:05:00Z'), 'created p1'],
    ['not from before the wake', 'created p1', note('p1', '2026-12-01T09:00:00Z'), 'created p1'],
    ['nothing without a diagnosis', 'created p1', null, 'created p1'],
  ])('%s', (_rule, reason, diagnosis, expected) => {
    expect(reasonWithDiagnosis(reason, { podId: 'p1', requestedAt: '2026-12-01T10:00:00Z' }, diagnosis)).toBe(
      expected,
    );
  });

  it('nothing for a wake that placed no pod', () => {
    expect(
      reasonWithDiagnosis(
        'no GPU',
        { podId: null, requestedAt: '2026-12-01T10:00:00Z' },
        note('p1', '2026-12-01T10:05:00Z'),
      ),
    ).toBe('no GPU');
  });
});
