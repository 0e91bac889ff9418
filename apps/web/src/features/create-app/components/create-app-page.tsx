import { Stack, Stepper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { useAccount } from '../../../lib/account';
import { PROGRESS_STEPS, firstStepPath, resolveStep, type CreateAppStep } from '../steps';
import { SelectImplementationStep } from './select-implementation-step';

function StepContent({ step, sub }: { step: CreateAppStep; sub: string }) {
  switch (step) {
    case 'select-implementation':
      return <SelectImplementationStep sub={sub} />;
    default:
      return null;
  }
}

/** §2 create-application wizard: one page whose step is the last part of the path. */
export function CreateAppPage() {
  const { t } = useTranslation();
  const { sub = '', step } = useParams();
  const location = useLocation();
  const { data: account } = useAccount();
  const current = resolveStep(step);

  if (!current) return <Navigate replace to={firstStepPath(sub, location.search)} />;
  // §2: no step renders before the account, and so its contract type, is known.
  if (!account?.contractType) return <PageLoader />;

  const progress = PROGRESS_STEPS.indexOf(current);
  return (
    <Stack gap="xl">
      <Title order={1}>{t('page.createApp')}</Title>
      {progress >= 0 && (
        <Stepper active={progress} size="sm" allowNextStepsSelect={false}>
          {PROGRESS_STEPS.map((item) => (
            <Stepper.Step key={item} label={t(`createApp.step.${item}`)} />
          ))}
        </Stepper>
      )}
      <StepContent step={current} sub={sub} />
    </Stack>
  );
}
