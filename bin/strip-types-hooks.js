// Module hooks for the `deskbench` command: Node strips TypeScript types itself, but refuses to for files under
// node_modules — which is where deskbench's own sources are once it is installed as a package. This load hook strips
// the types of deskbench's .ts files there (Node >= 22.13 has module.stripTypeScriptTypes).
import { readFile } from 'node:fs/promises';
import * as nodeModule from 'node:module';

const PACKAGE_ROOT = new URL('../', import.meta.url).href;

// Not worth a warning on every run: the command relies on type stripping by design.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  if (String(warning).includes('stripTypeScriptTypes')) return;
  emitWarning(warning, ...rest);
};

export async function load(url, context, nextLoad) {
  if (!url.startsWith(PACKAGE_ROOT) || !url.includes('/node_modules/') || !/\.[mc]?ts$/.test(url)) return nextLoad(url, context);
  if (typeof nodeModule.stripTypeScriptTypes !== 'function') {
    throw new Error(`deskbench: this Node (${process.version}) cannot run deskbench's TypeScript from node_modules; use Node >= 22.13 (npm run setup installs Node 24)`);
  }
  const source = await readFile(new URL(url), 'utf8');
  return { format: 'module', source: nodeModule.stripTypeScriptTypes(source, { sourceUrl: url }), shortCircuit: true };
}
