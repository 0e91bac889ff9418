import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { applyFieldErrors } from './form-errors';

const refusal = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
  new ApiError({ status: 400, code: 'VALIDATION_ERROR', message: 'refused', path: '/api/v1/x', ...init });

function placed(error: unknown, fields: readonly string[]) {
  const found: Record<string, string> = {};
  const matched = applyFieldErrors(error, (field, { message }) => (found[field] = message), fields);
  return { matched, found };
}

describe('applyFieldErrors', () => {
  it('puts a refusal naming one field under that field', () => {
    expect(placed(refusal({ code: 'TAKEN', field: 'domain', message: 'Taken.' }), ['domain'])).toEqual({
      matched: true,
      found: { domain: 'Taken.' },
    });
  });

  it("shows a validation failure's own message per field, not the summary naming the first", () => {
    const error = refusal({
      field: 'organization',
      message: 'organization: Please enter an organization.',
      fields: [{ field: 'organization', message: 'Please enter an organization.' }],
    });
    expect(placed(error, ['organization']).found).toEqual({ organization: 'Please enter an organization.' });
  });

  it("reports an item of a list on the list's field", () => {
    const error = refusal({ fields: [{ field: 'emailDomains.2', message: 'Enter an email domain.' }] });
    expect(placed(error, ['emailDomains']).found).toEqual({ emailDomains: 'Enter an email domain.' });
  });

  it('ignores fields the form does not have, and failures that are not refusals', () => {
    expect(placed(refusal({ field: 'other' }), ['domain'])).toEqual({ matched: false, found: {} });
    expect(placed(new Error('boom'), ['domain'])).toEqual({ matched: false, found: {} });
  });
});
