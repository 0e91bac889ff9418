import { Alert, Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import type { ComponentProps, ReactNode } from 'react';
import { translate, useTranslation } from '../../../lib/i18n';

/** What a provider's form gives a name field: its value and events, held its own way, and any error. */
export type CardNameInput = Omit<ComponentProps<typeof TextInput>, 'label' | 'autoComplete'>;

/**
 * The frame of every provider's card form (§5 card form): the legend, a note when only test cards
 * are taken, why the gateway did not take the card, the provider's own card fields (number, expiry,
 * CVC), and the cardholder's first and last name.
 */
export function CardFieldset({
  disabled,
  testCards,
  refusal,
  firstName,
  lastName,
  children,
}: {
  disabled: boolean;
  testCards: boolean;
  /** A message key or the gateway's own words; null while there is none. */
  refusal: string | null;
  firstName: CardNameInput;
  lastName: CardNameInput;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset
      legend={t('payment.card.legend')}
      variant="unstyled"
      disabled={disabled}
      styles={{ legend: { fontWeight: 600, marginBottom: 'var(--mantine-spacing-xs)' } }}
    >
      <Stack gap="sm">
        {testCards && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} p="xs" role="note">
            {t('payment.card.sandbox')}
          </Alert>
        )}
        {refusal && (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
            {translate(refusal)}
          </Alert>
        )}
        {children}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label={t('payment.card.firstName')} autoComplete="cc-given-name" {...firstName} />
          <TextInput label={t('payment.card.lastName')} autoComplete="cc-family-name" {...lastName} />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
