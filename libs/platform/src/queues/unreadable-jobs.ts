import { Job, UnrecoverableError, type JobsOptions, type Worker } from 'bullmq';

export const UNREADABLE_JOB_REASON = 'stored job data is not JSON';

/**
 * Fails for good the active jobs whose data is not JSON: BullMQ cannot build them, so no processor or stall
 * check ever fails them and they come back after every stall check. Answers the ids failed here (another
 * replica may fail one first).
 */
export async function failUnreadableJobs(worker: Worker): Promise<string[]> {
  const client = await worker.backend.client;
  const failed: string[] = [];
  for (const id of await client.lrange(worker.keys.active, 0, -1)) {
    const [name, data, opts] = await client.hmget(worker.toKey(id), 'name', 'data', 'opts');
    if (data === null || parsesAsJson(data)) continue;
    const job = new Job(worker, name ?? '', null, optionsOf(opts), id);
    // Token "0" skips the lock check: the lock belongs to the fetch that could not build the job.
    const moved = await job.moveToFailed(new UnrecoverableError(UNREADABLE_JOB_REASON), '0').then(
      () => true,
      () => false,
    );
    if (moved) failed.push(id);
  }
  return failed;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The job's own options (its retention) when they can be read; BullMQ's defaults otherwise. */
function optionsOf(raw: string | null): JobsOptions {
  try {
    return Job.optsFromJSON(raw ?? undefined);
  } catch {
    return {};
  }
}
