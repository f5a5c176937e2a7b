// The desktop's secrets: the control token every request must carry, and the password of VLC's HTTP interface.
// The host copies them into the container as a root-only file; the entrypoint (root) reads and deletes it and hands
// the text to this server on its standard input, so neither the container's environment nor any session process
// (the agent's) inherits them. `DESKBENCH_TOKEN` in the environment still works when the server is run by hand.
import { readFileSync } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';

export interface Secrets {
  token: string;
  vlcPassword: string;
}

/** `key=value` lines, as the host writes them (src/desktop/providers/docker/container.ts). */
function parseSecrets(text: string): Partial<Secrets> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return { token: values.get('token') || undefined, vlcPassword: values.get('vlc_password') || undefined };
}

export function loadSecrets(): Secrets {
  const fromStdin = process.env.DESKBENCH_SECRETS_ON_STDIN === '1' ? parseSecrets(readFileSync(0, 'utf8')) : {};
  const secrets = {
    token: fromStdin.token ?? process.env.DESKBENCH_TOKEN ?? '',
    vlcPassword: fromStdin.vlcPassword ?? process.env.DESKBENCH_VLC_PASSWORD ?? 'password',
  };
  delete process.env.DESKBENCH_TOKEN; // commands run by the server never see it
  delete process.env.DESKBENCH_VLC_PASSWORD;
  delete process.env.DESKBENCH_SECRETS_ON_STDIN;
  return secrets;
}

/** True when the Authorization header carries exactly `Bearer <token>` (constant-time); never without a token. */
export function bearerMatches(token: string, header: string | undefined): boolean {
  if (!token || !header) return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
