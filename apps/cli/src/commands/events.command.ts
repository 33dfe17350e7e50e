import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { formatDocument } from '../cli-runtime';
import { followEvents, type FollowEnding } from '../events/event-follower';
import { eventDocument } from '../events/sse-parser';
import { judgeAnswer } from '../gateway/answer-verdict';
import type { GatewayAnswer } from '../gateway/gateway-answer';
import { podPath } from '../gateway/gateway-client';
import { InterruptHandler } from '../interrupt/interrupt-handler';
import { CliError } from '../output/cli-error';
import { examples, type RunCommand } from './run-command';

/**
 * Why the events route gave no stream. A 404 is either an unknown pod or a
 * gateway without the route; GET on the pod tells which.
 */
async function refusalError(context: CommandContext, name: string, answer: GatewayAnswer): Promise<CliError> {
  const verdict = judgeAnswer(answer);
  if (verdict.kind === 'ok') {
    const type = answer.kind === 'http' ? answer.contentType || 'no content type' : '';
    return new CliError(
      'unreachable',
      `the events route answered ${type}, not text/event-stream: a proxy may strip server-sent events`,
      {
        name,
      },
    );
  }
  if (verdict.kind === 'transient')
    return new CliError('unreachable', verdict.reason, { name, httpStatus: verdict.httpStatus });
  if (verdict.error.code !== 'not_found') return verdict.error.with({ name });
  const pod = judgeAnswer(await context.client.get(podPath(name)));
  if (pod.kind === 'final' && pod.error.code === 'not_found') return pod.error.with({ name });
  return new CliError(
    'not_found',
    'this gateway has no event stream (GET /api/pods/{name}/events answered 404); use `podwarden status`',
    {
      name,
      httpStatus: 404,
    },
  );
}

async function endingError(
  context: CommandContext,
  name: string,
  ending: FollowEnding,
): Promise<CliError | null> {
  switch (ending.kind) {
    case 'aborted':
      return null;
    case 'gave-up':
      return new CliError('unreachable', ending.reason, { name });
    case 'not-a-stream':
      return refusalError(context, name, ending.answer);
  }
}

/**
 * `events NAME`: one JSON object per line on stdout for each event, until
 * Ctrl-C (exit 0). Drops reconnect with Last-Event-ID; reconnects are said on stderr.
 */
export async function followPodEvents(context: CommandContext, name: string): Promise<null> {
  const { runtime, client } = context;
  const progress = context.progress(name);
  const interrupts = new InterruptHandler(runtime.signals, () => runtime.exitNow(null, 0)).install();
  try {
    const ending = await followEvents(
      (lastEventId, signal) => client.openStream(podPath(name, '/events'), lastEventId, signal),
      context.clock,
      {
        onEvent: (event) => runtime.out(formatDocument(eventDocument(event), false)),
        onConnected: (reconnect) =>
          progress.note(reconnect ? 'reconnected' : 'following the event stream (Ctrl-C ends)'),
        onDisconnected: (reason) => progress.note(`${reason}; reconnecting`),
      },
      interrupts.signal,
    );
    const error = await endingError(context, name, ending);
    if (error !== null) throw error;
    return null;
  } finally {
    interrupts.dispose();
  }
}

export function registerEvents(program: Command, run: RunCommand): void {
  program
    .command('events')
    .argument('<name>', 'pod name (case-insensitive)')
    .description(
      'Follow the pod’s live events (wake progress, phase changes, stops, keep-alive, budget), one JSON per line',
    )
    .addHelpText(
      'after',
      examples('podwarden events qwen', 'podwarden events qwen | jq -c \'select(.event == "phase")\''),
    )
    .action((name: string, _options: unknown, command: Command) =>
      run(command, (context) => followPodEvents(context, name)),
    );
}
