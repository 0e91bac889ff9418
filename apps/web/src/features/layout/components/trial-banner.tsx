import { Group, Text } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInAccount } from '../../../lib/account';
import { trialBannerState, trialDaysLeft, type TrialBannerState } from '../../../lib/trial-banner';

const BANNER_COLORS: Record<Exclude<TrialBannerState, 'hidden'>, string> = {
  danger: 'red',
  warning: 'yellow',
  default: 'indigo',
};

export function TrialBanner() {
  const { t } = useTranslation();
  const { trialEndAt, havePaymentProfile } = useSignedInAccount();
  const now = new Date();
  const state = trialBannerState(trialEndAt, havePaymentProfile, now);
  if (!trialEndAt || state === 'hidden') return null;
  const color = BANNER_COLORS[state];
  return (
    <Group
      role="status"
      gap={6}
      wrap="nowrap"
      px="sm"
      py={6}
      bg={`${color}.0`}
      bd={`1px solid var(--mantine-color-${color}-3)`}
      bdrs="md"
      miw={0}
    >
      <IconClockHour4 size={18} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" fw={500} lineClamp={2}>
        {state === 'danger'
          ? t('layout.trial.ended')
          : t('layout.trial.daysLeft', { count: trialDaysLeft(trialEndAt, now) })}
      </Text>
    </Group>
  );
}
