import { Button, Checkbox, Group, Modal, Stack, Text, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import Markdown from 'react-markdown';
import { StatusAlert } from '../../../components/status-alert';
import type { TranslationKey } from '../../../lib/i18n';
import { LEGAL_DOCUMENTS, legalDocumentQueryOptions } from '../api/get-legal-document';
import { Loading } from '../../../components/page-loader';

const STEPS: { path: string; title: TranslationKey; accept: TranslationKey }[] = [
  { path: LEGAL_DOCUMENTS.privacyPolicy, title: 'legal.privacy.title', accept: 'legal.privacy.accept' },
  { path: LEGAL_DOCUMENTS.terms, title: 'legal.terms.title', accept: 'legal.terms.accept' },
];

interface LegalDialogProps {
  opened: boolean;
  confirming: boolean;
  error: string | null;
  onConfirm: () => void;
  /** Cancel, closing and "I do not accept" all mean the user does not go on. */
  onDecline: () => void;
}

/** §4: privacy policy, then terms; each must be ticked before Next or Confirm. */
export function LegalDialog({ opened, confirming, error, onConfirm, onDecline }: LegalDialogProps) {
  const { t } = useTranslation();
  const [stepIndex, setStepIndex] = useState(0);
  const [accepted, setAccepted] = useState<boolean[]>(STEPS.map(() => false));
  const step = STEPS[stepIndex] ?? STEPS[0]!;
  const isLast = stepIndex === STEPS.length - 1;
  const document = useQuery({ ...legalDocumentQueryOptions(step.path), enabled: opened });
  const stepAccepted = accepted[stepIndex] ?? false;

  return (
    <Modal
      opened={opened}
      onClose={onDecline}
      fullScreen
      title={t(step.title)}
      closeButtonProps={{ 'aria-label': t('legal.close') }}
    >
      <Stack maw={820} mx="auto" gap="lg">
        <Text size="sm" c="dimmed">
          {t('legal.step', { current: stepIndex + 1, total: STEPS.length })}
        </Text>
        {document.data === undefined ? (
          <Loading />
        ) : (
          <Typography>
            <Markdown>{document.data}</Markdown>
          </Typography>
        )}
        <Checkbox
          checked={stepAccepted}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setAccepted((current) => current.map((value, index) => (index === stepIndex ? checked : value)));
          }}
          label={t(step.accept)}
        />
        <StatusAlert kind="fail" message={error} />
        <Group justify="space-between">
          <Group gap="sm">
            <Button variant="default" onClick={onDecline}>
              {t('legal.cancel')}
            </Button>
            <Button variant="subtle" color="red" onClick={onDecline}>
              {t('legal.decline')}
            </Button>
          </Group>
          <Group gap="sm">
            {stepIndex > 0 && (
              <Button variant="default" onClick={() => setStepIndex(0)}>
                {t('legal.back')}
              </Button>
            )}
            {isLast ? (
              <Button disabled={!stepAccepted} loading={confirming} onClick={onConfirm}>
                {t('legal.confirm')}
              </Button>
            ) : (
              <Button disabled={!stepAccepted} onClick={() => setStepIndex(stepIndex + 1)}>
                {t('legal.next')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
