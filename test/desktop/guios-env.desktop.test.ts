// GUI-OS's environment in the desktop, as its init scripts use it: the task venv ~/Desktop/.action-env, `uv pip
// install` of the packages the 44 tasks install (all already there: it must succeed offline), the kernel registered,
// /mnt/container writable. One container for this file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDesktop, type Desktop } from '../../src/desktop/docker-provider.ts';

let desktop: Desktop;
beforeAll(async () => {
  desktop = await startDesktop({ runId: 'test-desktop-guios-env' });
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
