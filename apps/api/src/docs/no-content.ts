import { z } from 'zod';

/** A 204 answer: no body, which the document shows as a response without content. */
export const NoContentSchema = z.undefined().describe('Done; no body.');
