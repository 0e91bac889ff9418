import type { ButtonHTMLAttributes, ComponentPropsWithRef, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { classNames } from './layout';
import classes from './plain.module.css';

type ButtonVariant = 'filled' | 'default' | 'light';

interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'> {
  variant?: ButtonVariant;
  /** Shows a spinner and takes no clicks while the action it started runs. */
  loading?: boolean;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
}

export function Spinner({ large }: { large?: boolean }) {
  return <span className={classNames(classes.spinner, large && classes.pageSpinner)} aria-hidden />;
}

export function Button({
  variant = 'filled',
  loading = false,
  leftSection,
  rightSection,
  children,
  disabled,
  type = 'button',
  ...button
}: ButtonProps) {
  return (
    <button
      type={type}
      className={classNames(classes.button, classes[variant])}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...button}
    >
      {leftSection}
      {children}
      {rightSection}
      {loading && <Spinner />}
    </button>
  );
}

/** A link to a portal page that looks like a button. */
export function ButtonLink({
  variant = 'filled',
  leftSection,
  children,
  ...link
}: Omit<LinkProps, 'className'> & { variant?: ButtonVariant; leftSection?: ReactNode }) {
  return (
    <Link className={classNames(classes.button, classes[variant])} {...link}>
      {leftSection}
      {children}
    </Link>
  );
}

/** A text link to a portal page, or with `href`, a full page load. */
export function TextLink({
  small,
  ...link
}: ({ to: LinkProps['to']; href?: never } | { href: string; to?: never }) & {
  small?: boolean;
  children: ReactNode;
  state?: unknown;
}) {
  const className = classNames(classes.link, small && classes.small);
  if (link.href !== undefined)
    return (
      <a className={className} href={link.href}>
        {link.children}
      </a>
    );
  return (
    <Link className={className} to={link.to} state={link.state}>
      {link.children}
    </Link>
  );
}

/** An action in running text that looks like a link (resend a code). */
export function LinkButton({
  small,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'type'> & { small?: boolean }) {
  return (
    <button
      type="button"
      className={classNames(classes.link, classes.linkButton, small && classes.small)}
      {...button}
    />
  );
}

/** A small square button holding only an icon; `label` is its accessible name. */
export function IconButton({
  label,
  ...button
}: Omit<ComponentPropsWithRef<'button'>, 'className' | 'type' | 'aria-label'> & { label: string }) {
  return <button type="button" className={classes.iconButton} aria-label={label} {...button} />;
}
