// GUI-OS's environment in the desktop, as its init scripts use it: the task venv ~/Desktop/.action-env, `uv pip
// install` of the packages the 44 tasks install (all already there: it must succeed offline), the kernel registered,
// /mnt/container writable, and the commands PyPI's `jupyter` brings (`jupyter nbconvert`, `jupyter notebook`) working.
// One container for this file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

/** A bash script run as GUI-OS runs init.sh: as `user`, sourcing ~/.profile under `set -euo pipefail`. */
const inVenv = (body: string) =>
  desktop.client.execute(['bash', '-c', `set -euo pipefail; source ~/.profile; cd ~/Desktop; source .action-env/bin/activate; ${body}`]);

test('`uv pip install` of every package the GUI-OS tasks install succeeds offline inside ~/Desktop/.action-env', { timeout: 180_000 }, async () => {
  const result = await inVenv('uv pip install jupyter ipykernel numpy pandas matplotlib seaborn scipy scikit-learn torch nltk');
  expect(result.returncode, result.output + result.error).toBe(0);
  expect(result.output).toContain('Requirement already satisfied: numpy');
  const python = await inVenv('python -c "import sys, numpy, pandas, matplotlib, seaborn, scipy, sklearn, torch, nltk, ipykernel; print(sys.prefix)"');
  expect(python.output.trim()).toBe('/home/user/Desktop/.action-env');
  const list = await inVenv('uv pip list');
  expect(list.output).toMatch(/^scikit-learn\s+\d/m);
});

test('`uv pip install` of a package that is not there fails, as an offline install does', { timeout: 120_000 }, async () => {
  const result = await inVenv('uv pip install deskbench-no-such-package');
  expect(result.returncode).not.toBe(0);
  expect(result.output + result.error).toMatch(/No matching distribution|Could not find a version/);
});

test('the kernel registers as init.sh registers it, and /mnt/container takes the task logs', { timeout: 120_000 }, async () => {
  const kernel = await inVenv('python -m ipykernel install --user --name .action-env --display-name ".action-env" && jupyter kernelspec list');
  expect(kernel.returncode, kernel.error).toBe(0);
  expect(kernel.output).toMatch(/\.action-env\s+\/home\/user\/\.local\/share\/jupyter\/kernels\/\.action-env/);
  const log = await desktop.client.execute(['bash', '-c', 'echo setup > /mnt/container/task-setup.log && cat /mnt/container/task-setup.log']);
  expect(log.output.trim()).toBe('setup');
});

test('`jupyter nbconvert --execute` runs a notebook in the venv, as an agent runs one from a terminal', { timeout: 180_000 }, async () => {
  const notebook = JSON.stringify({
    nbformat: 4, nbformat_minor: 5, metadata: {},
    cells: [{ cell_type: 'code', id: 'c1', metadata: {}, execution_count: null, outputs: [], source: ['import sys, numpy\n', 'print(sys.prefix, numpy.arange(3).sum())'] }],
  });
  const run = await inVenv(`cd /tmp && printf '%s' '${notebook}' > run.ipynb && jupyter nbconvert --to notebook --execute --inplace run.ipynb && python -c "import json; print(''.join(json.load(open('run.ipynb'))['cells'][0]['outputs'][0]['text']))"`);
  expect(run.returncode, run.output + run.error).toBe(0);
  expect(run.output.trim()).toBe('/home/user/Desktop/.action-env 3');
});

test('`jupyter notebook --port` serves a notebook and redirects an unauthenticated request for it to the login page, as two GUI-OS tasks check', { timeout: 180_000 }, async () => {
  const start = await inVenv('cd ~/Downloads && printf \'{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}\' > served.ipynb && (setsid jupyter notebook --no-browser --port 1036 served.ipynb > /tmp/notebook.log 2>&1 &)');
  expect(start.returncode, start.error).toBe(0);
  const check = await desktop.client.execute(['bash', '-c', 'for i in $(seq 60); do curl -s -o /dev/null http://localhost:1036/api && break; sleep 1; done; curl -s -i http://localhost:1036/notebooks/served.ipynb']);
  expect(check.output).toContain('HTTP/1.1 302 Found');
  expect(check.output).toMatch(/^Location: .*served\.ipynb/m);
});

test('no desktop entry for Jupyter: GUI-OS installs it with pip, so no "Jupyter Notebook" app and .ipynb files are not taken over', async () => {
  const entries = await desktop.client.execute(['bash', '-c', 'grep -ril jupyter /usr/share/applications || true']);
  expect(entries.output.trim()).toBe('');
});
