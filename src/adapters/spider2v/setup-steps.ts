// Spider2-V's own setup steps (`desktop_env/configs/general.py` and the per-service modules). launch, open, execute,
// sleep and activate_window are OSWorld's handlers (osworld.ts). Steps that drive a cloud account or a service's web
// UI (Snowflake, BigQuery, dbt Cloud, ServiceNow, Airbyte, …) skip the task unless the user registers a handler.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { type PathOrigin, containedPath, firstContaining } from '../../task/contained-path.ts';
import { runInBackground } from '../../setup/background-run.ts';
import { connectChrome, openTabs } from '../../setup/chrome.ts';
import { needs, StepFailedError } from '../../setup/errors.ts';
import { flag, messageOf, number, optionalString, requireString, stringList } from '../../setup/parameters.ts';
import { pythonStr } from '../../python/repr.ts';
import type { SetupContext, SetupStep } from '../../setup/registry.ts';

/**
 * Where a Spider2-V `src` is on this machine. Task files name their inputs from the Spider2-V repository root
 * (`evaluation_examples/examples/<tool>/<id>/init.sh`, `evaluation_examples/settings/snowflake/settings.json`); we
 * look beside the task's JSON first, then in the folders above it, with and without the leading `evaluation_examples/`.
 * Only candidates inside the folders spider2vRoots names count: a task may not upload other host files into the
 * desktop, where the agent and its model provider read them.
 */
export function spider2vFileCandidates(taskDir: string, src: string): string[] {
  const roots = spider2vRoots(taskDir);
  if (isAbsolute(src)) return [firstContaining(roots, src) ?? []].flat();
  const candidates: string[] = [];
  const own = src.match(/^(?:evaluation_examples\/)?examples\/[^/]+\/([^/]+)\/(.+)$/);
  if (own && own[1] === basename(taskDir)) candidates.push(join(taskDir, own[2]));
  candidates.push(resolve(taskDir, src));
  const withoutRoot = src.startsWith('evaluation_examples/') ? src.slice('evaluation_examples/'.length) : undefined;
  let folder = taskDir;
  for (let level = 0; level < 5 && dirname(folder) !== folder; level++) {
    folder = dirname(folder);
    candidates.push(join(folder, src));
    if (withoutRoot) candidates.push(join(folder, withoutRoot));
  }
  return [...new Set(candidates.flatMap((candidate) => firstContaining(roots, candidate) ?? []))];
}

/**
 * The folders a Spider2-V task's files may come from: its own; and when it lives in the `examples/<tool>/<id>/`
 * layout, the tool folder (shared inputs) and the dataset's `settings/` beside `examples/` (the credentials files the
 * user fills in, which account tasks upload).
 */
function spider2vRoots(taskDir: string): string[] {
  const toolDir = dirname(taskDir);
  const examplesDir = dirname(toolDir);
  return basename(examplesDir) === 'examples' ? [taskDir, toolDir, join(dirname(examplesDir), 'settings')] : [taskDir];
}

export function findSpider2vFile(step: string, taskDir: string, src: string, origin: PathOrigin = { field: 'parameters.src' }): string {
  const candidates = spider2vFileCandidates(taskDir, src);
  // Nothing inside the allowed folders: say so, rather than "not found", when the path itself leads outside.
  if (!candidates.length) containedPath(taskDir, src, origin);
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  if (found) return found;
  throw new StepFailedError(
    `${step}: the task's file ${src} is not on this machine (looked at ${candidates.join(', ')}). ` +
      `Only the task's JSON is here: copy the task's files from Spider2-V's evaluation_examples/ folder next to it, ` +
      `keeping their layout (examples/<tool>/<id>/…, settings/…).`,
  );
}

/**
 * `copyfile_from_host_to_guest {src, dest, json_encode=false}`: uploads a task file. With json_encode, every value of
 * the JSON object is replaced by base64(str(value)) first (dbt credentials files).
 */
const copyfileFromHostToGuest: SetupStep = async (ctx, parameters) => {
  const step = 'copyfile_from_host_to_guest';
  const src = findSpider2vFile(step, ctx.taskDir, requireString(step, parameters, 'src'), { file: ctx.taskFile, field: 'parameters.src' });
  const dest = requireString(step, parameters, 'dest');
  let data: Buffer = await readFile(src);
  if (flag(step, parameters, 'json_encode')) {
    const object = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    const encoded = Object.fromEntries(
      Object.entries(object).map(([key, value]) => [key, Buffer.from(pythonStr(value)).toString('base64')]),
    );
    data = Buffer.from(JSON.stringify(encoded, null, 4));
  }
  await ctx.desktop.upload(dest, data);
  ctx.log(`${step}: ${src} → ${dest}`);
};

/** Runs a command the way Spider2-V's `_execute_setup` does: the result is logged, never fatal. */
async function executeLogged(ctx: SetupContext, step: string, argv: string[]): Promise<void> {
  try {
    const result = await ctx.desktop.execute(argv, { setup: true });
    if (result.returncode !== 0) ctx.log(`${step}: ${argv.join(' ')} → returncode ${result.returncode}: ${result.error.trim().slice(-500)}`);
  } catch (error) {
    ctx.log(`${step}: ${argv.join(' ')} failed (ignored, as Spider2-V does): ${messageOf(error)}`);
  }
}

/**
 * `script_and_execute {src, dest='/home/user/init.sh', options=[]}`: uploads the script (a URL is downloaded by the
 * host), then `chmod a+x`, `/bin/bash dest …options`, `rm -f dest`. Spider2-V runs the script through /setup/execute and
 * only logs its result; we run it in the background and wait, so scripts longer than the protocol's 120 s finish too.
 */
