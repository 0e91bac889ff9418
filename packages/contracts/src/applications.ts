import { z } from 'zod';
import {
  APP_NAME_MAX_LENGTH,
  APPLICATION_LIST_MAX_LIMIT,
  APPLICATION_STATES,
  DEFAULT_APP_QUERY_LIMIT,
  PLAN_KEYS,
  REGION_KEYS,
} from './constants.ts';
import type { MessageKey } from './messages.ts';

const key = (k: MessageKey) => k;

export const ApplicationNameSchema = z
  .string({ error: key('editAppModal.form.error.emptyName') })
  .trim()
  .min(1, key('editAppModal.form.error.emptyName'))
  .max(APP_NAME_MAX_LENGTH, key('validation.appName.tooLong'));

export const ApplicationSchema = z.object({
  applicationId: z.string(),
  name: z.string(),
  plan: z.enum(PLAN_KEYS),
  planName: z.string(),
  region: z.enum(REGION_KEYS),
  state: z.enum(APPLICATION_STATES),
  createdAt: z.string(),
  deactivatedAt: z.string().nullable(),
  consoleUrl: z.string().nullable(),
  description: z.string(),
  /** The application's network in its region (for the first-activity check); null until provisioned. */
  networkId: z.string().nullable(),
});
export type Application = z.infer<typeof ApplicationSchema>;

export const ListApplicationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(APPLICATION_LIST_MAX_LIMIT).default(DEFAULT_APP_QUERY_LIMIT),
});
export const ListApplicationsResponseSchema = z.object({
  data: z.array(ApplicationSchema),
  total: z.number().int(),
});
export type ListApplicationsResponse = z.infer<typeof ListApplicationsResponseSchema>;

export const CreateApplicationRequestSchema = z.object({
  name: ApplicationNameSchema,
  plan: z.enum(PLAN_KEYS, { error: key('validation.plan.invalid') }),
  region: z.enum(REGION_KEYS, { error: key('validation.region.invalid') }),
});
export type CreateApplicationRequest = z.infer<typeof CreateApplicationRequestSchema>;
/** POST answers a list whose first item is the new application (§7). */
export const CreateApplicationResponseSchema = z.array(ApplicationSchema).min(1);

export const UpdateApplicationRequestSchema = z.object({ name: ApplicationNameSchema });
export type UpdateApplicationRequest = z.infer<typeof UpdateApplicationRequestSchema>;

/** A real deactivation: the user types the application's name to confirm. */
export const DeactivateApplicationRequestSchema = z.object({
  confirmName: z
    .string({ error: key('validation.required') })
    .trim()
    .min(1, key('validation.required')),
});
export type DeactivateApplicationRequest = z.infer<typeof DeactivateApplicationRequestSchema>;

export const ApplicationIdParamsSchema = z.object({ applicationId: z.string().trim().min(1).max(64) });
