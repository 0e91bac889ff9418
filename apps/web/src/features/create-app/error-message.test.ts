import { expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { addMessages } from '../../lib/i18n';
import { enSignedIn } from '../../locales/en-signed-in';
import { ActivationTimeoutError } from './api/create-application';
import { wizardErrorMessage } from './error-message';

// The wizard is a signed-in page: its wording is loaded with the signed-in frame.
addMessages(enSignedIn);

const apiError = (message: string) =>
  new ApiError({ status: 409, code: 'APPLICATION_LIMIT_REACHED', message, path: '/api/v1/applications' });

it("shows the server's own message", () => {
  expect(wizardErrorMessage(apiError('You have reached the application limit.'))).toBe(
    'You have reached the application limit.',
  );
});

it('words message keys and the activation time-out', () => {
  expect(wizardErrorMessage(apiError('common.networkError'))).toBe('Network error');
  expect(wizardErrorMessage(new ActivationTimeoutError())).toMatch(/taking longer than expected/);
});

it('falls back to a generic message for anything else', () => {
  expect(wizardErrorMessage(new TypeError('x is undefined'))).toBe('An error occurred');
});
