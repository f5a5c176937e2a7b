// Secrets out of everything deskbench stores or prints (traj.jsonl, summary.json, report.json, the HTML report, test
// errors): API error texts often quote the request's key. Two kinds of secret are replaced by `***`:
// - literal values known to be secret: string values of agentOptions under secret-sounding keys (apiKey, token, …)
//   and of environment variables named like one (OPENAI_API_KEY, ANTHROPIC_API_KEY, …);
// - well-known shapes: `sk-…` keys, `Bearer …` tokens, `x-api-key: …` / `api_key=…` / `authorization: …` headers.

const MASK = '***';
/** agentOptions keys that hold secrets (apiKey, api_key, token, clientSecret, password, authorization, …). */
const SECRET_OPTION = /key|token|secret|passw(or)?d|credential|^auth/i;
/** Environment variables that hold secrets (OPENAI_API_KEY, GITHUB_TOKEN, …), not SSH_AUTH_SOCK or XAUTHORITY. */
const SECRET_VARIABLE = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;
/** Shorter values are not treated as literal secrets: replacing them would garble ordinary text. */
const MIN_SECRET_LENGTH = 6;
const PATTERNS: [RegExp, string][] = [
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${MASK}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  [/\b(x-api-key|x-goog-api-key|api[_-]?key|authorization|access[_-]?token)(["']?\s*[:=]\s*["']?)(?!\*\*\*|Bearer\b|Basic\b)[^\s"',;}&]{4,}/gi, `$1$2${MASK}`],
];

/** The literal secrets of a run: from agentOptions (at any depth) and from the environment. */
export function secretValues(agentOptions: unknown, env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, secretByName: boolean) => {
    if (typeof value === 'string') {
      if (secretByName && value.length >= MIN_SECRET_LENGTH) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, secretByName);
    } else if (value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) visit(item, secretByName || SECRET_OPTION.test(name));
    }
  };
  visit(agentOptions, false);
  for (const [name, value] of Object.entries(env)) {
    if (value && SECRET_VARIABLE.test(name) && value.length >= MIN_SECRET_LENGTH) found.add(value);
  }
  // Longest first, so a secret that contains another is masked whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** A copy of `value` (a string, or plain objects and arrays of them) with every secret masked. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redact(item, secrets)])) as T;
  }
  return value; // numbers, Buffers, dates: nothing to hide
}

function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(MASK);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
