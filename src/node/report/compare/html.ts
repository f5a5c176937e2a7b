// `deskbench compare`'s HTML page (compare.html), in the style of the HTML report: the verdicts, the runs, rates and
// differences per domain and per tag, and one row per task with each run's final screen side by side, each linking to
// that run's trajectory page. Self-contained and linked relatively, so the page opens offline as long as the results
// folders keep their places relative to it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { STYLE } from '../html.ts';
import { esc } from '../html-text.ts';
import { type Comparison, type GroupComparison, MIN_TASKS_FOR_VERDICT, type RunOfTask, type TaskComparison } from './compare.ts';
import { verdictCell, verdictText } from './format.ts';

const COMPARE_STYLE = `
img.final { width: 360px; max-width: 100%; border: 1px solid #ccd; display: block; }
td.run { min-width: 200px; }
.better { color: #0a7a32; font-weight: 600; } .worse { color: #b3261e; font-weight: 600; }
tr.fixed td.flip { color: #0a7a32; font-weight: 600; } tr.broken td.flip { color: #b3261e; font-weight: 600; }
`;

/** Writes `<outDir>/compare.html` and returns its path. */
export function writeComparisonPage(comparison: Comparison, outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'compare.html');
  writeFileSync(file, comparisonPage(comparison, resolve(outDir)));
  return file;
}

