import { Group, MultiSelect, Radio, Select, Stack } from '@mantine/core';
import { isScopableRole, type ApplicationScope, type RoleId } from '@portal/contracts';
import { useMemo } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInAccount } from '../../../lib/account';
import { fieldError } from '../../../lib/form-errors';
import { useApplications } from '../../../api/applications/list-applications';
import { useRoleName } from '../api/list-roles';
import type { AccessFormFields } from '../../../lib/application-access';

interface RoleAndAccessFieldsProps {
  roleIds: readonly RoleId[];
  /** One's own role cannot be changed (§5), nor then one's access. */
  locked?: boolean;
  /** Applications the member is already limited to: listed even when they are no longer active. */
  currentScopes?: readonly ApplicationScope[];
  /** The fields' labels where they are not the member's own (the default of new SSO members). */
  labels?: { role: string; access: string };
}

/**
 * The role select and, for moderator, developer and analyst, the application access of the invite
 * and edit forms and of the single sign-on defaults (inside their FormProvider). Choosing a role
 * that cannot be limited forces all (§4).
 */
export function RoleAndAccessFields({
  roleIds,
  locked = false,
  currentScopes = [],
  labels,
}: RoleAndAccessFieldsProps) {
  const { t } = useTranslation();
  const roleName = useRoleName();
  const { control, watch, setValue } = useFormContext<AccessFormFields>();
  const roleId = watch('roleId');
  return (
    <>
      <Controller
        control={control}
        name="roleId"
        render={({ field, fieldState }) => (
          <Select
            label={labels?.role ?? t('members.field.role')}
            placeholder={t('members.field.rolePlaceholder')}
            data={roleIds.map((id) => ({ value: id, label: roleName(id) }))}
            value={field.value || null}
            onChange={(chosen) => {
              field.onChange(chosen ?? '');
              if (chosen && !isScopableRole(chosen)) setValue('access', 'all');
            }}
            onBlur={field.onBlur}
            error={fieldError(fieldState.error)}
            disabled={locked}
            allowDeselect={false}
            required
          />
        )}
      />
      {!locked && isScopableRole(roleId) && (
        <Stack gap="xs">
          <Controller
            control={control}
            name="access"
            render={({ field }) => (
              <Radio.Group
                label={labels?.access ?? t('members.field.access')}
                value={field.value}
                onChange={(value) => field.onChange(value === 'selected' ? 'selected' : 'all')}
              >
                <Group mt="xs">
                  <Radio value="all" label={t('members.access.all')} />
                  <Radio value="selected" label={t('members.access.selected')} />
                </Group>
              </Radio.Group>
            )}
          />
          {watch('access') === 'selected' && (
            <Controller
              control={control}
              name="applicationIds"
              render={({ field, fieldState }) => (
                <ApplicationSelect
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldError(fieldState.error)}
                  currentScopes={currentScopes}
                />
              )}
            />
          )}
        </Stack>
      )}
    </>
  );
}

interface ApplicationSelectProps {
  value: string[];
  onChange: (applicationIds: string[]) => void;
  error: string | undefined;
  currentScopes: readonly ApplicationScope[];
}

/** Only active applications are offered (§4). */
function ApplicationSelect({ value, onChange, error, currentScopes }: ApplicationSelectProps) {
  const { t } = useTranslation();
  const { applicationLimit } = useSignedInAccount();
  const apps = useApplications(applicationLimit);
  const options = useMemo(() => {
    const active = (apps.data?.data ?? [])
      .filter((app) => app.state === 'active')
      .map((app) => ({ value: app.applicationId, label: app.name }));
    const offered = new Set(active.map((option) => option.value));
    const kept = currentScopes
      .filter((scope) => !offered.has(scope.id))
      .map((scope) => ({ value: scope.id, label: scope.name }));
    return [...active, ...kept];
  }, [apps.data, currentScopes]);

  return (
    <MultiSelect
      label={t('members.field.applications')}
      placeholder={t('members.field.applicationsPlaceholder')}
      data={options}
      value={value}
      onChange={onChange}
      error={error ?? (apps.isError ? t('members.access.loadError') : undefined)}
      nothingFoundMessage={t('members.access.noApplications')}
      searchable
      hidePickedOptions
    />
  );
}
