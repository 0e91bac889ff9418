import { z } from 'zod';

/**
 * The body of every API error. `field` names the failing input when there is one; a 5xx answer
 * carries its `requestId`, which the server's log lines of that request carry too.
 */
export const ApiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  requestId: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
