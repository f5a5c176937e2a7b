// The tag vocabulary. Every test gets: its format, platform, domain, related apps, the task's own tags, and the
// flags infeasible / internet / account. vitest checks tags strictly, so the plugin registers each one it emits.
import type { Task } from './types.ts';

/** Tags with a fixed meaning, always registered so filters such as `!internet` work on any selection. */
export const FIXED_TAGS: Record<string, string> = {
  ubuntu: 'task for the Linux desktop',
  windows: 'task written for Windows (OSWorld examples_windows); the Linux desktop cannot run it',
  infeasible: 'the right answer is to say FAIL (OSWorld func "infeasible")',
  internet: 'needs the internet beyond its file downloads: live websites, package installs, git, a store',
  download: 'downloads files from URLs (offline: supply them with the files option)',
  account: 'needs a cloud account (Google Drive, Snowflake, BigQuery, dbt Cloud, ServiceNow, …)',
  invalid: 'the task file failed validation; the test fails with the error',
};

/** One name for an app the corpora spell two ways (after case and separators are normalized). */
const TAG_ALIASES: Record<string, string> = { vscode: 'vs_code' };

/**
 * The tag for a name as task files write it: lowercase, spaces and hyphens as `_` (so `OS`, `libreoffice-calc` and
 * `LibreOffice Calc` are the tags `os` and `libreoffice_calc`), without the characters vitest forbids (`( ) & | ! *`).
 */
export function tagName(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/[()&|!*]+/g, '').replace(/[\s-]+/g, '_');
  return TAG_ALIASES[name] ?? name;
}

export function tagsOf(task: Task): string[] {
  const tags = [task.format, task.platform, task.domain, ...task.relatedApps, ...task.tags];
  if (task.flags.infeasible) tags.push('infeasible');
  if (task.flags.needsNetwork) tags.push('internet');
  if (task.flags.needsDownload) tags.push('download');
  if (task.flags.needsAccount) tags.push('account');
  return [...new Set(tags.map(tagName).filter(Boolean))];
}

export function describeTag(name: string, tasks: readonly Task[]): string {
  if (FIXED_TAGS[name]) return FIXED_TAGS[name];
  if (tasks.some((t) => tagName(t.domain) === name)) return `domain ${name}`;
  if (tasks.some((t) => t.relatedApps.some((app) => tagName(app) === name))) return `uses the app ${name}`;
  return `task tag ${name}`;
}
