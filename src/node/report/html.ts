// The HTML report: `<resultsDir>/index.html` (one row per task, filterable by domain, tag and state) and one page per
// task under `tasks/` (instruction, every step's screenshot with the agent's response and actions, the evaluation).
// Self-contained: no network, no external assets; screenshots are linked relatively, so the whole results folder can
// be uploaded as a CI artifact and opened offline.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { VerificationSummary } from '../../contract/verification.ts';
import { type RunReport, type TaskRecord, infrastructureLine, statsOf } from './aggregate.ts';
import { formatProgress } from '../../contract/progress.ts';
import { esc } from './html-text.ts';
import { redact } from '../../shared/redact.ts';
import { intervalCell, intervalsParagraph, runRecordSection } from './header-html.ts';

export const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1d232a; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { background: #f4f6f8; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.pass { color: #0a7a32; font-weight: 600; } .fail { color: #b3261e; font-weight: 600; } .skip { color: #7a6a0a; }
.tag { display: inline-block; background: #eef1f5; border-radius: 3px; padding: 0 5px; margin: 1px; font-size: 12px; }
.filters { display: flex; gap: 12px; margin: 12px 0; align-items: center; flex-wrap: wrap; }
.step { border: 1px solid #e3e6ea; border-radius: 6px; padding: 10px; margin: 12px 0; }
.step img { max-width: 100%; border: 1px solid #ccd; }
img.thumb { width: 320px; max-width: 100%; display: block; margin: 4px 0; }
img.row-thumb { width: 120px; border: 1px solid #ccd; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
`;

/** `secrets` are masked in what the pages show from the task folders (written masked, unless by an older version). */
export function writeHtmlReport(report: RunReport, resultsDir: string, secrets: readonly string[] = [], indexName = 'index.html'): string {
  mkdirSync(join(resultsDir, 'tasks'), { recursive: true });
  for (const task of report.tasks) {
    writeFileSync(join(resultsDir, 'tasks', taskPageName(task)), taskPage(task, resultsDir, secrets, indexName));
  }
  const index = join(resultsDir, indexName);
  writeFileSync(index, indexPage(report, resultsDir));
  return index;
}

export function taskPageName(task: Pick<TaskRecord, 'domain' | 'id' | 'agent' | 'repeat'>): string {
  return `${task.domain}__${task.id}${task.agent ? `__${task.agent}` : ''}${task.repeat ? `__run-${task.repeat}` : ''}.html`.replace(/[^\w.-]+/g, '_');
}

/** What the tasks ran on: image, image id and app versions (several rows when tasks ran on different desktops). */
function desktopsSection(desktops: NonNullable<RunReport['desktops']>): string {
  const rows = desktops
    .map((d) => `<tr><td>${esc(d.image ?? '–')}</td><td><code>${esc(d.imageId ?? '–')}</code></td><td>${versionsText(d.versions)}</td><td class="num">${d.tasks}</td></tr>`)
    .join('\n');
  return `<h2>Desktop</h2>
<table id="desktops"><thead><tr><th>image</th><th>image id</th><th>app versions</th><th class="num">tasks</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function versionsText(versions: Record<string, string>): string {
  return Object.entries(versions).map(([name, version]) => `${esc(name)} ${esc(version)}`).join(' · ') || '–';
}

/** One table per agent, one row per domain: when a report holds several agents' runs, each agent's counts apart. */
function agentsSection(tasks: readonly TaskRecord[]): string {
  const byAgent = Map.groupBy(tasks, (task) => task.agent ?? '–');
  const tables = [...byAgent].map(([agent, runs]) => {
    const rows = [...Map.groupBy(runs, (run) => run.domain)]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([domain, group]) => {
        const s = statsOf(group);
        return `<tr><td>${esc(domain)}</td><td class="num">${s.tasks}</td><td class="num">${s.passed}</td><td class="num">${s.meanScore.toFixed(2)}</td><td class="num">${s.seconds.toFixed(0)}</td></tr>`;
      })
      .join('\n');
    return `<h3>${esc(agent)}</h3>
<table class="agent-runs" data-agent="${esc(agent)}"><thead><tr><th>domain</th><th class="num">runs</th><th class="num">passed</th><th class="num">mean score</th><th class="num">time s</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<h2>Runs by agent</h2>
<p><small>Each agent's runs apart: the scripted runs should pass, the noop runs should not (a pass is a free pass), the fail runs of infeasible tasks should.</small></p>
${tables.join('\n')}`;
}

/** With the repeats option: one row per task, its pass rate over the runs, flaky ones marked. */
function repeatsSection(repeats: NonNullable<RunReport['repeats']>): string {
  const rows = repeats.tasks
    .map((t) => `<tr><td>${esc(t.domain)}/${esc(t.id)}${t.agent ? ` <span class="tag">${esc(t.agent)}</span>` : ''}</td><td class="num">${t.runs}</td><td class="num">${t.passed}</td><td class="num">${t.passRate.toFixed(2)}</td><td class="num">${t.meanScore.toFixed(2)}</td><td>${t.flaky ? '<span class="fail">flaky</span>' : ''}</td></tr>`)
    .join('\n');
  return `<h2>Repeats</h2>
<p id="repeats">${repeats.runsPerTask} runs per task · <b>${repeats.flaky} of ${repeats.tasks.length} tasks flaky</b> (passed in some runs, failed in others)</p>
<table id="repeat-rates"><thead><tr><th>task</th><th class="num">runs</th><th class="num">passed</th><th class="num">pass rate %</th><th class="num">mean score</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function indexPage(report: RunReport, resultsDir: string): string {
  // The final screen of each task as a thumbnail in its row (linked relatively: the folder may be moved or merged).
  const thumbnail = (t: TaskRecord) => {
    const file = t.resultDir ? join(resolve(resultsDir, t.resultDir), 'final.png') : null;
    if (!file || !existsSync(file)) return '';
    const src = esc(relative(resultsDir, file).split('\\').join('/'));
    return `<a href="tasks/${esc(taskPageName(t))}"><img class="row-thumb" loading="lazy" alt="final screen" src="${src}"></a>`;
  };
  const domains = Object.keys(report.byDomain);
  const tags = Object.keys(report.byTag);
  const states = [...new Set(report.tasks.map((t) => t.state))].sort();
  const rows = report.tasks
    .map(
      (t) => `<tr data-domain="${esc(t.domain)}" data-tags="${esc(t.tags.join(' '))}" data-state="${esc(t.state)}" data-verdict="${t.testState}">
<td>${thumbnail(t)}</td><td><a href="tasks/${esc(taskPageName(t))}">${esc(t.id)}</a>${t.agent ? ` <span class="tag">${esc(t.agent)}</span>` : ''}${t.repeat ? ` <span class="tag">run ${t.repeat}</span>` : ''}<br><small>${esc(t.name)}</small></td>
<td>${esc(t.domain)}</td><td class="num">${t.score === null ? '–' : esc(String(t.score))}</td>
<td class="${verdictClass(t.testState)}">${esc(t.testState)}</td><td>${esc(t.state)}${t.infraError ? ` <span class="tag infra" title="${esc(t.infraError)}">infrastructure</span>` : ''}</td>
<td>${t.tags.map((tag) => `<span class="tag">${esc(tag)}</span>`).join(' ')}</td>
<td class="num">${t.steps}</td><td class="num">${(t.durationMs / 1000).toFixed(1)}</td></tr>`,
    )
    .join('\n');
  const summary = Object.entries(report.byDomain)
    .map(([domain, s]) => `<tr><td>${esc(domain)}</td><td class="num">${s.tasks}</td><td class="num">${s.passed}</td><td class="num">${s.meanScore.toFixed(2)}</td><td class="num">${s.osworldRate.toFixed(2)}</td><td class="num">${s.overallRate.toFixed(2)}</td><td class="num">${intervalCell(report.intervals?.byDomain[domain])}</td></tr>`)
    .join('\n');
  const byTag = Object.entries(report.byTag)
    .map(([tag, s]) => `<tr><td><span class="tag">${esc(tag)}</span></td><td class="num">${s.tasks}</td><td class="num">${s.passed}</td><td class="num">${(s.tasks ? (s.passed / s.tasks) * 100 : 0).toFixed(2)}</td><td class="num">${s.meanScore.toFixed(2)}</td><td class="num">${s.osworldRate.toFixed(2)}</td><td class="num">${s.overallRate.toFixed(2)}</td></tr>`)
    .join('\n');
  const t = report.total;
  // Runs of several agents (deskbench verify: scripted, noop, fail): a rate over all of them would mean nothing.
  const perAgent = report.tasks.some((task) => task.agent);
  const options = (values: string[]) => values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>deskbench report</title><style>${STYLE}</style></head><body>
<h1>deskbench report</h1>
${perAgent ? `<p>${report.tasks.length} runs · generated ${esc(report.generatedAt)}</p>` : `<p>${t.tasks} tasks · ${t.passed} passed · mean score ${t.meanScore.toFixed(2)} · OSWorld rate ${t.osworldRate.toFixed(2)}% · overall rate ${t.overallRate.toFixed(2)}% · generated ${esc(report.generatedAt)}</p>
<p><small>OSWorld rate: Σ scores over tasks with a result, as show_result.py computes it. Overall rate: Σ scores over every selected task; errors and skips count 0.</small></p>
${report.intervals ? intervalsParagraph(report.intervals) : ''}`}
${report.run ? runRecordSection(report.run) : ''}
${report.infrastructure ? `<p id="infrastructure" class="fail">${esc(infrastructureLine(report.infrastructure))}</p>` : ''}
${report.desktops ? desktopsSection(report.desktops) : ''}
${report.verification ? verificationSection(report.verification) : ''}
${report.repeats && !report.verification ? repeatsSection(report.repeats) : ''}
${perAgent ? agentsSection(report.tasks) : `<table id="domains"><thead><tr><th>domain</th><th class="num">tasks</th><th class="num">passed</th><th class="num">mean score</th><th class="num">OSWorld rate %</th><th class="num">overall rate %</th><th class="num">95% interval</th></tr></thead><tbody>${summary}</tbody></table>
<h2>By tag</h2>
<table id="tags"><thead><tr><th>tag</th><th class="num">tasks</th><th class="num">passed</th><th class="num">pass rate %</th><th class="num">mean score</th><th class="num">OSWorld rate %</th><th class="num">overall rate %</th></tr></thead><tbody>${byTag}</tbody></table>`}
<h2>Tasks</h2>
<div class="filters">
<label>domain <select id="domain"><option value="">all</option>${options(domains)}</select></label>
<label>tag <select id="tag"><option value="">all</option>${options(tags)}</select></label>
<label>state <select id="state"><option value="">all</option>${options(states)}</select></label>
<label>search <input id="search" type="search" placeholder="id or instruction"></label>
<span id="count"></span>
</div>
<table id="tasks"><thead><tr><th>final screen</th><th>task</th><th>domain</th><th class="num">score</th><th>verdict</th><th>state</th><th>tags</th><th class="num">steps</th><th class="num">time s</th></tr></thead>
<tbody>${rows}</tbody></table>
<script>
const byId = (id) => document.getElementById(id);
function applyFilters() {
  const domain = byId('domain').value, tag = byId('tag').value, state = byId('state').value, q = byId('search').value.toLowerCase();
  let shown = 0;
  for (const row of document.querySelectorAll('#tasks tbody tr')) {
    const ok = (!domain || row.dataset.domain === domain) && (!tag || row.dataset.tags.split(' ').includes(tag))
      && (!state || row.dataset.state === state) && (!q || row.textContent.toLowerCase().includes(q));
    row.hidden = !ok;
    if (ok) shown++;
  }
  byId('count').textContent = shown + ' shown';
}
for (const id of ['domain', 'tag', 'state', 'search']) byId(id).addEventListener('input', applyFilters);
applyFilters();
</script></body></html>
`;
}

/**
 * deskbench verify's outcome: the counts, one row per task and kind of run (its runs that scored as expected, and the
 * mean time), then the errors, the gold-only tasks and each failed run naming the task and the agent.
 */
function verificationSection(v: VerificationSummary): string {
  const agentOf = (f: VerificationSummary['failures'][number]) => (f.variant ? `${f.agent}.${f.variant}` : f.agent);
  const failures = v.failures
    .map((f) => `<tr><td>${esc(f.id)}</td><td>${esc(agentOf(f))}${f.agent === 'noop' && (f.score ?? 0) > 0 ? ' (free pass)' : ''}${f.repeat ? ` <span class="tag">run ${f.repeat}</span>` : ''}</td><td class="num">${f.score === null ? '–' : esc(String(f.score))}</td><td>${esc(f.state ?? '–')}</td><td>${esc(f.error ?? f.evalError ?? '')}</td></tr>`)
    .join('\n');
  const runs = [...new Set(v.rows.flatMap((row) => Object.keys(row.runs)))];
  const rows = v.rows
    .map((row) => {
      const cells = runs.map((name) => {
        const stats = row.runs[name];
        return stats ? `<td class="num">${stats.asExpected}/${stats.scores.length}</td><td class="num">${stats.meanSeconds.toFixed(0)}</td>` : '<td></td><td></td>';
      });
      const verdict = row.verified ? '<span class="pass">yes</span>' : `<span class="fail">${row.flaky ? 'flaky' : 'no'}</span>`;
      return `<tr><td>${esc(row.id)}</td><td>${esc(row.domain)}</td>${cells.join('')}<td>${verdict}</td></tr>`;
    })
    .join('\n');
  const runHeads = runs.map((name) => `<th class="num">${esc(name)} as expected</th><th class="num">time s</th>`).join('');
  const errors = v.errors.map((e) => `<li><code>${esc(e.code)}</code> ${esc(e.file)}${e.path ? ` at ${esc(e.path)}` : ''}: ${esc(e.message)}</li>`).join('');
  const goldOnly = v.goldOnly.map((g) => `<li>${esc(g.id)} (${esc(g.domain)}): ${esc(g.reason)}</li>`).join('');
  const repeats = v.repeats > 1 ? ` · ${v.repeats} runs each · ${v.flaky.length} flaky${v.flaky.length ? `: ${esc(v.flaky.join(', '))}` : ''}` : '';
  return `<h2>Verification</h2>
<p id="verification">${v.tasks} tasks in the paths · ${v.solved} solved · <b>${v.verified} verified</b> · ${v.failures.length} failed runs · ${v.freePasses.length} free passes${v.freePasses.length ? `: ${esc(v.freePasses.join(', '))}` : ''}${repeats} · ${v.goldOnly.length} gold-only · ${v.errors.length} errors</p>
${errors ? `<h3>Errors</h3><ul id="verification-errors">${errors}</ul>` : ''}
${goldOnly ? `<h3>Gold-only tasks (their checker wants text only a gold file holds; never counted)</h3><ul id="verification-gold-only">${goldOnly}</ul>` : ''}
${rows ? `<table id="verification-tasks"><thead><tr><th>task</th><th>domain</th>${runHeads}<th>verified</th></tr></thead><tbody>${rows}</tbody></table>` : ''}
${failures ? `<table id="verification-failures"><thead><tr><th>task</th><th>agent</th><th class="num">score</th><th>state</th><th>why</th></tr></thead><tbody>${failures}</tbody></table>` : ''}`;
}

interface TrajectoryLine {
  step_num?: number;
  action?: unknown;
  response?: string | null;
  info?: Record<string, unknown>;
  screenshot_file?: string;
  Error?: string;
}

function taskPage(task: TaskRecord, resultsDir: string, secrets: readonly string[], indexName: string): string {
  const dir = task.resultDir ? resolve(resultsDir, task.resultDir) : null;
  const link = (file: string) => (dir ? `../${relative(resultsDir, join(dir, file)).split('\\').join('/')}` : '');
  const summary = redact(dir ? readJson<{ prompt?: string; results?: { details?: unknown } }>(join(dir, 'summary.json')) : undefined, secrets);
  const lines = redact(dir ? readTrajectory(join(dir, 'traj.jsonl')) : [], secrets);
  // One block per agent turn (traj.jsonl has one line per action; a turn's actions share its step_num), each action
  // with the screen after it as a thumbnail that links to the full screenshot.
  const entries: ({ error: string } | { step: number; actions: TrajectoryLine[] })[] = [];
  for (const line of lines) {
    if (line.Error) {
      entries.push({ error: line.Error });
      continue;
    }
    const last = entries.at(-1);
    const step = line.step_num ?? entries.length + 1;
    if (last && 'step' in last && last.step === step) last.actions.push(line);
    else entries.push({ step, actions: [line] });
  }
  const turns = entries.filter((entry) => 'step' in entry);
  const actionCount = turns.reduce((total, turn) => total + turn.actions.length, 0);
  const blocks = entries.map((entry) => ('error' in entry ? `<div class="step"><b>Error</b><pre>${esc(entry.error)}</pre></div>` : turnBlock(entry.step, entry.actions, link)));
  const steps = blocks.join('\n');
  const evaluation = summary?.results?.details ? `<pre>${esc(JSON.stringify(summary.results.details, null, 2))}</pre>` : '<p>No evaluation details.</p>';
  const progress = task.progress?.length
    ? `<h2>Progress</h2><ol id="progress">${task.progress.map((p) => `<li><span class="num">${(p.atMs / 1000).toFixed(1)} s</span> ${esc(formatProgress(p))}</li>`).join('')}</ol>`
    : '';
  const last = task.progress?.at(-1);
  const final = dir && existsSync(join(dir, 'final.png')) ? `<h2>Final screen</h2><img alt="final screen" style="max-width:100%" src="${esc(link('final.png'))}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(task.id)}</title><style>${STYLE}</style></head><body>
<p><a href="../${esc(indexName)}">← all tasks</a></p>
<h1>${esc(task.domain)} / ${esc(task.id)}${task.repeat ? ` (run ${task.repeat})` : ''}</h1>
<p>Score <b>${task.score === null ? '–' : esc(String(task.score))}</b> · <span class="${verdictClass(task.testState)}">${esc(task.testState)}</span> · state ${esc(task.state)} · ${task.steps} steps · ${(task.durationMs / 1000).toFixed(1)} s${last && task.testState !== 'passed' ? ` · last seen: ${esc(formatProgress(last))}` : ''}</p>
<p>${task.tags.map((tag) => `<span class="tag">${esc(tag)}</span>`).join(' ')}</p>
${task.desktop ? `<p id="desktop"><small>Desktop: ${esc(task.desktop.image ?? 'remote')}${task.desktop.imageId ? ` <code>${esc(task.desktop.imageId)}</code>` : ''} · ${versionsText(task.desktop.versions)}</small></p>` : ''}
<h2>Instruction</h2><pre id="instruction">${esc(summary?.prompt ?? task.name)}</pre>
${progress}
${task.error ? `<h2>Error${task.infraError ? ` (infrastructure: ${esc(task.infraError)})` : ''}</h2><pre>${esc(task.error)}</pre>` : ''}
<h2>Evaluation</h2>${task.evalError ? `<p class="fail">eval_error:</p><pre>${esc(task.evalError)}</pre>` : ''}${evaluation}
<h2>Trajectory (${turns.length} steps, ${actionCount} actions)</h2>${steps || '<p>No actions.</p>'}
${final}
</body></html>
`;
}

/** One agent turn: its response once, then each action with its outcome and the screen after it. */
function turnBlock(step: number, actions: readonly TrajectoryLine[], link: (file: string) => string): string {
  const response = actions.find((line) => line.response)?.response;
  const items = actions.map((line) => {
    const info = line.info && Object.keys(line.info).length ? `<pre>${esc(JSON.stringify(line.info, null, 2))}</pre>` : '';
    const shot = line.screenshot_file
      ? `<a href="${esc(link(line.screenshot_file))}"><img class="thumb" alt="screen after this action" src="${esc(link(line.screenshot_file))}"></a>`
      : '';
    return `<li><pre>${esc(typeof line.action === 'string' ? line.action : JSON.stringify(line.action, null, 2))}</pre>${info}${shot}</li>`;
  });
  return `<div class="step" id="step-${step}"><b>Step ${step}</b> <small>(${actions.length} action${actions.length === 1 ? '' : 's'})</small>
${response ? `<p>Response:</p><pre>${esc(String(response))}</pre>` : ''}
<ol class="actions">${items.join('\n')}</ol></div>`;
}

function readTrajectory(path: string): TrajectoryLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return JSON.parse(line) as TrajectoryLine;
      } catch {
        return { Error: `unreadable trajectory line: ${line.slice(0, 200)}` };
      }
    });
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function verdictClass(state: string): string {
  return state === 'passed' ? 'pass' : state === 'failed' ? 'fail' : 'skip';
}
