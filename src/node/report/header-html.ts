// The HTML report's header beyond the counts: the overall rate's interval, and the run record (what produced the run:
// deskbench, the command, the agent, the settings, the image, the task files, the host), for the report's index page.
import { esc } from './html-text.ts';
import type { RateInterval, RateIntervals } from './rate-intervals.ts';
import { type RunRecord, commandLine } from './run-record.ts';

/** The overall rate with its interval, and how it was computed. */
export function intervalsParagraph({ method, total }: RateIntervals): string {
  const over = method.over === 'tasks' ? `${total.tasks} tasks` : `${total.tasks} tasks and the runs within each`;
  return `<p id="interval">Overall rate <b>${total.rate.toFixed(2)}%</b>, ${Math.round(method.level * 100)}% interval <b>${total.low.toFixed(2)}–${total.high.toFixed(2)}%</b>
<small>(${esc(method.method)} over ${over}; ${method.resamples} resamples, seed ${method.seed})</small></p>`;
}

/** A domain row's interval cell: `38.46–84.62`. */
export function intervalCell(interval: RateInterval | undefined): string {
  return interval ? `${interval.low.toFixed(2)}–${interval.high.toFixed(2)}` : '–';
}

export function runRecordSection(run: RunRecord): string {
  const options = run.options ?? {};
  const setting = (name: string, unit = '') => (options[name] === undefined ? '–' : `${esc(String(options[name]))}${unit}`);
  const { deskbench, host } = run;
  const modified = deskbench.modified.length ? ` <span class="fail">+ ${deskbench.modified.length} changed file${deskbench.modified.length === 1 ? '' : 's'}</span>` : '';
  const agents = run.agents.map((agent) => {
    const hash = agent.moduleSha256 ? ` <code>${esc(agent.moduleSha256.slice(0, 12))}</code>` : '';
    const description = agent.description ? ` · ${esc(JSON.stringify(agent.description))}` : '';
    return `<b>${esc(agent.name)}</b> (${esc(agent.module)}${hash})${description}`;
  });
  const images = run.images.map((image) => `${esc(image.image ?? 'remote')}${image.imageId ? ` <code>${esc(image.imageId.slice(0, 19))}</code>` : ''}${image.buildHash ? ` · build ${esc(image.buildHash)}` : ''}`);
  const corpora = run.corpora.map((corpus) => `${esc(corpus.root)} at <code>${esc(corpus.commit.slice(0, 12))}</code>${corpus.modified.length ? ` <span class="fail">(${corpus.modified.length} task files changed since)</span>` : ''}`);
  const shards = run.shards?.map((shard) => `<br>shard ${esc(shard.shard)}: <code>${esc(commandLine(shard.command))}</code>`).join('') ?? '';
  const rows: [string, string][] = [
    ['deskbench', `${esc(deskbench.version)}${deskbench.commit ? ` · commit <code>${esc(deskbench.commit.slice(0, 12))}</code>` : ' (installed package)'}${modified}`],
    ['command', `<code>${esc(commandLine(run.command))}</code> in <code>${esc(run.command.cwd)}</code>${run.configFile ? ` · config ${esc(run.configFile)}` : ''}${shards}`],
    ['agent', agents.join('<br>') || '–'],
    ['observation · max steps · pause', `${setting('observationType')} · ${setting('maxSteps')} · ${setting('pauseAfterAction', ' s')}`],
    ['desktop image', images.join('<br>') || '–'],
    ['task files', `${Object.keys(run.taskFiles).length} (sha256 of each in report.json)${corpora.length ? ` · ${corpora.join(' · ')}` : ''}`],
    ['files lock', run.filesLock ? `${esc(run.filesLock.file)} <code>${esc(run.filesLock.sha256.slice(0, 12))}</code>` : 'none'],
    ['host', `${esc(host.os)} ${esc(host.release)} ${esc(host.arch)} · ${host.cpus} CPUs · Node ${esc(host.node)}`],
  ];
  return `<details id="run-record"><summary>Run record (<code>deskbench rerun report.json</code> prints the command again)</summary>
<table class="record">${rows.map(([name, value]) => `<tr><th>${esc(name)}</th><td>${value}</td></tr>`).join('\n')}
<tr><th>options</th><td><pre>${esc(JSON.stringify(options, null, 2))}</pre></td></tr></table>
</details>`;
}
