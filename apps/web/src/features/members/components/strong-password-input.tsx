import { PasswordInput, Stack } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter';
import { fieldError } from '../../../lib/form-errors';

interface StrongPasswordInputProps {
  label: string;
  description: string;
  registration: UseFormRegisterReturn;
  value: string;
  error: { message?: string } | undefined;
}

/** A new password with its three-level strength meter (§5: medium or high is required). */
export function StrongPasswordInput({
  label,
  description,
  registration,
  value,
  error,
}: StrongPasswordInputProps) {
  return (
    <Stack gap={6}>
      <PasswordInput
        label={label}
        description={description}
        autoComplete="new-password"
        required
        {...registration}
        error={fieldError(error)}
      />
      <PasswordStrengthMeter password={value} />
    </Stack>
  );
}
