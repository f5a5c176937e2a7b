// The desktop's secrets (server/secrets.ts): read from standard input or the environment, then removed from the
// environment the server's commands inherit; the bearer check accepts exactly `Bearer <token>` and nothing without one.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test, vi } from 'vitest';
import { bearerMatches, loadSecrets } from '../../server/secrets.ts';

const SECRETS_MODULE = fileURLToPath(new URL('../../server/secrets.ts', import.meta.url));
const SECRET_VARIABLES = ['DESKBENCH_TOKEN', 'DESKBENCH_VLC_PASSWORD', 'DESKBENCH_SECRETS_ON_STDIN'];

// loadSecrets deletes the variables it read: put back whatever the run had.
afterEach(() => {
  vi.unstubAllEnvs();
});

/** loadSecrets() in a fresh Node process with `stdin` on its standard input: what it returned and what env is left. */
function loadInChild(stdin: string, env: Record<string, string>): { secrets: unknown; left: string[] } {
  const script = `
    import { loadSecrets } from ${JSON.stringify(SECRETS_MODULE)};
    const secrets = loadSecrets();
    const left = ${JSON.stringify(SECRET_VARIABLES)}.filter((name) => name in process.env);
    console.log(JSON.stringify({ secrets, left }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: stdin,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout);
}

test('from standard input: key=value lines, values trimmed, an `=` inside a value kept; the environment is emptied', () => {
  const result = loadInChild('token = abc123\nvlc_password=p=w\nunknown=1\nno equals sign\n', {
    DESKBENCH_SECRETS_ON_STDIN: '1',
    DESKBENCH_TOKEN: 'from-env',
    DESKBENCH_VLC_PASSWORD: 'env-password',
  });
  expect(result).toEqual({ secrets: { token: 'abc123', vlcPassword: 'p=w' }, left: [] });
});

test('standard input without a value falls back to the environment (an empty value counts as none)', () => {
  const result = loadInChild('token=\n', { DESKBENCH_SECRETS_ON_STDIN: '1', DESKBENCH_TOKEN: 'from-env' });
  expect(result).toEqual({ secrets: { token: 'from-env', vlcPassword: 'password' }, left: [] });
});

test('without DESKBENCH_SECRETS_ON_STDIN the environment is used and then deleted', () => {
  vi.stubEnv('DESKBENCH_SECRETS_ON_STDIN', undefined);
  vi.stubEnv('DESKBENCH_TOKEN', 'env-token');
  vi.stubEnv('DESKBENCH_VLC_PASSWORD', 'env-vlc');
  expect(loadSecrets()).toEqual({ token: 'env-token', vlcPassword: 'env-vlc' });
  expect(process.env.DESKBENCH_TOKEN).toBeUndefined();
  expect(process.env.DESKBENCH_VLC_PASSWORD).toBeUndefined();
  // No token anywhere: an empty token, which bearerMatches never accepts.
  expect(loadSecrets()).toEqual({ token: '', vlcPassword: 'password' });
});

test('bearerMatches: exactly `Bearer <token>`', () => {
  expect(bearerMatches('s3cret', 'Bearer s3cret')).toBe(true);
  expect(bearerMatches('s3cret', 'Bearer s3creT')).toBe(false);
  expect(bearerMatches('s3cret', 'bearer s3cret')).toBe(false);
  expect(bearerMatches('s3cret', 'Bearer s3cret ')).toBe(false);
  expect(bearerMatches('s3cret', 'Bearer s3cre')).toBe(false);
  expect(bearerMatches('s3cret', 's3cret')).toBe(false);
  expect(bearerMatches('s3cret', undefined)).toBe(false);
});

test('bearerMatches: a server without a token refuses everything, even an empty bearer', () => {
  expect(bearerMatches('', 'Bearer ')).toBe(false);
  expect(bearerMatches('', undefined)).toBe(false);
});
