/** The wizard's steps in order (§2); the list is the same for both contract types. */
export const CREATE_APP_STEPS = ['select-implementation', 'setup-application', 'finish-setup', 'troubleshooting'] as const;
export type CreateAppStep = (typeof CREATE_APP_STEPS)[number];

/** Troubleshooting is reached on demand, so the progress indicator only shows the first three. */
export const PROGRESS_STEPS: readonly CreateAppStep[] = CREATE_APP_STEPS.slice(0, 3);

const FIRST_STEP: CreateAppStep = 'select-implementation';

/** The step named in the URL, or null when it is missing or unknown (the page then goes to the first step). */
export function resolveStep(step: string | undefined): CreateAppStep | null {
  return CREATE_APP_STEPS.find((known) => known === step) ?? null;
}

/** Where a missing or unknown step goes: the first step, keeping the query string. */
export function firstStepPath(sub: string, search: string): string {
  return `/create-app/${encodeURIComponent(sub)}/${FIRST_STEP}${search}`;
}
