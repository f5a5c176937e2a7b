// The benchmark formats deskbench reads, one Registry of adapters (adapter.ts). A fourth format is a folder beside
// these and one line below (the order is the order reports list them).
import { defineGetter, defineMetric, getters, metrics } from '../eval/registry.ts';
import { Registry } from '../shared/registry.ts';
import { defineSetupStep, setupSteps } from '../setup/registry.ts';
import type { BenchmarkAdapter } from './adapter.ts';
import { guios } from './guios/index.ts';
import { osworld } from './osworld/index.ts';
import { spider2v } from './spider2v/index.ts';

export const adapters = new Registry<BenchmarkAdapter>('benchmark format');
adapters.define(osworld.name, osworld);
adapters.define(spider2v.name, spider2v);
adapters.define(guios.name, guios);

/** The adapters, in registration order. */
export function benchmarkAdapters(): BenchmarkAdapter[] {
  return adapters.names().map((name) => adapters.get(name) as BenchmarkAdapter);
}

/** The format of a task file: the one that claims it, else the fallback. */
export function adapterFor(file: string, data: Record<string, unknown>): BenchmarkAdapter {
  const all = benchmarkAdapters();
  const claimed = all.find((adapter) => !adapter.fallback && adapter.claims(file, data));
  return claimed ?? (all.find((adapter) => adapter.fallback) as BenchmarkAdapter);
}

let registered = false;

/**
 * Registers every format's setup steps, getters and metrics once (task loading calls it, so whatever runs a loaded
 * task finds them). Names a user already defined are left alone (theirs win), as for the built-in families.
 */
export function registerAdapters(): void {
  if (registered) return;
  registered = true;
  for (const adapter of benchmarkAdapters()) {
    for (const [type, step] of Object.entries(adapter.setupSteps ?? {})) if (!setupSteps.has(type)) defineSetupStep(type, step);
    for (const [type, getter] of Object.entries(adapter.getters ?? {})) if (getters.get(type) === undefined) defineGetter(type, getter);
    for (const [name, metric] of Object.entries(adapter.metrics ?? {})) if (metrics.get(name) === undefined) defineMetric(name, metric);
    for (const [name, metric] of Object.entries(adapter.metricVariants ?? {})) if (!metrics.has(name, adapter.name)) defineMetric(name, metric, { format: adapter.name });
  }
}
