import type { UsageAlertNotice } from '@portal/contracts';
import { useParams } from 'react-router';
import { TextLink } from '../../../components/plain/buttons';
import { Stack } from '../../../components/plain/layout';
import { AlertBox } from '../../../components/status-alert';
import { addMessages, useTranslation } from '../../../lib/i18n';
import { enUsageAlerts } from '../../../locales/en-usage-alerts';
import { noticeMessage, USAGE_ALERTS_SECTION_ID } from '../usage-alert-text';

addMessages(enUsageAlerts);

/**
 * One warning per notice, in a region named for them: they stay until the month ends or the
 * threshold is raised, so they are not announced as alerts. A low balance links to a top-up, the
 * others to the alerts' settings.
 */
export default function UsageAlertNoticeList({ notices }: { notices: readonly UsageAlertNotice[] }) {
  const { t } = useTranslation();
  const { sub = 'asc' } = useParams();
  return (
    <section aria-label={t('usageAlerts.notices')}>
      <Stack>
        {notices.map((notice) => {
          const { key, values } = noticeMessage(notice);
          return (
            <AlertBox key={notice.id} kind="warning">
              <span>{t(key, values)}</span>{' '}
              {notice.kind === 'low_balance' ? (
                <TextLink to={`/payment/${sub}/top-up`}>{t('usageAlerts.notice.topUp')}</TextLink>
              ) : (
                <TextLink to={`/subscription-licenses/${sub}#${USAGE_ALERTS_SECTION_ID}`}>
                  {t('usageAlerts.notice.settings')}
                </TextLink>
              )}
            </AlertBox>
          );
        })}
      </Stack>
    </section>
  );
}
