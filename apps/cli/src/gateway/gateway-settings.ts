import { CliError } from '../output/cli-error';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8080';

/** Where the gateway is and the token to show it; the token is only ever put in a request header. */
export interface GatewaySettings {
  readonly baseUrl: URL;
  readonly token: string | null;
}

/** From --url/--token or PODWARDEN_URL/PODWARDEN_TOKEN; a URL that is not http(s) is refused before any request. */
export function gatewaySettings(url: string | undefined, token: string | undefined): GatewaySettings {
  const raw = url === undefined || url.trim() === '' ? DEFAULT_GATEWAY_URL : url.trim();
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The URL may carry credentials, so it is not echoed back.
    throw new CliError('bad_request', 'the gateway URL (--url or PODWARDEN_URL) is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(
      'bad_request',
      'the gateway URL (--url or PODWARDEN_URL) must start with http:// or https://',
    );
  }
  if (!parsed.pathname.endsWith('/')) parsed.pathname = `${parsed.pathname}/`;
  return { baseUrl: parsed, token: token === undefined || token === '' ? null : token };
}
