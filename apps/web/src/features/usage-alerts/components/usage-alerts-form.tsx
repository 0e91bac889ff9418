import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  isValidEmail,
  MAX_USAGE_ALERT_RECIPIENTS,
  MAX_USAGE_ALERTS,
  type UsageAlertSettings,
  type UsageAlertSettingsResponse,
} from '@portal/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { StatusAlert } from '../../../components/status-alert';
import { ValidatedTagsInput } from '../../../components/validated-tags-input';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { showToast } from '../../../lib/toasts';
import { useUpdateUsageAlertSettings } from '../api/update-usage-alert-settings';
import {
  alertKindsFor,
  formValuesOf,
  recipientTagsFrom,
  usageAlertsFieldErrors,
  usageAlertsFormSchema,
  type UsageAlertsFormValues,
} from '../usage-alerts-form-rules';

/**
 * The super-admin's form: rows of a kind (the contract's) and a value in its unit, the extra
 * recipients, saved as a whole. A refusal shows under the field the server names, with the values
 * kept as typed.
 */
export function UsageAlertsForm({
  settings,
  onDone,
}: {
  settings: UsageAlertSettingsResponse;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateUsageAlertSettings();
  const [failure, setFailure] = useState<string | null>(null);
  const kinds = alertKindsFor(settings.contractType);
  const kindOptions = useMemo(
    () => kinds.map((kind) => ({ value: kind, label: t(`usageAlerts.kind.${kind}`) })),
    [kinds, t],
  );
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UsageAlertsFormValues, unknown, UsageAlertSettings>({
    resolver: zodResolver(usageAlertsFormSchema(settings.contractType)),
    defaultValues: formValuesOf(settings),
  });
  const rows = useFieldArray({ control, name: 'alerts' });
  // Each value's unit follows its row's kind as it is changed.
  const rowKinds = useWatch({ control, name: 'alerts' });

  const save = handleSubmit((request) => {
    setFailure(null);
    update.mutate(request, {
      onSuccess: () => {
        showToast({ color: 'green', message: t('usageAlerts.form.saved') });
        onDone();
      },
      onError: (error) => {
        const placed = usageAlertsFieldErrors(error);
        placed.forEach(({ field, message }, index) =>
          setError(field, { message }, { shouldFocus: index === 0 }),
        );
        if (placed.length === 0) setFailure(submitErrorText(error));
      },
    });
  });

  return (
    <form onSubmit={save} noValidate aria-label={t('usageAlerts.form.label')}>
      <Stack gap="md">
        {rows.fields.map((row, index) => {
          const number = index + 1;
          return (
            <Group key={row.id} align="flex-start" gap="sm" wrap="nowrap">
              <Group align="flex-start" gap="sm" style={{ flex: 1 }}>
                <Controller
                  control={control}
                  name={`alerts.${index}.kind`}
                  render={({ field }) => (
                    <Select
                      label={t('usageAlerts.form.kind', { number })}
                      data={kindOptions}
                      allowDeselect={false}
                      name={field.name}
                      ref={field.ref}
                      value={field.value}
                      onChange={(kind) => field.onChange(kind ?? field.value)}
                      onBlur={field.onBlur}
                      error={fieldError(errors.alerts?.[index]?.kind)}
                      style={{ flex: '1 1 200px' }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`alerts.${index}.value`}
                  render={({ field }) => (
                    <TextInput
                      label={t('usageAlerts.form.value', { number })}
                      inputMode="decimal"
                      autoComplete="off"
                      rightSection={
                        <Text size="sm" c="dimmed" aria-hidden>
                          {t(`usageAlerts.unit.${rowKinds[index]?.kind ?? row.kind}`)}
                        </Text>
                      }
                      rightSectionWidth={48}
                      name={field.name}
                      ref={field.ref}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={fieldError(errors.alerts?.[index]?.value)}
                      style={{ flex: '1 1 160px' }}
                    />
                  )}
                />
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                // Level with the inputs, under their labels.
                mt={26}
                aria-label={t('usageAlerts.form.remove', { number })}
                onClick={() => rows.remove(index)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={rows.fields.length >= MAX_USAGE_ALERTS}
            onClick={() => rows.append({ kind: kinds[0] ?? 'mau', value: '' }, { shouldFocus: true })}
          >
            {t('usageAlerts.form.add')}
          </Button>
          {rows.fields.length >= MAX_USAGE_ALERTS && (
            <Text size="sm" c="dimmed">
              {t('usageAlerts.form.max', { max: MAX_USAGE_ALERTS })}
            </Text>
          )}
        </Group>
        <Controller
          control={control}
          name="recipients"
          render={({ field }) => (
            <ValidatedTagsInput
              label={t('usageAlerts.form.recipients')}
              description={t('usageAlerts.form.recipientsHint', { max: MAX_USAGE_ALERT_RECIPIENTS })}
              placeholder={t('usageAlerts.form.recipientsPlaceholder')}
              value={field.value}
              onChange={(tags) => field.onChange(recipientTagsFrom(tags))}
              onBlur={field.onBlur}
              isValid={isValidEmail}
              invalidMessage={t('usageAlerts.error.email')}
              error={fieldError(errors.recipients)}
              removeLabel={(email) => t('usageAlerts.form.removeRecipient', { email })}
              maxTags={MAX_USAGE_ALERT_RECIPIENTS}
            />
          )}
        />
        <Text size="sm" c="dimmed">
          {t('usageAlerts.superAdminsTold')}
        </Text>
        <StatusAlert kind="fail" message={failure} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={update.isPending}>
            {t('usageAlerts.form.cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {t('usageAlerts.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
