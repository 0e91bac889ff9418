import { PLAN_KEYS, REGION_KEYS, REGIONS, type PlanKey, type RegionKey } from '@portal/contracts';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { TextField } from '../../../components/plain/fields';
import { useTranslation } from '../../../lib/i18n';
import { tourAnchor } from '../../../lib/tour-anchors';
import type { FilterSelectProps } from './filter-select';
import classes from './applications.module.css';

interface ApplicationsToolbarProps {
  search: string;
  plans: PlanKey[];
  regions: RegionKey[];
  onSearchChange: (value: string) => void;
  onPlansChange: (value: PlanKey[]) => void;
  onRegionsChange: (value: RegionKey[]) => void;
}

// Each filter is a Mantine combobox with a popover (and Floating UI): it loads when the user first
// opens the field (a click, or Enter, Space or an arrow key), which until then is a plain one with
// the same label. Not on focus: the click that focused it would land on the loaded filter and
// close the list it opened with.
// React.lazy drops the component's type parameter; the loaded component keeps it.
const FilterSelect = lazy(
  () => import('./filter-select'),
) as unknown as typeof import('./filter-select').default;

const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

function Filter<T extends string>(props: FilterSelectProps<T>) {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const placeholder = (
    <div className={classes.filter}>
      <TextField
        label={props.label}
        placeholder={t('apps.filter.any')}
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={false}
        readOnly
        onClick={() => setUsed(true)}
        onKeyDown={(event) => {
          if (!OPENING_KEYS.has(event.key)) return;
          event.preventDefault();
          setUsed(true);
        }}
      />
    </div>
  );
  if (!used) return placeholder;
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
    <div className={classes.toolbar} {...tourAnchor('application-search')}>
      <div className={classes.search}>
        <TextField
          label={t('apps.search.label')}
          placeholder={t('apps.search.placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={props.search}
          onChange={(event) => props.onSearchChange(event.currentTarget.value)}
        />
      </div>
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
    </div>
  );
}
