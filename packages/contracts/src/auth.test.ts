import { describe, expect, it } from 'vitest';
import {
  BackupCodeFormSchema,
  PasswordRenewFormSchema,
  SignInRequestSchema,
  SignUpRequestSchema,
  SsoDomainFormSchema,
  strongPasswordField,
  TotpCodeFormSchema,
} from './auth.ts';
import {
  domainOrParentMatches,
  emailDomainOf,
  isNamedFreeMailAddress,
  isNamedFreeMailDomain,
  meetsPasswordPolicy,
} from './rules.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);

describe('sign-in form', () => {
  it('trims the email and accepts a 6-character password', () => {
    const parsed = SignInRequestSchema.parse({ email: '  ann@acme.io ', password: 'abcdef' });
    expect(parsed.email).toBe('ann@acme.io');
  });

  it('requires an email in email format and a password of at least 6', () => {
    expect(messagesOf(SignInRequestSchema.safeParse({ email: '', password: '' }))).toEqual(
      expect.arrayContaining(['validation.email.required', 'validation.password.required']),
    );
    expect(messagesOf(SignInRequestSchema.safeParse({ email: 'ann@', password: 'abcde' }))).toEqual([
      'validation.email.invalid',
      'validation.password.min',
    ]);
  });
});

describe('sign-up form', () => {
  it.each([
    'gmail.com',
    'yahoo.co.uk',
    'hotmail.fr',
    'outlook.com',
    'icloud.com',
    'aol.com',
    'protonmail.ch',
  ])('refuses the free-mail domain %s', (domain) => {
    expect(isNamedFreeMailAddress(`someone@${domain}`)).toBe(true);
    expect(
      messagesOf(SignUpRequestSchema.safeParse({ email: `someone@${domain}`, password: 'Str0ng!Passw0rd' })),
    ).toEqual(['signupForm.email.validation.corporate.lambda.error']);
  });

  it('accepts corporate domains that merely contain a free-mail name', () => {
    expect(isNamedFreeMailAddress('ann@outlook-consulting.com')).toBe(false);
    expect(SignUpRequestSchema.safeParse({ email: 'ann@acme.io', password: 'Str0ng!Passw0rd' }).success).toBe(
      true,
    );
  });

  it.each([
    'outlook.acme.com',
    'gmail.acme.io',
    'yahoo.acme.co',
    'mail.outlook.acme.com',
    'gmail-consulting.com',
  ])('accepts %s: a provider name as a company subdomain is not the provider', (domain) => {
    expect(isNamedFreeMailAddress(`ann@${domain}`)).toBe(false);
    expect(
      SignUpRequestSchema.safeParse({ email: `ann@${domain}`, password: 'Str0ng!Passw0rd' }).success,
    ).toBe(true);
  });

  it.each(['yahoo.co.jp', 'hotmail.com.br', 'outlook.de', 'mail.gmail.com', 'eu.mail.yahoo.co.uk'])(
    'refuses %s: a provider domain of the seven, or an address under one',
    (domain) => {
      expect(isNamedFreeMailAddress(`someone@${domain}`)).toBe(true);
    },
  );

  it('reads the domain whatever its case, spaces and trailing dot', () => {
    expect(isNamedFreeMailAddress('  Someone@Mail.GMAIL.com ')).toBe(true);
    expect(isNamedFreeMailDomain('GMAIL.COM.')).toBe(true);
    expect(isNamedFreeMailDomain('outlook.acme.com.')).toBe(false);
  });

  it('leaves the rest of the free-mail list to the server: proton.me passes the form', () => {
    expect(isNamedFreeMailAddress('someone@proton.me')).toBe(false);
  });

  it.each([
    ['Sh0rt!pass', 'signupForm.password.validation.length'],
    ['NOLOWERCASE123!', 'signupForm.password.validation.lower'],
    ['nouppercase123!', 'signupForm.password.validation.caps'],
    ['NoDigitsHere!!', 'signupForm.password.validation.numbers'],
    ['NoSpecial12345', 'signupForm.password.validation.special'],
  ])('gives %s its own message', (password, message) => {
    expect(messagesOf(SignUpRequestSchema.safeParse({ email: 'ann@acme.io', password }))).toEqual([message]);
    expect(meetsPasswordPolicy(password)).toBe(false);
  });

  it.each(['', 'Sh0rt!pass', 'NoSpecial12345', 'Str0ng!Passw0rd', 'ÄÖÜäöü123456!x', 'aaaaaaaaaaA1 '])(
    'the plain policy check agrees with the schema for "%s"',
    (password) => {
      expect(meetsPasswordPolicy(password)).toBe(strongPasswordField.safeParse(password).success);
    },
  );

  it('reports every missing rule at once for an empty password', () => {
    expect(messagesOf(SignUpRequestSchema.safeParse({ email: 'ann@acme.io', password: '' }))).toEqual(
      expect.arrayContaining([
        'validation.password.required',
        'signupForm.password.validation.length',
        'signupForm.password.validation.lower',
      ]),
    );
  });
});

describe('password renew form', () => {
  it('requires a confirmation equal to the new password', () => {
    expect(
      messagesOf(PasswordRenewFormSchema.safeParse({ password: 'abcdef', confirmPassword: 'abcdeg' })),
    ).toEqual(['validation.password.mismatch']);
    expect(PasswordRenewFormSchema.safeParse({ password: 'abcdef', confirmPassword: 'abcdef' }).success).toBe(
      true,
    );
  });
});

describe('SSO organisation domain', () => {
  it('allows letters, digits and dashes up to 32 characters', () => {
    expect(SsoDomainFormSchema.safeParse({ domain: 'acme-corp-2' }).success).toBe(true);
    expect(SsoDomainFormSchema.safeParse({ domain: 'acme.corp' }).success).toBe(false);
    expect(SsoDomainFormSchema.safeParse({ domain: 'a'.repeat(33) }).success).toBe(false);
    expect(SsoDomainFormSchema.safeParse({ domain: '' }).success).toBe(false);
  });
});

describe('second-factor code forms', () => {
  it('take six digits from the authenticator app, spaces ignored', () => {
    expect(TotpCodeFormSchema.parse({ code: ' 123 456 ' })).toEqual({ code: '123456' });
    for (const code of ['', '12345', '1234567', '12345a'])
      expect(messagesOf(TotpCodeFormSchema.safeParse({ code }))).toEqual(['validation.totpCode.format']);
  });

  it('take a backup code as typed, trimmed', () => {
    expect(BackupCodeFormSchema.parse({ code: ' AbCdE-12345 ' })).toEqual({ code: 'AbCdE-12345' });
    expect(messagesOf(BackupCodeFormSchema.safeParse({ code: '  ' }))).toEqual([
      'validation.backupCode.required',
    ]);
  });
});

describe('domain matching', () => {
  it('tries the domain and each parent domain, normalised', () => {
    const tried: string[] = [];
    domainOrParentMatches(' Mail.Gmail.COM. ', (candidate) => {
      tried.push(candidate);
      return false;
    });
    expect(tried).toEqual(['mail.gmail.com', 'gmail.com', 'com']);
    expect(domainOrParentMatches('a.b.proton.me', (candidate) => candidate === 'proton.me')).toBe(true);
    expect(domainOrParentMatches('proton.me.acme.com', (candidate) => candidate === 'proton.me')).toBe(false);
  });

  it('takes the domain after the last @', () => {
    expect(emailDomainOf('  Ann@Acme.IO. ')).toBe('acme.io');
    expect(emailDomainOf('gmail.com@acme.io')).toBe('acme.io');
    expect(emailDomainOf('no-at-sign')).toBe('');
  });
});
