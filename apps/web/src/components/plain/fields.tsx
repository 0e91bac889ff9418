import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
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
  /**
   * Takes what was typed into the field on a server-rendered page before its script took the page
   * over (decision 045), called once then when that differs from `value`. A field without it takes
   * no typing until then: the text would be on screen but not in its owner's state, and React would
   * write the state's value over it at the next render.
   */
  onTypedBeforeTakeOver?: (value: string) => void;
}

/** A labelled text input with its hint and message. */
export function TextField({
  label,
  description,
  error,
  rightSection,
  leftSection,
  onTypedBeforeTakeOver,
  id,
  ...input
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const awaitingScript = !useHydrated() && !onTypedBeforeTakeOver;
  const inputElement = useRef<HTMLInputElement>(null);
  const { value } = input;
  // Once, after the take-over (or the first render of a page the browser draws alone, where the two
  // are equal): React keeps on screen what was typed before, but not in the state behind the field.
  const typedBeforeTakeOver = useRef(onTypedBeforeTakeOver);
  const valueAtTakeOver = useRef(value);
  useEffect(() => {
    const typed = inputElement.current?.value;
    if (typed !== undefined && typed !== String(valueAtTakeOver.current ?? ''))
      typedBeforeTakeOver.current?.(typed);
  }, []);
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
          ref={inputElement}
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
