// Registers every built-in metric and getter family (a format's own come with its adapter, src/adapters/). Each
// family module exports a record keyed by OSWorld's names;
// helpers add ONE import line and ONE entry below for their family. Registration is idempotent and lazy: the engine
// and runMetric call registerBuiltins() before looking anything up, and user definitions made earlier win.
import { defineGetter, defineMetric, getters, metrics } from './registry.ts';
import type { Getter, Metric } from './registry.ts';

// --- metric families (one import per family) ---
import { pdfMetrics } from './metrics/pdf.ts';
import { imageMetrics } from './metrics/image.ts';
import { generalMetrics } from './metrics/general.ts';
import { textMetrics } from './metrics/text.ts';
import { dataMetrics } from './metrics/data.ts';
import { jsonMetrics } from './metrics/json.ts';
import { archiveMetrics } from './metrics/archive.ts';
import { htmlMetrics } from './metrics/html.ts';
import { editorMetrics } from './metrics/editors.ts';
import { vlcMetrics } from './metrics/vlc.ts';
import { thunderbirdMetrics } from './metrics/thunderbird.ts';
import { osMetrics } from './metrics/os.ts';
import { browserMetrics } from './metrics/browser.ts';
import { appMetrics } from './metrics/apps.ts';
import { docxMetrics } from './metrics/docx/index.ts';
import { pptxMetrics } from './metrics/pptx/index.ts';
import { xlsxMetrics } from './metrics/xlsx/index.ts';

// --- getter families (one import per family) ---
import { fileGetters } from './getters/file.ts';
import { commandGetters } from './getters/command.ts';
import { ruleGetters } from './getters/rule.ts';
import { osGetters } from './getters/os.ts';
import { chromeGetters } from './getters/chrome.ts';
import { chromeProfileGetters } from './getters/chrome-profile.ts';
import { vlcGetters } from './getters/vlc.ts';
import { gimpGetters } from './getters/gimp.ts';
import { vscodeGetters } from './getters/vscode.ts';
import { impressGetters } from './getters/impress.ts';

const metricFamilies: Record<string, Metric>[] = [
  pdfMetrics,
  imageMetrics,
  generalMetrics,
  textMetrics,
  dataMetrics,
  jsonMetrics,
  archiveMetrics,
  htmlMetrics,
  editorMetrics,
  vlcMetrics,
  thunderbirdMetrics,
  osMetrics,
  browserMetrics,
  appMetrics,
  docxMetrics,
  pptxMetrics,
  xlsxMetrics,
];

const getterFamilies: Record<string, Getter>[] = [
  fileGetters,
  commandGetters,
  ruleGetters,
  osGetters,
  chromeGetters,
  chromeProfileGetters,
  vlcGetters,
  gimpGetters,
  vscodeGetters,
  impressGetters,
];

let registered = false;

/** Registers the built-in families once. Names a user already defined are left alone (theirs win). */
export function registerBuiltins(): void {
  if (registered) return;
  registered = true;
  for (const family of metricFamilies) {
    for (const [name, metric] of Object.entries(family)) if (metrics.get(name) === undefined) defineMetric(name, metric);
  }
  for (const family of getterFamilies) {
    for (const [type, getter] of Object.entries(family)) if (getters.get(type) === undefined) defineGetter(type, getter);
  }
}
