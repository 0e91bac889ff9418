import { PasswordInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';

/**
 * The password that confirms turning two-factor authentication on or off: asked of members who have
 * one (a Google-only member has none, and the server takes the session alone). `field` is the input
 * to show, `body()` what to send (null, with the field's message, while it is missing), `refused()`
 * shows a refusal on the field (a wrong password) or above the form (`failure`).
 */
export function usePasswordCheck(hasPassword: boolean, { autoFocus = false } = {}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  return {
    failure,
    field: hasPassword ? (
      <PasswordInput
        label={t('twoFactor.enrol.password')}
        autoComplete="current-password"
        required
        data-autofocus={autoFocus || undefined}
        value={password}
        onChange={(event) => {
          setPassword(event.currentTarget.value);
          setError(undefined);
        }}
        error={error}
      />
    ) : null,
    body(): { password?: string } | null {
      setFailure(null);
      if (!hasPassword) return {};
      if (password) return { password };
      setError(t('validation.password.required'));
      return null;
    },
    refused(refusal: unknown) {
      if (refusal instanceof ApiError && refusal.code === 'INVALID_PASSWORD')
        setError(t('errors.invalidPassword'));
      else setFailure(submitErrorText(refusal));
    },
    reset() {
      setPassword('');
      setError(undefined);
      setFailure(null);
    },
  };
}
