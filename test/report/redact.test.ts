import { describe, expect, test } from 'vitest';
import { redact, secretValues } from '../../src/shared/redact.ts';

describe('secretValues', () => {
  test('takes agentOptions values under secret-sounding keys, at any depth, and secret environment variables', () => {
    const secrets = secretValues(
      { apiKey: 'abc-123-secret', model: 'gpt-x', headers: { Authorization: 'Token zyx987654' }, nested: { client_secret: 'cs-000111' }, short: { token: 'ab' } },
      { OPENAI_API_KEY: 'env-key-value-1', GITHUB_TOKEN: 'ghp_value_2', SSH_AUTH_SOCK: '/tmp/agent.sock', HOME: '/root' },
    );
    expect(secrets.sort()).toEqual(['Token zyx987654', 'abc-123-secret', 'cs-000111', 'env-key-value-1', 'ghp_value_2'].sort());
  });
});

describe('redact', () => {
  const secrets = ['my-literal-secret-value'];
  test.each([
    ['401: invalid key my-literal-secret-value', '401: invalid key ***'],
    ['Incorrect API key provided: sk-test-ABCDEFGHIJ123', 'Incorrect API key provided: sk-***'],
    ['sent Authorization: Bearer eyJhbGciOi.payload.sig', 'sent Authorization: Bearer ***'],
    ['x-api-key: abcdef0123456789', 'x-api-key: ***'],
    ['{"apiKey":"zzzzzzzzzz","model":"m"}', '{"apiKey":"***","model":"m"}'],
    ['https://host/v1?api_key=qqqqqqqq&x=1', 'https://host/v1?api_key=***&x=1'],
    ['nothing secret here: the password is typed by sudo', 'nothing secret here: the password is typed by sudo'],
  ])('%s', (text, expected) => {
    expect(redact(text, secrets)).toBe(expected);
  });

  test('walks objects and arrays, leaves numbers and Buffers alone, and does not change its input', () => {
    const input = { a: ['my-literal-secret-value', 3], b: { c: 'Bearer abcdefghijk' }, png: Buffer.from('x') };
    const out = redact(input, secrets);
    expect(out).toEqual({ a: ['***', 3], b: { c: 'Bearer ***' }, png: input.png });
    expect(input.a[0]).toBe('my-literal-secret-value');
  });
});
