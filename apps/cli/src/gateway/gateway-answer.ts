/**
 * What one request to the gateway came back with. `body` is the parsed JSON,
 * or undefined when the answer was not JSON (a proxy's HTML page, an empty body).
 */
export type GatewayAnswer =
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly contentType: string;
      readonly body: unknown;
    }
  | { readonly kind: 'network'; readonly reason: string };

export function httpAnswer(status: number, body: unknown, contentType = 'application/json'): GatewayAnswer {
  return { kind: 'http', status, contentType, body };
}

export function networkFailure(reason: string): GatewayAnswer {
  return { kind: 'network', reason };
}
