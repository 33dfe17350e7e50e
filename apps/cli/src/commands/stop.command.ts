import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { asRecord } from '../gateway/json-fields';
import { CliError } from '../output/cli-error';
import { examples, type RunCommand } from './run-command';

interface StopAnswer {
  readonly ok: boolean;
  readonly pods: ReadonlyArray<{ readonly podId: string; readonly ok: boolean }>;
}

function readStopAnswer(body: unknown): StopAnswer | null {
  const record = asRecord(body);
  if (record === null || typeof record.ok !== 'boolean' || !Array.isArray(record.pods)) return null;
  const pods = record.pods.map(asRecord);
  if (pods.some((pod) => pod === null || typeof pod.podId !== 'string' || typeof pod.ok !== 'boolean'))
    return null;
  return { ok: record.ok, pods: pods as unknown as StopAnswer['pods'] };
}

/**
 * POST …/stop. A 200 whose `ok` is false means RunPod refused at least one
 * stop: those pods may still bill, so it is an error naming them, not a success.
 */
export async function stopPods(context: CommandContext, name: string): Promise<unknown> {
  const { body } = requireOk(await context.client.post(podPath(name, '/stop'), undefined));
  const answer = readStopAnswer(body);
  if (answer === null) {
    throw new CliError(
      'unreachable',
      `the stop answer could not be read; check \`podwarden status ${name}\``,
      {
        name,
        answer: body,
      },
    );
  }
  if (!answer.ok) {
    const refused = answer.pods.filter((pod) => !pod.ok).map((pod) => pod.podId);
    throw new CliError('failed', `RunPod did not stop ${refused.join(', ')}; it may still be billing`, {
      name,
      podId: refused[0] ?? null,
      pods: answer.pods,
    });
  }
  return body;
}

export function registerStop(program: Command, run: RunCommand): void {
  program
    .command('stop')
    .argument('<name>', 'pod name (case-insensitive)')
    .description('Stop every pod on the volume (needs the operator token)')
    .addHelpText('after', examples('export PODWARDEN_TOKEN=…   # the operator token', 'podwarden stop qwen'))
    .action((name: string, _options: unknown, command: Command) =>
      run(command, (context) => stopPods(context, name)),
    );
}
