import type { BootDiagnosisKind } from './boot-diagnosis';

/** A kept diagnosis as far as the runs and the last wake need it. */
export interface DiagnosisNote {
  readonly podId: string;
  /** ISO time it was made. */
  readonly at: string;
  readonly kind: BootDiagnosisKind;
  readonly summary: string;
}

/** The newest diagnosis of a run's pod made while the run was up (diagnoses newest first). */
export function diagnosisOfRun<T extends DiagnosisNote>(
  run: { readonly podId: string; readonly startedAt: string | null; readonly stoppedAt: string | null },
  diagnoses: readonly T[],
): T | null {
  const from = run.startedAt === null ? -Infinity : Date.parse(run.startedAt);
  const to = run.stoppedAt === null ? Infinity : Date.parse(run.stoppedAt);
  return (
    diagnoses.find((d) => d.podId === run.podId && Date.parse(d.at) >= from && Date.parse(d.at) <= to) ?? null
  );
}

/**
 * The last wake's reason with the boot diagnosis of its pod appended, when one was made after the
 * wake was requested: "why is it not ready" answered where an operator looks first.
 */
export function reasonWithDiagnosis(
  reason: string,
  wake: { readonly podId: string | null; readonly requestedAt: string },
  diagnosis: DiagnosisNote | null,
): string {
  if (diagnosis === null || wake.podId === null || diagnosis.podId !== wake.podId) return reason;
  if (Date.parse(diagnosis.at) < Date.parse(wake.requestedAt)) return reason;
  const note = `boot diagnosis (${diagnosis.kind}): ${diagnosis.summary}`;
  return reason.trim() === '' ? note : `${reason}; ${note}`;
}
