// The layers of src/, bottom up, checked by dependency-cruiser in `npm run lint` (and so in CI): a module imports only
// from its own folder and from the layers below its own. Folders on one line are siblings and never import each
// other; `node/` (vitest's main process) and `worker/` (its test workers) meet only in `contract/`, the types that
// cross between them. A folder in no layer fails the check: put a new folder on the line where it belongs (and say so
// in docs/architecture.md). Type-only imports count too.
const LAYERS = [
  ['shared', 'errors.ts', 'abort.ts'], // domain-free utilities, the error classes
  ['python'], // Python's semantics where JavaScript differs
  ['task'], // the Task type, its loading, the tag vocabulary
  ['agent', 'desktop', 'files'], // the agent contract and built-ins; the desktops; downloaded files
  ['eval'], // evaluation: file formats, metrics, getters, the engine
  ['setup', 'fidelity'], // setup steps; how close the desktop's screen is to OSWorld's (bench:fidelity)
  ['adapters'], // one folder per benchmark format (osworld, spider2v, guios), and reading task files through them
  ['solutions', 'matchers'], // shipped solution files; vitest matchers over the metrics
  ['contract'], // what crosses between node/ and worker/
  ['worker', 'node/report'], // the test workers; the reporter and the HTML report (main process)
  ['node/plugin'], // the vitest plugin and its global setup
  ['node/verify'], // deskbench verify
  ['node/replay'], // deskbench replay: recorded trajectories replayed through verify
  ['node/cli'], // the deskbench command
  ['index.ts', 'test.ts'], // entry points of the package
];

/** A path pattern for one folder or file under src/. */
const pattern = (entry) => (entry.endsWith('.ts') ? `^src/${entry.replace('.', '[.]')}$` : `^src/${entry}/`);
const any = (entries) => entries.map(pattern).join('|');

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((entry) => {
    const above = LAYERS.slice(index + 1).flat();
    const siblings = layer.filter((other) => other !== entry);
    return {
      name: `layer:${entry}`,
      comment: `src/${entry} imports only its own folder and the layers below it (.dependency-cruiser.cjs)`,
      severity: 'error',
      from: { path: pattern(entry) },
      to: { path: any([...above, ...siblings]) },
    };
  }),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-layer',
      comment: 'every module of src/ belongs to a layer: add its folder to LAYERS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: any(LAYERS.flat()) },
      to: {},
    },
    {
      // The layers above already rule out most; this names any cycle through modules of two folders as such.
      name: 'no-circular-between-folders',
      comment: 'no import cycle leaves its folder',
      severity: 'error',
      from: { path: '^(src/(?:node/)?[^/]+)/' },
      to: { circular: true, via: { pathNot: '^$1/' } },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with: swc parses the .ts files.
    parser: 'swc',
    includeOnly: '^src/',
    doNotFollow: { path: 'node_modules' },
  },
};
