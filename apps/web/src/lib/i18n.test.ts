import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { en } from '../locales/en';
import { enPayments } from '../locales/en-payments';
import { enSignedIn } from '../locales/en-signed-in';
import { addMessages, englishPluralOf, isTranslationKey, t, Trans, translate } from './i18n';

addMessages(enSignedIn);

describe('t', () => {
  it('returns the wording of a key and fills its placeholders', () => {
    expect(t('app.pageTitle', { page: 'Sign in' })).toBe('Sign in | Developer Portal');
    expect(t('common.networkError')).toBe(en['common.networkError']);
  });

  it('chooses the English plural form by count', () => {
    expect(t('members.access.count', { count: 1 })).toBe('1 application');
    expect(t('members.access.count', { count: 3 })).toBe('3 applications');
    expect(t('members.access.count', { count: 0 })).toBe('0 applications');
  });

  it("chooses the plural category Intl's English rules choose", () => {
    const intl = new Intl.PluralRules('en');
    const counts = [-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 11, 21, 101, 1_000_000];
    for (let count = 0; count <= 1000; count += 1) counts.push(count);
    for (const count of counts) expect(englishPluralOf(count), String(count)).toBe(intl.select(count));
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(t('app.pageTitle')).toBe('{{page}} | Developer Portal');
  });
});

describe('translate', () => {
  it('translates message keys and passes a server text through', () => {
    expect(translate('validation.email.invalid')).toBe(en['validation.email.invalid']);
    expect(translate('Card declined by the issuer')).toBe('Card declined by the issuer');
    expect(isTranslationKey('members.access.count')).toBe(true);
    expect(isTranslationKey('members.access')).toBe(false);
  });
});

describe('Trans', () => {
  const render = (email: string) =>
    renderToStaticMarkup(
      createElement(Trans, {
        i18nKey: 'passwordReset.sent',
        values: { email },
        components: { strong: createElement('strong') },
      }),
    );

  it('renders the tagged parts as the given elements with the values filled in', () => {
    expect(render('ada@example.com')).toBe(
      'If an account exists for <strong>ada@example.com</strong>, we sent it a link to choose a new password.',
    );
  });

  it('never reads a value as markup', () => {
    expect(render('<strong>x</strong>@example.com')).toContain(
      '<strong>&lt;strong&gt;x&lt;/strong&gt;@example.com</strong>',
    );
  });
});

describe('the payment pages wording', () => {
  it('uses keys of its own, which no other wording file has', () => {
    const elsewhere = new Set([...Object.keys(en), ...Object.keys(enSignedIn)]);
    expect(Object.keys(enPayments).filter((key) => elsewhere.has(key))).toEqual([]);
  });
});
