import { redactText, REDACTED_TEXT } from './redact-text';

describe('redactText', () => {
  it.each<[string, string, string]>([
    ['an OpenAI-style key', 'using key sk-abc123def456ghi789', `using key ${REDACTED_TEXT}`],
    ['a Hugging Face token', 'token hf_AbCdEf0123456789xyz ok', `token ${REDACTED_TEXT} ok`],
    ['a bearer token', 'sent Bearer eyJhbGciOi.JIUzI1.NiIs', `sent Bearer ${REDACTED_TEXT}`],
    ['an AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE here', `aws ${REDACTED_TEXT} here`],
    ['a KEY= assignment', 'export OPENAI_API_KEY=whatever-it-is', `export OPENAI_API_KEY=${REDACTED_TEXT}`],
    ['a TOKEN: assignment', 'HF_TOKEN: "abc def"', `HF_TOKEN: ${REDACTED_TEXT}`],
    [
      'a token inside parentheses, the parenthesis kept',
      '(login with HF_TOKEN=abc123)',
      `(login with HF_TOKEN=${REDACTED_TEXT})`,
    ],
    ['a PASSWORD= assignment', 'DB_PASSWORD=hunter2', `DB_PASSWORD=${REDACTED_TEXT}`],
    ['a key our logs redact by name', 'operatorToken=s3cr3t-value', `operatorToken=${REDACTED_TEXT}`],
    ['a RunPod key', 'RUNPOD rpa_ABCDEFGH12345678', `RUNPOD ${REDACTED_TEXT}`],
    [
      'an ordinary line',
      "PermissionError: [Errno 13] Permission denied: '/workspace'",
      "PermissionError: [Errno 13] Permission denied: '/workspace'",
    ],
    ['a vLLM progress line', 'INFO Loading weights took 41.2 s', 'INFO Loading weights took 41.2 s'],
  ])('redacts %s', (_what, line, expected) => {
    expect(redactText(line)).toBe(expected);
  });

  it('redacts a known secret in any form it travels in', () => {
    const secret = 'plain-secret-value';
    const line = `a ${secret} b ${encodeURIComponent(secret)} c ${Buffer.from(secret).toString('base64')}`;
    expect(redactText(line, [secret, null])).toBe(`a ${REDACTED_TEXT} b ${REDACTED_TEXT} c ${REDACTED_TEXT}`);
  });
});
