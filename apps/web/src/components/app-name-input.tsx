import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { APP_NAME_MAX_LENGTH } from '@portal/contracts';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { useTranslation } from '../lib/i18n';
import { appNameLength, clampAppName, pasteIntoAppName } from '../lib/app-name';

interface AppNameInputProps extends Omit<
  TextInputProps,
  'value' | 'onChange' | 'onKeyDown' | 'onPaste' | 'rightSection'
> {
  value: string;
  onChange: (value: string) => void;
}

/**
 * §5 application name: a live counter, and input beyond 64 characters blocked on key press,
 * change and paste (the change clamp catches what the other two cannot see, such as autofill or IME).
 */
export function AppNameInput({ value, onChange, ...props }: AppNameInputProps) {
  const { t } = useTranslation();
  const length = appNameLength(value);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const { selectionStart, selectionEnd } = event.currentTarget;
    const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (printable && length >= APP_NAME_MAX_LENGTH && selectionStart === selectionEnd) event.preventDefault();
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? value.length;
    const end = input.selectionEnd ?? value.length;
    const next = pasteIntoAppName(value, start, end, event.clipboardData.getData('text'));
    onChange(next);
    // The cursor goes after what was pasted, as it would have with the browser's own paste.
    const cursor = next.length - (value.length - end);
    requestAnimationFrame(() => input.setSelectionRange(cursor, cursor));
  };

  return (
    <TextInput
      {...props}
      value={value}
      onChange={(event) => onChange(clampAppName(event.currentTarget.value))}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      rightSectionWidth={64}
      rightSection={
        <Text size="xs" c="dimmed">
          {t('appName.counter', { length, max: APP_NAME_MAX_LENGTH })}
        </Text>
      }
    />
  );
}
