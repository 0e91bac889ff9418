import { Fragment, type ReactElement, type ReactNode } from 'react';
import { en } from '../locales/en';
import type { enAuditLog } from '../locales/en-audit-log';
import type { enPayments } from '../locales/en-payments';
import type { enSignedIn } from '../locales/en-signed-in';
import type { enUsageAlerts } from '../locales/en-usage-alerts';

/**
 * The portal's wording, English only. A lookup with `{{name}}` interpolation and English plurals
 * (`key_one` / `key_other`, chosen by `count`) is all the pages need; this replaces i18next and
 * react-i18next, which cost every page about 18 kB of gzip JavaScript (decision 012).
 */
type Messages = typeof en & typeof enSignedIn & typeof enPayments & typeof enAuditLog & typeof enUsageAlerts;
type PluralBase<K> = K extends `${infer Base}_one` | `${infer Base}_other` ? Base : never;
type PluralKey = keyof Messages & (`${string}_one` | `${string}_other`);

export type TranslationKey = Exclude<keyof Messages, PluralKey> | PluralBase<keyof Messages>;
export type TranslationValues = Readonly<Record<string, string | number>>;

/**
 * English's plural category of a count, as Intl.PluralRules('en') gives it: making that object
 * loads the browser's locale data, a task of its own in every page's first script (decision 045).
 */
export const englishPluralOf = (count: number): 'one' | 'other' => (Math.abs(count) === 1 ? 'one' : 'other');
const messageTable: Record<string, string> = { ...en };

/** Adds the wording of pages that load later (the signed-in pages bring theirs). */
export function addMessages(messages: Readonly<Record<string, string>>): void {
  Object.assign(messageTable, messages);
}
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

export function isTranslationKey(value: string): value is TranslationKey {
  return Object.hasOwn(messageTable, value) || Object.hasOwn(messageTable, `${value}_other`);
}

/** The text with its `{{name}}` placeholders replaced by the values; one without a value stays. */
function fillPlaceholders(text: string, values: TranslationValues | undefined): string {
  return values
    ? text.replace(PLACEHOLDER, (placeholder, name: string) => String(values[name] ?? placeholder))
    : text;
}

/** The text of a message key with its `{{name}}` placeholders filled in. */
export function t(key: TranslationKey, values?: TranslationValues): string {
  const count = values?.count;
  const pluralKey = typeof count === 'number' ? `${key}_${englishPluralOf(count)}` : undefined;
  const template =
    (pluralKey && messageTable[pluralKey]) ?? messageTable[key] ?? messageTable[`${key}_other`] ?? key;
  return fillPlaceholders(template, values);
}

const translation = { t };

/** The translation function for components, shaped like react-i18next's hook. */
export function useTranslation(): typeof translation {
  return translation;
}

/** Text to show for a message key (validation and client errors) or for a server's own wording. */
export function translate(keyOrText: string): string {
  return isTranslationKey(keyOrText) ? t(keyOrText) : keyOrText;
}

const MARKUP = /<(\w+)>(.*?)<\/\1>/g;

/**
 * A message whose wording marks parts with tags (`<strong>{{email}}</strong>`): each tag becomes
 * the element given for it in `components`, holding the tagged text. Values are filled in after
 * the markup is read, so they are never read as markup.
 */
export function Trans({
  i18nKey,
  values,
  components,
}: {
  i18nKey: TranslationKey;
  values?: TranslationValues;
  components: Readonly<Record<string, ReactElement<{ children?: ReactNode }>>>;
}) {
  const template = t(i18nKey);
  const fill = (text: string) => fillPlaceholders(text, values);
  const parts: ReactNode[] = [];
  let position = 0;
  for (const match of template.matchAll(MARKUP)) {
    const [whole, tag, inner] = match as unknown as [string, string, string];
    parts.push(fill(template.slice(position, match.index)));
    const element = components[tag];
    parts.push(
      element ? (
        <element.type key={match.index} {...element.props}>
          {fill(inner)}
        </element.type>
      ) : (
        fill(whole)
      ),
    );
    position = match.index + whole.length;
  }
  parts.push(fill(template.slice(position)));
  return <Fragment>{parts}</Fragment>;
}
