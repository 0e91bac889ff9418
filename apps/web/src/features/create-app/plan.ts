import type { PlanKey } from '@portal/contracts';

/** The modules a new application can offer (§3); 'product' stands for the configured product name. */
export const MODULES = ['product', 'chat', 'video'] as const;
export type Module = (typeof MODULES)[number];

/**
 * The plan that follows from the chosen modules: the advance plan is the one covering chat, the
 * product and video together (§3), so any selection needs it; no selection leaves no plan.
 */
export function planForModules(modules: readonly Module[]): PlanKey | null {
  return modules.length > 0 ? 'advance' : null;
}

/** Selecting a module that is already selected removes it; the order of MODULES is kept. */
export function toggleModule(modules: readonly Module[], module: Module): Module[] {
  const next = modules.includes(module) ? modules.filter((m) => m !== module) : [...modules, module];
  return MODULES.filter((m) => next.includes(m));
}
