import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { examples, type RunCommand } from './run-command';

/** GET …/diagnosis as `{ name, diagnosis }`: the latest boot diagnosis, null when no boot was diagnosed. */
export async function showDiagnosis(context: CommandContext, name: string): Promise<unknown> {
  const diagnosis = requireOk(await context.client.get(podPath(name, '/diagnosis'))).body ?? null;
  return { name, diagnosis };
}

export function registerDiagnose(program: Command, run: RunCommand): void {
  program
    .command('diagnose')
    .argument('<name>', 'pod name (case-insensitive)')
    .description(
      "Why the pod's last troubled boot was not ready: cold-pull, restart-loop, control-plane-lag, application-failure or unknown, with the redacted log lines (operator token)",
    )
    .addHelpText(
      'after',
      examples(
        'podwarden diagnose qwen',
        "podwarden diagnose qwen | jq -r '.diagnosis.kind, .diagnosis.evidence[]'",
      ),
    )
    .action((name: string, _options: unknown, command: Command) =>
      run(command, (context) => showDiagnosis(context, name)),
    );
}
