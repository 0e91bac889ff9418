import type { ErrorCode } from '@portal/contracts';

/** What a caller must be answered in an access matrix: a success status, or a refusal's status and code. */
export interface Outcome {
  status: number;
  code?: ErrorCode | string;
}
export const OK: Outcome = { status: 200 };
export const CREATED: Outcome = { status: 201 };
export const NO_CONTENT: Outcome = { status: 204 };
export const UNAUTHORIZED: Outcome = { status: 401, code: 'UNAUTHORIZED' };
export const FORBIDDEN: Outcome = { status: 403, code: 'FORBIDDEN' };
export const NOT_FOUND: Outcome = { status: 404, code: 'NOT_FOUND' };

/** A billing update after setup, valid for Singapore. */
export const BILLING_UPDATE = {
  organization: 'Acme',
  firstName: 'Ann',
  lastName: 'Lee',
  billingAddress: '1 Raffles Place',
  billingCountry: 'SG',
  billingState: '01',
  billingZipCode: '048616',
};