function comparisonPage(comparison: Comparison, outDir: string): string {
  const { runs, method } = comparison;
  const labels = runs.map((run) => run.label);
  const link = (path: string) => esc(relative(outDir, path).split('\\').join('/'));
  const level = `${Math.round(method.level * 100)}%`;
  const verdicts = comparison.total.differences
    .map((d) => `<p class="verdict">${esc(d.run)} against ${esc(labels[0])}: <span class="${verdictCell(d) ? d.verdict : ''}">${esc(verdictText(d))}</span> (${signed(d.difference)} points, ${level} interval ${signed(d.low)} to ${signed(d.high)}) · ${d.fixed} fixed, ${d.broken} broken by ${esc(d.run)}</p>`)
    .join('\n');
  const runRows = runs
    .map((run) => {
      const index = join(run.dir, 'index.html');
      const name = existsSync(index) ? `<a href="${link(index)}">${esc(run.name)}</a>` : esc(run.name);
      return `<tr><td><b>${esc(run.label)}</b></td><td>${name}<br><small>${esc(run.dir)}</small></td><td>${esc(run.agents.join(', ') || '?')}</td><td class="num">${run.tasks}</td><td class="num">${run.runsPerTask}</td><td><code>${esc(run.images.map((id) => id.replace(/^sha256:/, '').slice(0, 12)).join(', ') || '–')}</code></td><td>${esc(run.generatedAt)}</td></tr>`;
    })
    .join('\n');
  const settings = comparison.settingsThatDiffer.length
    ? `<h2>Settings that differ</h2><table id="settings"><thead><tr><th>setting</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}</tr></thead><tbody>${comparison.settingsThatDiffer.map(({ setting, values }) => `<tr><td>${esc(setting)}</td>${values.map((v) => `<td><code>${esc(v)}</code></td>`).join('')}</tr>`).join('\n')}</tbody></table>`
    : '';
  const domains = Object.keys(comparison.byDomain);
  const tags = Object.keys(comparison.byTag);
  const options = (values: string[]) => values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('');
  const notComparable = comparison.notComparable.length
    ? `<h2>Not comparable (${comparison.notComparable.length})</h2><table id="not-comparable"><thead><tr><th>task</th><th>domain</th><th>why</th>${labels.map((l) => `<th class="num">${esc(l)}</th>`).join('')}</tr></thead><tbody>${comparison.notComparable
        .map((task) => `<tr><td>${esc(task.id)}</td><td>${esc(task.domain)}</td><td>${esc(task.reason)}</td>${task.runs.map((run) => `<td class="num">${run ? run.value.toFixed(2) : '–'}</td>`).join('')}</tr>`)
        .join('\n')}</tbody></table>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>deskbench compare</title><style>${STYLE}${COMPARE_STYLE}</style></head><body>
<h1>deskbench compare</h1>
<p><small>Generated ${esc(comparison.generatedAt)} · <a href="#changed">show the flips only</a></small></p>
${verdicts}
<p><small>Rates: overall rate in % (each task's raw score, the mean over its runs; errors and skips count 0) over the ${comparison.total.tasks} tasks every run ran comparably. Intervals: ${level}, ${esc(method.method)} over ${esc(method.over)}, ${method.resamples} resamples, seed ${method.seed}. A run is called better or worse than ${esc(labels[0])} only when the interval of the difference excludes 0, over ${MIN_TASKS_FOR_VERDICT} tasks or more (over fewer, a bootstrap's interval is too narrow).</small></p>
<table id="runs"><thead><tr><th></th><th>results</th><th>agent</th><th class="num">tasks</th><th class="num">runs per task</th><th>image</th><th>generated</th></tr></thead><tbody>${runRows}</tbody></table>
${settings}
<h2>By domain</h2>
${groupTable('domains', 'domain', { ...comparison.byDomain, 'all tasks': comparison.total }, labels)}
<details id="by-tag"><summary><b>By tag</b> (${tags.length} tags)</summary>
${groupTable('tags', 'tag', comparison.byTag, labels)}
</details>
${comparison.total.passAtK ? passAtKTable(comparison.total.passAtK, labels) : ''}
<h2 id="tasks-heading">Tasks</h2>
<div class="filters">
<label>domain <select id="domain"><option value="">all</option>${options(domains)}</select></label>
<label>tag <select id="tag"><option value="">all</option>${options(tags)}</select></label>
<label>flips <select id="flip"><option value="">all</option><option value="fixed">fixed</option><option value="broken">broken</option><option value="changed">fixed or broken</option><option value="same">unchanged</option></select></label>
<label>search <input id="search" type="search" placeholder="task id"></label>
<span id="count"></span>
</div>
<table id="tasks"><thead><tr><th>task</th>${runs.map((run) => `<th>${esc(run.label)} <small>${esc(run.name)}</small></th>`).join('')}<th>flip</th></tr></thead>
<tbody>${comparison.tasks.map((task) => taskRow(task, comparison, link)).join('\n')}</tbody></table>
${notComparable}
<script>
const byId = (id) => document.getElementById(id);
function applyFilters() {
  const domain = byId('domain').value, tag = byId('tag').value, flip = byId('flip').value, q = byId('search').value.toLowerCase();
  let shown = 0;
  for (const row of document.querySelectorAll('#tasks tbody tr')) {
    const flips = row.dataset.flips;
    const flipOk = !flip || (flip === 'changed' ? flips !== '' : flip === 'same' ? flips === '' : flips.split(' ').includes(flip));
    const ok = (!domain || row.dataset.domain === domain) && (!tag || row.dataset.tags.split(' ').includes(tag)) && flipOk && (!q || row.dataset.id.toLowerCase().includes(q));
    row.hidden = !ok;
    if (ok) shown++;
  }
  byId('count').textContent = shown + ' shown';
}
for (const id of ['domain', 'tag', 'flip', 'search']) byId(id).addEventListener('input', applyFilters);
// compare.html#broken (or #fixed, #changed) shows those flips only.
function flipsFromHash() {
  const wanted = location.hash.slice(1);
  if ([...byId('flip').options].some((option) => option.value === wanted)) byId('flip').value = wanted;
  applyFilters();
}
window.addEventListener('hashchange', flipsFromHash);
flipsFromHash();
</script></body></html>
`;
}

function signed(x: number): string {
  return `${x > 0 ? '+' : ''}${x.toFixed(2)}`;
}

