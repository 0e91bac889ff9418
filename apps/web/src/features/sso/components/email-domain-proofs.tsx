import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { SsoDomainCheckError, SsoEmailDomain } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ApiError, errorText } from '../../../lib/api-error';
import { formatDate, formatTime } from '../../../lib/dates';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { toastError } from '../../../lib/toasts';
import { SSO_SETTINGS_QUERY_KEY } from '../api/get-sso-settings';
import { useVerifySsoEmailDomain } from '../api/verify-sso-email-domain';
import { CopyableValue } from './copyable-value';

const CHECK_OUTCOME: Record<SsoDomainCheckError, TranslationKey> = {
  record_not_found: 'ssoSettings.domains.check.recordNotFound',
  record_mismatch: 'ssoSettings.domains.check.recordMismatch',
  verified_elsewhere: 'ssoSettings.domains.check.verifiedElsewhere',
  dns_unavailable: 'ssoSettings.domains.check.dnsUnavailable',
};

/**
 * Beyond the spec (issue 23): the saved email domains with their proof of ownership. A pending
 * domain shows the TXT record to add and a Verify button; only verified domains (and the allowed
 * addresses) let new people join through the identity provider.
 */
export function EmailDomainProofs({ domains }: { domains: readonly SsoEmailDomain[] }) {
  const { t } = useTranslation();
  const ruleId = useId();
  return (
    <Stack gap="xs">
      <Text size="sm" id={ruleId}>
        {t('ssoSettings.domains.joinRule')}
      </Text>
      {domains.length > 0 && (
        <Stack component="ul" gap="sm" m={0} p={0} aria-describedby={ruleId} style={{ listStyle: 'none' }}>
          {domains.map((domain) => (
            <EmailDomainProof key={domain.domain} proof={domain} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function EmailDomainProof({ proof }: { proof: SsoEmailDomain }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const verify = useVerifySsoEmailDomain();
  const nameId = useId();
  const { domain, status, record } = proof;
  const pending = status === 'pending';

  const runCheck = () =>
    verify.mutate(domain, {
      onError: (error) => {
        // Removed meanwhile (another tab, another super-admin): the page shows the list as it is.
        if (error instanceof ApiError && error.status === 404)
          void client.invalidateQueries({ queryKey: SSO_SETTINGS_QUERY_KEY });
        toastError(errorText(error));
      },
    });

  return (
    <Paper component="li" withBorder radius="sm" p="sm" aria-labelledby={nameId}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} id={nameId} style={{ overflowWrap: 'anywhere' }}>
            {domain}
          </Text>
          <Badge color={pending ? 'yellow' : 'green'} variant="light">
            {t(pending ? 'ssoSettings.domains.pending' : 'ssoSettings.domains.verified')}
          </Badge>
        </Group>
        {pending ? (
          <>
            <Text size="sm">{t('ssoSettings.domains.addRecord', { domain })}</Text>
            <CopyableValue label={t('ssoSettings.domains.recordName')} value={record.name} />
            <CopyableValue label={t('ssoSettings.domains.recordValue')} value={record.value} />
          </>
        ) : (
          <Text size="sm">{t('ssoSettings.domains.keepRecord')}</Text>
        )}
        <Group gap="sm" wrap="wrap" align="center">
          {pending && (
            <Button
              type="button"
              variant="default"
              size="xs"
              onClick={runCheck}
              loading={verify.isPending}
              aria-label={t('ssoSettings.domains.verifyDomain', { domain })}
            >
              {t('ssoSettings.domains.verify')}
            </Button>
          )}
          {/* Announced when a check ends: the outcome and when it was made. */}
          <Text size="sm" c="dimmed" role="status" style={{ flex: '1 1 14rem' }}>
            <CheckOutcome proof={proof} />
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

/** What the last check found, in words, and when; or that none has been made yet. */
function CheckOutcome({ proof }: { proof: SsoEmailDomain }) {
  const { t } = useTranslation();
  const { status, verifiedAt, checkedAt, checkError } = proof;
  const parts: string[] = [];
  if (status === 'verified' && verifiedAt)
    parts.push(t('ssoSettings.domains.verifiedOn', dateAndTime(verifiedAt)));
  if (checkError) parts.push(t(CHECK_OUTCOME[checkError]));
  // The check that verified the domain needs no second mention.
  if (checkedAt && checkedAt !== verifiedAt)
    parts.push(t('ssoSettings.domains.checkedAt', dateAndTime(checkedAt)));
  else if (status === 'pending') parts.push(t('ssoSettings.domains.notChecked'));
  return parts.join(' ');
}

const dateAndTime = (at: string) => ({ date: formatDate(at), time: formatTime(at) });
