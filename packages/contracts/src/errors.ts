import { z } from 'zod';
import { messages, type MessageKey } from './messages.ts';

/** Every error the API answers, with its HTTP status and default message key. */
export const ERROR_DEFINITIONS = {
  VALIDATION_ERROR: { status: 400, message: 'errors.validation' },
  UNAUTHORIZED: { status: 401, message: 'errors.unauthorized' },
  FORBIDDEN: { status: 403, message: 'errors.forbidden' },
  NOT_FOUND: { status: 404, message: 'errors.notFound' },
  RATE_LIMITED: { status: 429, message: 'auth.error.rateLimited' },
  INTERNAL_ERROR: { status: 500, message: 'errors.internal' },
  CORPORATE_EMAIL_REQUIRED: { status: 400, message: 'signupForm.email.validation.corporate.lambda.error' },
  ACCOUNT_ALREADY_SET_UP: { status: 409, message: 'errors.accountAlreadySetUp' },
  LEGAL_NOT_ACCEPTED: { status: 400, message: 'errors.legalNotAccepted' },
  ACCOUNT_INACTIVE: { status: 403, message: 'errors.accountInactive' },
  APPLICATION_LIMIT_REACHED: { status: 409, message: 'errors.applicationLimitReached' },
  APPLICATION_NOT_ACTIVE: { status: 409, message: 'errors.applicationNotActive' },
  APPLICATION_NOT_DEACTIVATED: { status: 409, message: 'errors.applicationNotDeactivated' },
  CONFIRM_NAME_MISMATCH: { status: 400, message: 'errors.confirmNameMismatch' },
  REGION_UNAVAILABLE: { status: 503, message: 'errors.regionUnavailable' },
} as const satisfies Record<string, { status: number; message: MessageKey }>;

export type ErrorCode = keyof typeof ERROR_DEFINITIONS;

/** The body of every API error. `field` names the failing input when there is one. */
export const ApiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

export function defaultErrorMessage(code: ErrorCode): string {
  return messages[ERROR_DEFINITIONS[code].message];
}
