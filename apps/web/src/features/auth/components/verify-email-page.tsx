import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { VerifyEmailRequestSchema } from '@portal/contracts';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Navigate, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-client';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useSendVerificationOtp } from '../api/send-verification-otp';
import { useVerifyEmail } from '../api/verify-email';
import { useAuthNavigationState, type AuthNavigationState } from '../navigation-state';
import { useVerificationOutcome } from '../verification-outcome';

const CodeFormSchema = VerifyEmailRequestSchema.pick({ code: true });

/** The address comes in navigation state (after sign-up or sign-in) or as ?email= (from a link). */
export function VerifyEmailPage() {
  const state = useAuthNavigationState();
  const [params] = useSearchParams();
  const email = state.email ?? params.get('email');
  if (!email) return <Navigate to="/signup" replace />;
  return <VerifyEmail email={email} alert={state.alert} />;
}

function VerifyEmail({ email, alert }: { email: string; alert: AuthNavigationState['alert'] }) {
  const { t } = useTranslation();
  const outcome = useVerificationOutcome();
  const verify = useVerifyEmail();
  const resend = useSendVerificationOtp();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(CodeFormSchema), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(({ code }) =>
    verify.mutate(
      { email, otp: code },
      {
        onSuccess: outcome.onSuccess,
        // A mistyped code is corrected here; every other outcome leads away as from the mail's link.
        onError: (error, variables) =>
          error instanceof ApiError && error.code === 'INVALID_OTP'
            ? setError('code', { message: 'auth.error.codeInvalid' })
            : outcome.onError(error, variables),
      },
    ),
  );

  return (
    <CenteredFrame title={t('verifyEmail.title')}>
      {alert && <StatusAlert kind={alert.kind} message={alert.message} />}
      <Text>
        <Trans i18nKey="verifyEmail.sent" values={{ email }} components={{ strong: <strong /> }} />
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('verifyEmail.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            {...register('code')}
            error={fieldError(errors.code)}
          />
          <Button type="submit" loading={verify.isPending}>
            {t('verifyEmail.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm">
        {t('verifyEmail.noMail')}{' '}
        <Anchor component="button" type="button" size="sm" onClick={() => resend.mutate({ email })} disabled={resend.isPending}>
          {t('verifyEmail.resend')}
        </Anchor>
      </Text>
      {resend.isSuccess && <StatusAlert kind="success" message="verifyEmail.resent" />}
      <StatusAlert kind="fail" message={submitErrorText(resend.error)} />
    </CenteredFrame>
  );
}
