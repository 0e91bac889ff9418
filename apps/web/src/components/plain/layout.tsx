import type { ReactNode } from 'react';
import classes from './plain.module.css';

const classNames = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** Children one under the other, stretched to the width, 12 px apart. */
export function Stack({ children }: { children: ReactNode }) {
  return <div className={classes.stack}>{children}</div>;
}

/** Children side by side, wrapping, 16 px apart. */
export function Row({ children }: { children: ReactNode }) {
  return <div className={classes.row}>{children}</div>;
}

/** A paragraph, optionally small, centred or aligned to the end. */
export function Text({ children, small, centered, end }: { children: ReactNode; small?: boolean; centered?: boolean; end?: boolean }) {
  return <p className={classNames(classes.text, small && classes.small, centered && classes.centered, end && classes.end)}>{children}</p>;
}

/** A horizontal rule with a word in its middle ("or"). */
export function Divider({ label }: { label: string }) {
  return (
    <div className={classes.divider} role="separator">
      {label}
    </div>
  );
}

export { classNames };