function groupTable(id: string, title: string, groups: Record<string, GroupComparison>, labels: string[]): string {
  const cell = (value: number, low: number, high: number) => `<td class="num">${value.toFixed(2)} <small>[${low.toFixed(2)}, ${high.toFixed(2)}]</small></td>`;
  const header = `<tr><th>${esc(title)}</th><th class="num">tasks</th>${labels.map((l) => `<th class="num">${esc(l)}</th>`).join('')}${labels
    .slice(1)
    .map((l) => `<th class="num">${esc(l)} − ${esc(labels[0])}</th><th></th><th class="num">fixed</th><th class="num">broken</th>`)
    .join('')}</tr>`;
  const rows = Object.entries(groups).map(([name, group]) => {
    const rates = group.rates.map((r) => cell(r.rate, r.low, r.high)).join('');
    const differences = group.differences
      .map((d) => `${cell(d.difference, d.low, d.high)}<td class="${verdictCell(d) ? d.verdict : ''}">${esc(verdictCell(d))}</td><td class="num">${d.fixed}</td><td class="num">${d.broken}</td>`)
      .join('');
    return `<tr><td>${title === 'tag' ? `<span class="tag">${esc(name)}</span>` : esc(name)}</td><td class="num">${group.tasks}</td>${rates}${differences}</tr>`;
  });
  return `<table id="${id}"><thead>${header}</thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function passAtKTable(passAtK: NonNullable<GroupComparison['passAtK']>, labels: string[]): string {
  const rows = passAtK.map((row) => `<tr><td class="num">${row.k}</td>${row.passAt.map((x) => `<td class="num">${x.toFixed(2)}</td>`).join('')}${row.passHat.map((x) => `<td class="num">${x.toFixed(2)}</td>`).join('')}</tr>`);
  return `<h2>pass@k and pass^k</h2><p><small>pass@k: at least one of k runs passes; pass^k: all k pass (estimated from each task's runs).</small></p>
<table id="pass-at-k"><thead><tr><th class="num">k</th>${labels.map((l) => `<th class="num">${esc(l)} pass@k %</th>`).join('')}${labels.map((l) => `<th class="num">${esc(l)} pass^k %</th>`).join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

/** One task: its id and tags, then per run the final screen (linking to the trajectory page), the score and verdict. */
function taskRow(task: TaskComparison, comparison: Comparison, link: (path: string) => string): string {
  const flips = task.flips.filter((flip) => flip !== null);
  const cells = task.runs.map((run, i) => runCell(run, comparison.runs[i].dir, link)).join('');
  const flipText = task.flips.map((flip, i) => (flip ? `${flip} by ${comparison.runs[i + 1].label}` : '')).filter(Boolean).join('<br>');
  return `<tr class="${[...new Set(flips)].join(' ')}" data-id="${esc(task.id)}" data-domain="${esc(task.domain)}" data-tags="${esc(task.tags.join(' '))}" data-flips="${esc([...new Set(flips)].join(' '))}">
<td><b>${esc(task.domain)}</b> / ${esc(task.id)}<br>${task.tags.map((tag) => `<span class="tag">${esc(tag)}</span>`).join(' ')}</td>${cells}<td class="flip">${flipText}</td></tr>`;
}

function runCell(run: RunOfTask, runDir: string, link: (path: string) => string): string {
  const page = (i: number) => {
    const file = join(runDir, run.pages[i]);
    return existsSync(file) ? link(file) : undefined;
  };
  const finalScreen = run.resultDirs[0] ? join(resolve(runDir, run.resultDirs[0]), 'final.png') : undefined;
  const firstPage = page(0);
  const image = finalScreen && existsSync(finalScreen) ? `<img class="final" loading="lazy" alt="final screen" src="${link(finalScreen)}">` : '<small>no final screen</small>';
  const shot = firstPage ? `<a href="${firstPage}">${image}</a>` : image;
  const verdict = run.runs > 1 ? `${run.passed} of ${run.runs} passed` : run.passed ? 'passed' : run.scores[0] === null ? esc(run.states[0]) : 'failed';
  const verdictClass = run.passed === run.runs ? 'pass' : run.passed === 0 ? 'fail' : 'skip';
  const runLinks = run.runs > 1 ? `<br>${run.pages.map((_, i) => (page(i) ? `<a href="${page(i)}">run ${i + 1}</a>` : `run ${i + 1}`)).join(' · ')}` : firstPage ? `<br><a href="${firstPage}">trajectory</a>` : '';
  return `<td class="run">${shot}score <b>${run.value.toFixed(2)}</b> · <span class="${verdictClass}">${verdict}</span>${runLinks}</td>`;
}
