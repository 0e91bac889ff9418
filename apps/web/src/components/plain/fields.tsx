import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useHydrated } from '../../lib/hydration';
import { useTranslation } from '../../lib/i18n';
import { classNames } from './layout';
import classes from './plain.module.css';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'className' | 'children'
> {
  label: string;
  /** A hint under the label. */
  description?: string;
  /** The field's message, shown under it and tied to it for screen readers. */
  error?: string;
  /** An action or hint inside the field's right end. */
  rightSection?: ReactNode;
  /** An icon inside the field's left end. */
  leftSection?: ReactNode;
}

/** A labelled text input with its hint and message. */
export function TextField({
  label,
  description,
  error,
  rightSection,
  leftSection,
  id,
  ...input
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  // On a server-rendered page the field takes no typing until its script has taken the page over:
  // what was typed before would be on screen but not in the form's state.
  const awaitingScript = !useHydrated();
  const descriptionId = description ? `${inputId}-description` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ');
  return (
    <div className={classes.field}>
      <label htmlFor={inputId} className={classes.label}>
        {label}
      </label>
      {description && (
        <p id={descriptionId} className={classes.description}>
          {description}
        </p>
      )}
      <div className={classes.control}>
        <input
          id={inputId}
          className={classNames(
            classes.input,
            Boolean(rightSection) && classes.withSection,
            Boolean(leftSection) && classes.withLeftSection,
          )}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...input}
          readOnly={awaitingScript || input.readOnly}
          data-awaiting-script={awaitingScript || undefined}
        />
        {leftSection && <div className={classNames(classes.section, classes.leftSection)}>{leftSection}</div>}
        {rightSection && <div className={classes.section}>{rightSection}</div>}
      </div>
      {error && (
        <p id={errorId} className={classes.error}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A password field whose text can be shown while typing. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'rightSection'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const Icon = visible ? IconEyeOff : IconEye;
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      rightSection={
        <button
          type="button"
          className={classes.iconButton}
          aria-label={t('auth.showPassword')}
          aria-pressed={visible}
          onClick={() => setVisible(!visible)}
        >
          <Icon size={18} aria-hidden />
        </button>
      }
    />
  );
}
