import { Group, MultiSelect, TextInput } from '@mantine/core';
import { PLAN_KEYS, REGION_KEYS, REGIONS, type PlanKey, type RegionKey } from '@portal/contracts';
import { IconSearch } from '@tabler/icons-react';
import { memo, useMemo, type JSX } from 'react';
import { useTranslation } from '../../../lib/i18n';

interface ApplicationsToolbarProps {
  search: string;
  plans: PlanKey[];
  regions: RegionKey[];
  onSearchChange: (value: string) => void;
  onPlansChange: (value: PlanKey[]) => void;
  onRegionsChange: (value: RegionKey[]) => void;
}

interface FilterSelectProps<T extends string> {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T[];
  onChange: (value: T[]) => void;
}

/**
 * Several values may be chosen; none chosen means any. Memoised (with stable options and
 * callbacks from the toolbar and the page): every search keystroke re-renders the toolbar, and
 * each MultiSelect is a combobox with a popover.
 */
const FilterSelect = memo(function FilterSelect<T extends string>({
  label,
  options,
  value,
  onChange,
}: FilterSelectProps<T>) {
  const { t } = useTranslation();
  return (
    <MultiSelect
      label={label}
      placeholder={value.length === 0 ? t('apps.filter.any') : undefined}
      data={options}
      value={value}
      // MultiSelect hands back plain strings; keep only those that are options.
      onChange={(next) =>
        onChange(options.filter((option) => next.includes(option.value)).map((option) => option.value))
      }
      clearable
      clearButtonProps={{ 'aria-label': t('apps.filter.clear') }}
      style={{ flex: '1 1 180px' }}
    />
  );
}) as <T extends string>(props: FilterSelectProps<T>) => JSX.Element;

const REGION_OPTIONS = REGION_KEYS.map((region) => ({ value: region, label: REGIONS[region].name }));

/** §2 search by name or ID, and plan and region filters. */
export function ApplicationsToolbar(props: ApplicationsToolbarProps) {
  const { t } = useTranslation();
  const planOptions = useMemo(
    () => PLAN_KEYS.map((plan) => ({ value: plan, label: t(`apps.plan.${plan}`) })),
    [t],
  );

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        label={t('apps.search.label')}
        placeholder={t('apps.search.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        type="search"
        value={props.search}
        onChange={(event) => props.onSearchChange(event.currentTarget.value)}
        style={{ flex: '1 1 240px' }}
      />
      <FilterSelect
        label={t('apps.filter.plan')}
        options={planOptions}
        value={props.plans}
        onChange={props.onPlansChange}
      />
      <FilterSelect
        label={t('apps.filter.region')}
        options={REGION_OPTIONS}
        value={props.regions}
        onChange={props.onRegionsChange}
      />
    </Group>
  );
}
