// Flags derived from a task's content: infeasible, needs the internet, needs file downloads, needs a cloud account.
// They become tags, so users can leave such tasks out with `--tags-filter "!internet && !download && !account"`.
import type { EvalNode, Evaluator, InfeasibleNode, MetricNode, SetupStepSpec, TaskFlags } from './types.ts';

/** Step and getter types whose names start with these talk to a cloud service that needs credentials. */
const ACCOUNT_SERVICES = ['googledrive', 'google_drive', 'googlesheet', 'login', 'snowflake', 'bigquery', 'dbt_cloud', 'dbt_job', 'dbt_project', 'dbt_environment', 'workarena', 'hasura', 'servicenow'];

/** Hosts that are not "the internet": the desktop itself, and OSWorld's file cache (a file download, not browsing). */
const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])$/i;

/** Commands that fetch from the internet: package managers installing, git clones, and the like. */
const NETWORK_COMMANDS =
  /\b(?:(?:apt|apt-get|aptitude|snap|flatpak)\s+(?:-\S+\s+)*install|(?:pip3?|uv\s+pip|conda|mamba|npm|pnpm|yarn)\s+(?:-\S+\s+)*(?:install|add|i)\b|git\s+(?:clone|pull|fetch)|docker\s+pull)\b/i;

/**
 * An instruction that asks to install something from a store (an app, an extension, a theme), unless the thing is
 * named as local: "install Spotify", "install the Python extension in VS Code", but not "install the extension
 * located on the Desktop" or "from a local VSIX file".
 */
const INSTALL_FROM_STORE = /\binstall(?:ing)?\b/i;
const LOCAL_INSTALL = /\b(?:local(?:ly)?|located|manually)\b|\bfrom (?:the|a) (?:cd|dvd|disk|drive|file|folder)\b/i;

/** Step types and getter types that fetch files from URLs. */
const DOWNLOAD_STEPS = new Set(['download', 'download_file', 'download_and_unzip']);
const DOWNLOAD_GETTERS = new Set(['cloud_file', 'pdf_from_url']);

export function deriveFlags(input: {
  setup: SetupStepSpec[];
  evaluator: Evaluator | null;
  tags: string[];
  proxy?: boolean;
  instruction?: string;
}): TaskFlags {
  const steps = [...input.setup, ...(input.evaluator?.postconfig ?? [])];
  const getterTypes = input.evaluator ? collectGetterTypes(input.evaluator.root) : [];
  const names = [...steps.map((s) => s.type), ...getterTypes];
  const needsAccount =
    input.tags.includes('account') ||
    names.some((name) => ACCOUNT_SERVICES.some((service) => name === service || name.startsWith(`${service}_`)));
  const instruction = input.instruction ?? '';
  const getterConfigs = input.evaluator ? metricCalls(input.evaluator.root).flatMap((call) => [call.result, call.expected]) : [];
  return {
    infeasible: input.evaluator ? isInfeasible(input.evaluator.root) : false,
    needsNetwork:
      input.proxy === true ||
      usesLiveWebsites(steps, input.evaluator) ||
      [...steps.map((step) => step.parameters), ...getterConfigs].some(runsNetworkCommand) ||
      (INSTALL_FROM_STORE.test(instruction) && !LOCAL_INSTALL.test(instruction)),
    needsDownload:
      steps.some((step) => DOWNLOAD_STEPS.has(step.type) && hasRemoteUrl(step.parameters)) ||
      getterConfigs.some((config) => !!config && DOWNLOAD_GETTERS.has(config.type) && hasRemoteUrl(config)),
    needsAccount,
  };
}

/** The leaves of an evaluator tree, in order: its metric calls and its infeasible marks. */
export function evalLeaves(node: EvalNode): (MetricNode | InfeasibleNode)[] {
  return node.kind === 'conj' ? node.children.flatMap(evalLeaves) : [node];
}

function metricCalls(node: EvalNode): MetricNode[] {
  return evalLeaves(node).filter((leaf): leaf is MetricNode => leaf.kind === 'metric');
}

function isInfeasible(node: EvalNode): boolean {
  return evalLeaves(node).some((leaf) => leaf.kind === 'infeasible');
}

export function collectGetterTypes(node: EvalNode): string[] {
  return metricCalls(node).flatMap((call) => [call.result?.type, call.expected?.type].filter((t): t is string => !!t));
}

export function collectMetricNames(node: EvalNode): string[] {
  return evalLeaves(node).map((leaf) => (leaf.kind === 'metric' ? leaf.func : 'infeasible'));
}

/**
 * True when the steps or the evaluator name a web address outside the desktop. File downloads (`download` steps,
 * `cloud_file` getters) and history entries written into a profile do not count: those are files, not browsing.
 */
function usesLiveWebsites(steps: SetupStepSpec[], evaluator: Evaluator | null): boolean {
  const fileOnlySteps = new Set(['download', 'update_browse_history', 'upload_file', 'copyfile_from_host_to_guest']);
  const visited = steps.filter((step) => !fileOnlySteps.has(step.type)).map((step) => step.parameters);
  const evaluated = (evaluator ? metricCalls(evaluator.root) : []).flatMap((call) => [
    call.result?.type === 'cloud_file' ? undefined : call.result,
    call.expected?.type === 'cloud_file' ? undefined : call.expected,
    call.options,
  ]);
  return [...visited, ...evaluated].some(hasRemoteUrl);
}

/** True when a command anywhere in a step's parameters or a getter's config installs packages or clones. */
function runsNetworkCommand(value: unknown): boolean {
  if (typeof value === 'string') return NETWORK_COMMANDS.test(value);
  if (Array.isArray(value)) return NETWORK_COMMANDS.test(value.filter((part) => typeof part === 'string').join(' ')) || value.some(runsNetworkCommand);
  if (value && typeof value === 'object') return Object.values(value).some(runsNetworkCommand);
  return false;
}

function hasRemoteUrl(value: unknown): boolean {
  if (typeof value === 'string') {
    for (const match of value.matchAll(/https?:\/\/([^/\s:"'?#]+)/gi)) {
      if (!LOCAL_HOSTS.test(match[1])) return true;
    }
    return false;
  }
  if (Array.isArray(value)) return value.some(hasRemoteUrl);
  if (value && typeof value === 'object') return Object.values(value).some(hasRemoteUrl);
  return false;
}
