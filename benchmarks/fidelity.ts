// How close this desktop's screen is to OSWorld-Verified's (src/fidelity/): window rectangles of the apps OSWorld's
// tasks open, the dock's and the desktop's icons and the first controls agents click, each against OSWorld's figure,
// and image similarity with OSWorld's own screenshots over layout regions. On one fresh desktop. Prints a table and
// writes results/fidelity/fidelity.json with the date, commit and image (the README's figures come from that file), and
// our screenshot of each comparison beside it (ours-<OSWorld's file>.png) to look at next to OSWorld's.
// Run: npm run bench:fidelity [-- App …]   (app names as in src/fidelity/osworld-screen.ts: Chrome, "VS Code", …)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDesktop } from '../src/desktop/providers/docker/container.ts';
import { desktopImage } from '../src/desktop/image.ts';
import { type FidelityRow, measureFidelity } from '../src/fidelity/fidelity.ts';
import { verifyEnvironment } from '../src/node/verify/environment.ts';

const root = join(import.meta.dirname, '..');
const apps = process.argv.slice(2);
const environment = await verifyEnvironment(root, desktopImage());
const out = join(root, 'results', 'fidelity');
mkdirSync(out, { recursive: true });
const desktop = await startDesktop();
try {
  const report = await measureFidelity(desktop.client, {
    ...(apps.length ? { apps } : {}),
    referenceDir: join(root, '..', 'shared', 'reference-screens', 'osworld'),
    screenshotsDir: out,
    onProgress: (what) => process.stderr.write(`[fidelity] ${what}\n`),
  });
  const show = (value: FidelityRow['ours']) => (value ? `(${value.join(', ')})` : '—');
  console.log(`Fidelity to OSWorld-Verified's screen, ${environment.date.slice(0, 10)}, image ${environment.imageBuildHash ?? environment.imageId ?? environment.image}\n`);
  console.log('| element | OSWorld | ours | distance px | within |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of report.rows) {
    const within = row.ok === null ? 'not held' : row.ok ? `yes (≤ ${row.tolerance})` : `NO (> ${row.tolerance})`;
    console.log(`| ${row.item} | ${show(row.osworld)} | ${show(row.ours)} | ${row.distance ?? '—'} | ${within} |`);
  }
  const held = report.rows.filter((row) => row.ok !== null);
  console.log(`\n${held.filter((row) => row.ok).length} of ${held.length} figures within tolerance`);
  for (const row of report.similarity) console.log(`SSIM vs OSWorld's ${row.reference} (${row.label}): ${row.ssim ?? 'reference screenshot not found'}`);
  writeFileSync(join(out, 'fidelity.json'), `${JSON.stringify({ environment, ...report }, null, 2)}\n`);
  console.log(`\nwritten: ${join('results', 'fidelity', 'fidelity.json')}`);
} finally {
  await desktop.stop();
}
