import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import classes from './pagination.module.css';

export type PageItem = number | 'gap';

/** The pages to offer: the first, the last and the current one with its neighbours; a gap of one page shows the page. */
export function pageItems(total: number, current: number): PageItem[] {
  const shown = [...new Set([1, current - 1, current, current + 1, total])]
    .filter((page) => page >= 1 && page <= total)
    .sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const page of shown) {
    if (page - previous === 2) items.push(previous + 1);
    else if (page - previous > 2) items.push('gap');
    items.push(page);
    previous = page;
  }
  return items;
}

interface PaginationProps {
  total: number;
  value: number;
  onChange: (page: number) => void;
  /** The navigation's accessible name. */
  label: string;
  pageLabel: (page: number) => string;
  previousLabel: string;
  nextLabel: string;
}

/** Previous, the pages and next, in a navigation landmark; the current page is marked. */
export function Pagination({
  total,
  value,
  onChange,
  label,
  pageLabel,
  previousLabel,
  nextLabel,
}: PaginationProps) {
  return (
    <nav aria-label={label} className={classes.pagination}>
      <button
        type="button"
        className={classes.page}
        aria-label={previousLabel}
        disabled={value <= 1}
        onClick={() => onChange(value - 1)}
      >
        <IconChevronLeft size={16} aria-hidden />
      </button>
      {pageItems(total, value).map((item, index) =>
        item === 'gap' ? (
          <span key={`gap-${index}`} className={classes.gap} aria-hidden>
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className={classes.page}
            aria-label={pageLabel(item)}
            aria-current={item === value ? 'page' : undefined}
            onClick={() => onChange(item)}
          >
            {item}
          </button>
        ),
      )}
      <button
        type="button"
        className={classes.page}
        aria-label={nextLabel}
        disabled={value >= total}
        onClick={() => onChange(value + 1)}
      >
        <IconChevronRight size={16} aria-hidden />
      </button>
    </nav>
  );
}
