// Registers the setup steps no one format owns (Chrome's, over CDP). Each format's own steps come with its adapter
// (src/adapters/). Idempotent; user definitions made earlier win.
import { defineSetupStep, setupSteps, type SetupStep } from './registry.ts';

// --- step families (one import per family) ---
import { chromeSteps } from './chrome.ts';

const stepFamilies: Record<string, SetupStep>[] = [chromeSteps];

let registered = false;

export function registerBuiltinSteps(): void {
  if (registered) return;
  registered = true;
  for (const family of stepFamilies) {
    for (const [type, step] of Object.entries(family)) if (!setupSteps.has(type)) defineSetupStep(type, step);
  }
}
