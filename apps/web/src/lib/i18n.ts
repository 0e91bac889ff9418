import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';

export type TranslationKey = keyof typeof en;

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: en } },
  // Keys are flat strings such as "loginWithEmail.error.incorrectCredentials".
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function isTranslationKey(value: string): value is TranslationKey {
  return Object.hasOwn(en, value);
}

/** Text to show for a message key (validation and client errors) or for a server's own wording. */
export function translate(keyOrText: string): string {
  return isTranslationKey(keyOrText) ? i18n.t(keyOrText) : keyOrText;
}
