import type { HTMLAttributes, ReactNode } from 'react';
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
export function Text({
  children,
  small,
  centered,
  end,
}: {
  children: ReactNode;
  small?: boolean;
  centered?: boolean;
  end?: boolean;
}) {
  return (
    <p
      className={classNames(
        classes.text,
        small && classes.small,
        centered && classes.centered,
        end && classes.end,
      )}
    >
      {children}
    </p>
  );
}

/** The page's heading in the signed-in frame (Mantine's h1: 34 px, bold). */
export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 className={classes.pageTitle}>{children}</h1>;
}

/** A bordered white box (Mantine's Card "withBorder", padding "lg") holding one thing of a list. */
export function Card(article: Omit<HTMLAttributes<HTMLElement>, 'className'>) {
  return <article className={classes.card} {...article} />;
}

export type BadgeColor = 'green' | 'orange' | 'gray';

/** A short uppercase state tag on a light tint of its colour. */
export function Badge({ color, children }: { color: BadgeColor; children: ReactNode }) {
  return (
    <span className={classes.badge} data-color={color}>
      {children}
    </span>
  );
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
