// A mirror: URL prefixes rewritten before a file is fetched, for labs that host the task files themselves
// (`{ 'https://huggingface.co/': 'http://mirror.internal/hf/' }`). Only where a file is fetched from changes: the cache
// and the lock stay keyed by the URL the task names.
import { OptionsError } from '../errors.ts';

/** Prefix → replacement. */
export type FilesMirror = Record<string, string>;

const MIRROR_ENV = 'DESKBENCH_FILES_MIRROR';

/** The URL to fetch: the longest matching prefix replaced, or the URL as it is. */
export function mirrored(url: string, mirror: FilesMirror | undefined): string {
  if (!mirror) return url;
  let best: string | undefined;
  for (const prefix of Object.keys(mirror)) if (url.startsWith(prefix) && prefix.length > (best?.length ?? -1)) best = prefix;
  return best === undefined ? url : mirror[best] + url.slice(best.length);
}

/**
 * The option's mirror with `DESKBENCH_FILES_MIRROR` over it (the variable wins for a prefix both name). The variable
 * holds a JSON object, or `prefix=replacement` pairs separated by commas or whitespace.
 */
export function effectiveMirror(option: FilesMirror | undefined, env: NodeJS.ProcessEnv = process.env): FilesMirror | undefined {
  const fromEnv = parseMirror(env[MIRROR_ENV] ?? '', MIRROR_ENV);
  const merged = { ...option, ...fromEnv };
  return Object.keys(merged).length ? merged : undefined;
}

/** Parses a mirror given as text (the variable, a CLI flag); `source` names it in errors. */
export function parseMirror(text: string, source: string): FilesMirror {
  const trimmed = text.trim();
  if (!trimmed) return {};
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new OptionsError(`${source}: not valid JSON (${(error as Error).message}); expected {"https://huggingface.co/": "http://mirror.internal/hf/"}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((value) => typeof value !== 'string')) {
      throw new OptionsError(`${source}: expected an object of prefix → replacement strings, got ${trimmed.slice(0, 200)}`);
    }
    return parsed as FilesMirror;
  }
  const mirror: FilesMirror = {};
  for (const pair of trimmed.split(/[\s,]+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new OptionsError(`${source}: "${pair}" is not prefix=replacement (e.g. https://huggingface.co/=http://mirror.internal/hf/)`);
    mirror[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return mirror;
}
