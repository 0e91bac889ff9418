import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { showToast } from '../../../lib/toasts';
import type { ErrorCode } from '@portal/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-error';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { usePasswordScore } from '../../../lib/use-password-score';
import { useChangePassword } from '../api/change-password';
import {
  ChangePasswordFormSchema,
  isStrongEnough,
  type ChangePasswordForm as ChangePasswordValues,
} from '../member-forms';
import { StrongPasswordInput } from './strong-password-input';
import { useConfirmedChange } from './use-confirmed-change';

const INVALID_PASSWORD: ErrorCode = 'INVALID_PASSWORD';
const EMPTY: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** §2 change-password tab: only ever for one's own member. */
export function ChangePasswordForm({ memberId }: { memberId: string }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ChangePasswordFormSchema), defaultValues: EMPTY, mode: 'onTouched' });
  const newPassword = watch('newPassword');
  const score = usePasswordScore(newPassword);
  const confirmation = useConfirmedChange({
    mutation: useChangePassword(memberId),
    variables: (values: ChangePasswordValues) => values,
    title: t('members.password.confirmTitle'),
    question: () => t('members.password.confirmText'),
    onSuccess: () => {
      showToast({ color: 'green', message: t('members.password.changed') });
      reset(EMPTY);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === INVALID_PASSWORD) {
        setError('currentPassword', { message: 'errors.invalidPassword' }, { shouldFocus: true });
      } else {
        setFailure(submitErrorText(error));
      }
    },
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    if (!isStrongEnough(values.newPassword, score)) {
      setError('newPassword', { message: 'password.strongRequired' });
      return;
    }
    confirmation.ask(values);
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={560}>
        <StatusAlert kind="fail" message={failure} />
        <PasswordInput
          label={t('members.password.current')}
          autoComplete="current-password"
          required
          {...register('currentPassword')}
          error={fieldError(errors.currentPassword)}
        />
        <StrongPasswordInput
          label={t('members.password.new')}
          description={t('password.strongRequired')}
          registration={register('newPassword')}
          value={newPassword}
          error={errors.newPassword}
        />
        <PasswordInput
          label={t('members.password.confirm')}
          autoComplete="new-password"
          required
          {...register('confirmPassword')}
          error={fieldError(errors.confirmPassword)}
        />
        <Group>
          <Button type="submit">{t('members.password.submit')}</Button>
        </Group>
      </Stack>
      {confirmation.dialog}
    </form>
  );
}
