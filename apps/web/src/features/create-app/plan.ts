import { PLAN_PRICES_MICRO_USD, type PlanKey } from '@portal/contracts';
import type { TranslationKey } from '../../lib/i18n';

/** The modules a new application can offer (§3); 'product' stands for the configured product name. */
export const MODULES = ['product', 'chat', 'video'] as const;
export type Module = (typeof MODULES)[number];

/**
 * The plan that follows from the chosen modules: the advance plan is the one covering chat, the
 * product and video together (§3), so any selection needs it; no selection leaves no plan. A plan the
 * user picked from the catalogue stands until the modules change (decision 041).
 */
export function planForModules(modules: readonly Module[], picked: PlanKey | null = null): PlanKey | null {
  if (modules.length === 0) return null;
  return picked ?? 'advance';
}

/** The plan catalogue (§3): what each plan includes, and the one marked popular. */
export const PLAN_CATALOGUE: Record<PlanKey, { includes: readonly TranslationKey[]; popular: boolean }> = {
  basic: { includes: ['createApp.plan.includes.chatOnly'], popular: false },
  advance: {
    includes: [
      'createApp.plan.includes.chat',
      'createApp.plan.includes.product',
      'createApp.plan.includes.videoSd',
      'createApp.plan.includes.bots',
    ],
    popular: true,
  },
  max: { includes: ['createApp.plan.includes.video10k'], popular: false },
};

const PLAN_PRICE_FORMAT = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/**
 * A plan's price per monthly active user, from the contracts' integer prices: the currency is shown,
 * the unit is not (§3).
 */
export function planPrice(plan: PlanKey): string {
  return PLAN_PRICE_FORMAT.format(PLAN_PRICES_MICRO_USD[plan] / 1_000_000);
}

/** Selecting a module that is already selected removes it; the order of MODULES is kept. */
export function toggleModule(modules: readonly Module[], module: Module): Module[] {
  const next = modules.includes(module) ? modules.filter((m) => m !== module) : [...modules, module];
  return MODULES.filter((m) => next.includes(m));
}
