import { describe, expect, it } from 'vitest';
import { homeDestination, loginPathFor, safeRedirectPath, withoutNumericPrefix } from './redirects';

describe('loginPathFor', () => {
  it('carries the original path and query in the redirect parameter', () => {
    expect(loginPathFor('/manage-members', '')).toBe('/login?redirect=%2Fmanage-members');
    expect(loginPathFor('/billing/asc', '?page=3&sortBy=lastCreated')).toBe(
      '/login?redirect=%2Fbilling%2Fasc%3Fpage%3D3%26sortBy%3DlastCreated',
    );
  });

  it('keeps a numeric prefix segment on the path', () => {
    expect(loginPathFor('/2/apps/asc', '')).toBe('/login?redirect=%2F2%2Fapps%2Fasc');
  });

  it('drops the region query parameter', () => {
    expect(loginPathFor('/create-app/asc', '?region=EU')).toBe('/login?redirect=%2Fcreate-app%2Fasc');
    expect(loginPathFor('/create-app/asc', '?region=EU&plan=max')).toBe(
      '/login?redirect=%2Fcreate-app%2Fasc%3Fplan%3Dmax',
    );
  });

  it('adds no redirect for the root path', () => {
    expect(loginPathFor('/', '')).toBe('/login');
    expect(loginPathFor('/', '?region=US')).toBe('/login');
  });
});

describe('safeRedirectPath', () => {
  it('accepts paths on this site', () => {
    expect(safeRedirectPath('/billing/asc?page=2#top')).toBe('/billing/asc?page=2#top');
    expect(safeRedirectPath('/2/apps/asc')).toBe('/2/apps/asc');
  });

  it('refuses anything that could leave the site', () => {
    for (const value of [
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'apps',
    ]) {
      expect(safeRedirectPath(value)).toBeNull();
    }
  });

  it('refuses a missing value', () => {
    expect(safeRedirectPath(null)).toBeNull();
    expect(safeRedirectPath('')).toBeNull();
  });
});

describe('homeDestination', () => {
  it('picks the first allowed destination in the route table order', () => {
    expect(homeDestination(['VIEW_BILLING', 'VIEW_APPLICATION'])).toEqual({
      kind: 'internal',
      to: '/apps/asc',
    });
    expect(homeDestination(['VIEW_MEMBER', 'VIEW_BILLING'])).toEqual({
      kind: 'internal',
      to: '/billing/asc',
    });
    expect(homeDestination(['VIEW_PLAN_DETAIL', 'VIEW_MEMBER'])).toEqual({
      kind: 'internal',
      to: '/manage-members',
    });
    expect(homeDestination(['VIEW_DASHBOARD', 'VIEW_PLAN_DETAIL'])).toEqual({
      kind: 'internal',
      to: '/subscription-licenses/asc',
    });
  });

  it('sends a dashboard-only user to the external dashboard', () => {
    expect(homeDestination(['VIEW_DASHBOARD'])).toEqual({ kind: 'dashboard' });
  });

  it('defaults to the application list', () => {
    expect(homeDestination([])).toEqual({ kind: 'internal', to: '/apps/asc' });
  });
});

describe('withoutNumericPrefix', () => {
  it('answers the path without its leading numeric segment', () => {
    expect(withoutNumericPrefix('/2/apps/asc')).toBe('/apps/asc');
    expect(withoutNumericPrefix('/15/billing/asc/000000042')).toBe('/billing/asc/000000042');
    expect(withoutNumericPrefix('/2')).toBe('/');
    expect(withoutNumericPrefix('/2/')).toBe('/');
  });

  it('answers null for a path without one', () => {
    expect(withoutNumericPrefix('/apps/asc')).toBeNull();
    expect(withoutNumericPrefix('/2a/apps')).toBeNull();
    expect(withoutNumericPrefix('/billing/asc/000000042')).toBeNull();
    expect(withoutNumericPrefix('/')).toBeNull();
  });
});
