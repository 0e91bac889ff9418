import { MultiSelect } from '@mantine/core';
import { memo, type JSX } from 'react';
import { MantineShell } from '../../../components/mantine-shell';
import { useTranslation } from '../../../lib/i18n';
import classes from './applications.module.css';

export interface FilterSelectProps<T extends string> {
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
    <MantineShell>
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
        className={classes.filter}
        // It takes the place of the plain field the user just opened.
        autoFocus
        defaultDropdownOpened
      />
    </MantineShell>
  );
}) as <T extends string>(props: FilterSelectProps<T>) => JSX.Element;

export default FilterSelect;
