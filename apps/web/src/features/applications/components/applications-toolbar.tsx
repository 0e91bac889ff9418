import { Group, TextInput } from '@mantine/core';
import { PLAN_KEYS, REGION_KEYS, REGIONS, type PlanKey, type RegionKey } from '@portal/contracts';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { FilterSelectProps } from './filter-select';

interface ApplicationsToolbarProps {
  search: string;
  plans: PlanKey[];
  regions: RegionKey[];
  onSearchChange: (value: string) => void;
  onPlansChange: (value: PlanKey[]) => void;
  onRegionsChange: (value: RegionKey[]) => void;
}

// Each filter is a Mantine combobox with a popover (and Floating UI): they load after the page,
// which shows a read-only field with the same label meanwhile.
// React.lazy drops the component's type parameter; the loaded component keeps it.
const FilterSelect = lazy(
  () => import('./filter-select'),
) as unknown as typeof import('./filter-select').default;

function Filter<T extends string>(props: FilterSelectProps<T>) {
  const { t } = useTranslation();
  const placeholder = (
    <TextInput
      label={props.label}
      placeholder={t('apps.filter.any')}
      readOnly
      style={{ flex: '1 1 180px' }}
    />
  );
  return (
    <Suspense fallback={placeholder}>
      <FilterSelect {...props} />
    </Suspense>
  );
}

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
      <Filter
        label={t('apps.filter.plan')}
        options={planOptions}
        value={props.plans}
        onChange={props.onPlansChange}
      />
      <Filter
        label={t('apps.filter.region')}
        options={REGION_OPTIONS}
        value={props.regions}
        onChange={props.onRegionsChange}
      />
    </Group>
  );
}