const scriptAndExecute: SetupStep = async (ctx, parameters) => {
  const step = 'script_and_execute';
  const src = requireString(step, parameters, 'src');
  const dest = optionalString(step, parameters, 'dest', '/home/user/init.sh');
  const options = stringList(step, parameters, 'options', []);
  const local = /^https?:/.test(src) ? await ctx.fetchUrl(src) : findSpider2vFile(step, ctx.taskDir, src, { file: ctx.taskFile, field: 'parameters.src' });
  await ctx.desktop.upload(dest, await readFile(local));
  await executeLogged(ctx, step, ['chmod', 'a+x', dest]);
  try {
    const result = await runInBackground(ctx, ['/bin/bash', dest, ...options]);
    ctx.log(`${step}: /bin/bash ${dest} → returncode ${result.returncode}`);
    if (result.returncode !== 0) ctx.log(`${step}: stderr: ${result.error.trim().slice(-2000)}`);
  } catch (error) {
    ctx.log(`${step}: /bin/bash ${dest} failed (ignored, as Spider2-V does): ${messageOf(error)}`);
  }
  await executeLogged(ctx, step, ['rm', '-f', dest]);
};

/**
 * `google_chrome_browser {debugging_port=1337, listening_port=9222, incognito, full_screen, urls}`: starts Chrome with
 * remote debugging and socat forwarding listening_port to it, then opens `urls` like chrome_open_tabs (15 connection
 * attempts 3 s apart; if Chrome never answers this is only logged). The host reaches the listening port through
 * SetupContext.cdp, which reaches the desktop's 9222 (every Spider2-V task uses 9222).
 */
const googleChromeBrowser: SetupStep = async (ctx, parameters) => {
  const step = 'google_chrome_browser';
  const debuggingPort = number(step, parameters, 'debugging_port', 1337);
  const listeningPort = number(step, parameters, 'listening_port', 9222);
  const options: string[] = [];
  if (flag(step, parameters, 'incognito')) options.push('--incognito');
  if (flag(step, parameters, 'full_screen')) options.push('--start-maximized');
  const launch = async (argv: string[]) => {
    try {
      await ctx.desktop.launch(argv);
    } catch (error) {
      ctx.log(`${step}: launching ${argv[0]} failed (ignored, as Spider2-V does): ${messageOf(error)}`);
    }
  };
  await launch(['google-chrome', `--remote-debugging-port=${debuggingPort}`, ...options]);
  await launch(['socat', `tcp-listen:${listeningPort},fork`, `tcp:localhost:${debuggingPort}`]);
  const urls = stringList(step, parameters, 'urls', []);
  if (!urls.length) return;
  if (listeningPort !== 9222) ctx.log(`${step}: listening_port ${listeningPort} is not mapped to the host; using ${ctx.cdp?.url}`);
  let browser;
  try {
    browser = await connectChrome(ctx, step, { attempts: 15, delayMs: 3000 });
  } catch (error) {
    ctx.log(`${step}: failed to connect to Chrome (ignored, as Spider2-V does): ${messageOf(error)}`);
    return;
  }
  try {
    await openTabs(ctx, browser, urls, step);
  } finally {
    await browser.close().catch(() => {});
  }
};

const snowflake = needs('Snowflake (a Snowflake account)');
const bigquery = needs('BigQuery (a Google Cloud account)');
const googleCloud = needs('Google Cloud (a Google Cloud account)');
const dbtCloud = needs('dbt Cloud (a dbt Cloud account)');
const workarena = needs('ServiceNow (a WorkArena instance)');
const googleDrive = needs('Google Drive (a Google account)');
const hasura = needs('Hasura Cloud (a Hasura account)');
const dagsterCloud = needs('Dagster Cloud (a Dagster account)');
// These drive a service's web UI with Playwright; the services run inside Spider2-V's VM image, not in ours.
const airbyte = needs('Airbyte (its server, set up by the Spider2-V VM image)');
const metabase = needs('Metabase (its server, set up by the Spider2-V VM image)');
const superset = needs('Superset (its server, set up by the Spider2-V VM image)');
const dagster = needs('Dagster (its web UI, set up by the Spider2-V VM image)');
const astro = needs('Astro (Airflow through the Astro CLI, set up by the Spider2-V VM image)');

export const spider2vSteps: Record<string, SetupStep> = {
  copyfile_from_host_to_guest: copyfileFromHostToGuest,
  script_and_execute: scriptAndExecute,
  google_chrome_browser: googleChromeBrowser,
  snowflake_init: snowflake,
  snowflake_login: snowflake,
  snowflake_write_sqls_in_new_worksheet: snowflake,
  snowflake_delete_folder: snowflake,
  snowflake_delete_filter: snowflake,
  hasura_login: hasura,
  bigquery_init: bigquery,
  bigquery_login: bigquery,
  gcp_upload_keyfile: googleCloud,
  gcp_webgui: googleCloud,
  gcp_config_webgui: googleCloud,
  dbt_cloud_init: dbtCloud,
  dbt_cloud_webui_login: dbtCloud,
  workarena_task_init: workarena,
  workarena_unique_fields: workarena,
  googledrive_init: googleDrive,
  googledrive_login: googleDrive,
  airbyte_webui_init: airbyte,
  metabase_webui_init: metabase,
  superset_webui_init: superset,
  dagster_webui_init: dagster,
  dagster_cloud_webui_login: dagsterCloud,
  dagster_environment_variables: dagsterCloud,
  astro_webui_init: astro,
  astro_refresh_page: astro,
};
