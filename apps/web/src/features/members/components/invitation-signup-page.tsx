import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ErrorCode, VerifyInvitationResponse } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { PageLoader } from '../../../components/page-loader';
import { ApiError } from '../../../lib/api-error';
import { fieldError } from '../../../lib/form-errors';
import { usePasswordScore } from '../../../lib/use-password-score';
import { useConfirmInvitation } from '../api/confirm-invitation';
import { verifyInvitationQueryOptions } from '../api/verify-invitation';
import { InvitationSignupFormSchema, isStrongEnough, type InvitationSignupForm } from '../member-forms';
import { StrongPasswordInput } from './strong-password-input';
import { errorText } from '../../../lib/api-error';
import { toastError } from '../../../lib/toasts';

const INVITATION_CODE_EXPIRED: ErrorCode = 'INVITATION_CODE_EXPIRED';

/** §2 /invitation-signup?code=…: the code is verified first; an expired or unusable one leads away (§4). */
export function InvitationSignupPage() {
  const [params] = useSearchParams();
  const code = params.get('code')?.trim() ?? '';
  const verified = useQuery({ ...verifyInvitationQueryOptions(code), enabled: code !== '' });

  if (code === '') return <Navigate to="/invitation-invalid" replace />;
  if (verified.isPending) return <PageLoader />;
  if (verified.isError) {
    const expired = verified.error instanceof ApiError && verified.error.code === INVITATION_CODE_EXPIRED;
    return <Navigate to={expired ? '/invitation-expired' : '/invitation-invalid'} replace />;
  }
  return <InvitationSignupForm invitation={verified.data} code={code} />;
}

function InvitationSignupForm({ invitation, code }: { invitation: VerifyInvitationResponse; code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirmInvitation(invitation.invitationId);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(InvitationSignupFormSchema),
    defaultValues: { displayName: '', password: '', confirmPassword: '' } satisfies InvitationSignupForm,
    mode: 'onTouched',
  });
  const password = watch('password');
  const score = usePasswordScore(password);

  const onSubmit = handleSubmit((values) => {
    if (!isStrongEnough(values.password, score)) {
      setError('password', { message: 'password.strongRequired' });
      return;
    }
    confirm.mutate(
      { ...values, code },
      {
        onSuccess: () => navigate('/home', { replace: true }),
        onError: (error) => toastError(errorText(error)),
      },
    );
  });

  return (
    <CenteredFrame title={t('invitation.signup.heading', { organization: invitation.organizationName })}>
      <Text>
        <Trans
          i18nKey="invitation.signup.intro"
          values={{ organization: invitation.organizationName, email: invitation.email }}
          components={{ strong: <strong /> }}
        />
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('members.field.email')} value={invitation.email} readOnly variant="filled" />
          <TextInput
            label={t('members.field.displayName')}
            autoComplete="name"
            required
            {...register('displayName')}
            error={fieldError(errors.displayName)}
          />
          <StrongPasswordInput
            label={t('auth.password')}
            description={t('password.strongRequired')}
            registration={register('password')}
            value={password}
            error={errors.password}
          />
          <PasswordInput
            label={t('invitation.signup.confirmPassword')}
            autoComplete="new-password"
            required
            {...register('confirmPassword')}
            error={fieldError(errors.confirmPassword)}
          />
          <Button type="submit" loading={confirm.isPending}>
            {t('invitation.signup.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredFrame>
  );
}
