import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './sso.module.css';

export interface Detail {
  label: string;
  value: ReactNode;
  /** URLs, identifiers and fingerprints: monospace, broken anywhere. */
  code?: boolean;
}

/** Labelled values (a saved connection, what a test found) as a description list; long values wrap. */
export function DetailList({ items }: { items: readonly Detail[] }) {
  return (
    <dl className={classes.details}>
      {items.map(({ label, value, code = true }) => (
        <div key={label} className={classes.detail}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" className={code ? classes.code : undefined}>
            {value}
          </Text>
        </div>
      ))}
    </dl>
  );
}
