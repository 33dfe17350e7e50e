import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { CliError } from '../output/cli-error';
import { examples, type RunCommand } from './run-command';

/** Minutes as a plain decimal above 0; the gateway checks the upper bound (a day) and answers 400 past it. */
export function parseMinutes(text: string): number {
  const minutes = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(minutes > 0) || !Number.isFinite(minutes)) {
    throw new CliError('bad_request', `--minutes must be a number above 0, not ${JSON.stringify(text)}`);
  }
  return minutes;
}

/** POST …/keepalive { minutes }: hold off the idle stop (boot grace and the runtime cap still apply). */
export async function keepAlive(context: CommandContext, name: string, rawMinutes: string): Promise<unknown> {
  const minutes = parseMinutes(rawMinutes);
  return requireOk(await context.client.post(podPath(name, '/keepalive'), { minutes })).body;
}

export function registerKeepAlive(program: Command, run: RunCommand): void {
  program
    .command('keepalive')
    .argument('<name>', 'pod name (case-insensitive)')
    .requiredOption(
      '--minutes <n>',
      'hold off the idle stop for this many minutes from now (decimals allowed)',
    )
    .description(
      'Keep the pod from being idle-stopped for a while (boot grace and the runtime cap still apply)',
    )
    .addHelpText('after', examples('podwarden keepalive qwen --minutes 90'))
    .action((name: string, options: { minutes: string }, command: Command) =>
      run(command, (context) => keepAlive(context, name, options.minutes)),
    );
}
