import { Alert, Anchor, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { useAccount } from '../../../lib/account';
import { PROGRESS_STEPS, firstStepPath, resolveStep, type CreateAppStep } from '../steps';
import { useWizardApplication } from '../wizard-state';
import { FinishSetupStep } from './finish-setup-step';
import { SelectImplementationStep } from './select-implementation-step';
import { SetupApplicationStep } from './setup-application-step';
import { TroubleshootingStep } from './troubleshooting-step';
import { Loading } from '../../../components/page-loader';

/** The steps after the first set up an application that already exists. */
function ApplicationStep({
  step,
  sub,
}: {
  step: Exclude<CreateAppStep, 'select-implementation'>;
  sub: string;
}) {
  const { t } = useTranslation();
  const wizard = useWizardApplication();
  if (wizard.status === 'loading') return <Loading />;
  if (wizard.status === 'missing')
    return (
      <Alert color="yellow" role="alert">
        <Text size="sm">{t('createApp.missingApp')}</Text>
        <Anchor component={Link} to={`/apps/${encodeURIComponent(sub)}`} size="sm">
          {t('createApp.finish.goToApp')}
        </Anchor>
      </Alert>
    );
  const { application, productType } = wizard;
  switch (step) {
    case 'setup-application':
      return <SetupApplicationStep sub={sub} application={application} />;
    case 'finish-setup':
      return <FinishSetupStep sub={sub} />;
    case 'troubleshooting':
      return <TroubleshootingStep sub={sub} application={application} productType={productType} />;
  }
}

/** §2 create-application wizard: one page whose step is the last part of the path. */
export function CreateAppPage() {
  const { t } = useTranslation();
  const { sub = '', step } = useParams();
  const location = useLocation();
  const { data: account } = useAccount();
  const current = resolveStep(step);
  const compact = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);

  if (!current) return <Navigate replace to={firstStepPath(sub, location.search)} />;
  // §2: no step renders before the account, and so its contract type, is known.
  if (!account?.contractType) return <PageLoader />;

  const progress = PROGRESS_STEPS.indexOf(current);
  const stepLabel = (item: CreateAppStep) => t(`createApp.step.${item}`);
  return (
    <Stack gap="xl">
      <Title order={1}>{t('page.createApp')}</Title>
      {progress >= 0 && (
        <div>
          {/* On a phone the three labels do not fit in a row: the current one is written below instead. */}
          <Stepper active={progress} size="sm" allowNextStepsSelect={false}>
            {PROGRESS_STEPS.map((item) => (
              <Stepper.Step
                key={item}
                label={compact ? undefined : stepLabel(item)}
                aria-label={stepLabel(item)}
              />
            ))}
          </Stepper>
          {compact && (
            <Text size="sm" fw={600} mt="xs" ta="center">
              {t('createApp.progress', {
                step: progress + 1,
                total: PROGRESS_STEPS.length,
                label: stepLabel(current),
              })}
            </Text>
          )}
        </div>
      )}
      {current === 'select-implementation' ? (
        <SelectImplementationStep sub={sub} />
      ) : (
        <ApplicationStep step={current} sub={sub} />
      )}
    </Stack>
  );
}
