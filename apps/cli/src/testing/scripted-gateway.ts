import { httpAnswer, networkFailure, type GatewayAnswer } from '../gateway/gateway-answer';

/** An answer script for one route: each call takes the next answer; the last one repeats. */
export class ScriptedAnswers {
  readonly calls: number[] = [];
  private readonly answers: Array<GatewayAnswer | ((signal: AbortSignal) => Promise<GatewayAnswer>)>;

  constructor(
    private readonly clock: { now(): number },
    ...answers: Array<GatewayAnswer | ((signal: AbortSignal) => Promise<GatewayAnswer>)>
  ) {
    this.answers = answers;
  }

  readonly answer = async (signal: AbortSignal): Promise<GatewayAnswer> => {
    this.calls.push(this.clock.now());
    const next = this.answers.length > 1 ? this.answers.shift()! : this.answers[0];
    return typeof next === 'function' ? next(signal) : next;
  };
}

export const ok = (body: unknown, status = 200): GatewayAnswer => httpAnswer(status, body);
export const down = (): GatewayAnswer => networkFailure('connect ECONNREFUSED 127.0.0.1:8080');
export const badGateway = (): GatewayAnswer => httpAnswer(502, undefined, 'text/html');

export function problemAnswer(status: number, extra: Record<string, unknown> = {}): GatewayAnswer {
  return httpAnswer(
    status,
    { type: 'urn:podwarden:problem:x', title: 'T', status, detail: 'because', ...extra },
    'application/problem+json',
  );
}
