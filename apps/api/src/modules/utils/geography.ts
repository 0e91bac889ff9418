import { NO_STATE_CODE, type Country, type Subdivision } from '@portal/contracts';
import { allCountries } from 'country-region-data';

// ISO 3166-1 countries with their ISO 3166-2 subdivisions, from the maintained country-region-data package.
const subdivisionsByCountry = new Map<string, Subdivision[]>(
  allCountries.map(([, code, regions]) => [code, regions.map(([name, subdivisionCode]) => ({ name, code: subdivisionCode ?? name }))]),
);

export const countries: Country[] = allCountries
  .map(([label, value]) => ({ label, value }))
  .sort((a, b) => a.label.localeCompare(b.label));

export function isKnownCountry(code: string): boolean {
  return subdivisionsByCountry.has(code);
}

export function subdivisionsOf(countryCode: string): Subdivision[] | undefined {
  return subdivisionsByCountry.get(countryCode.toUpperCase());
}

/** A state is valid when the country lists it, or is the "no state" value for a country without any. */
export function isKnownSubdivision(countryCode: string, state: string): boolean {
  const subdivisions = subdivisionsOf(countryCode);
  if (!subdivisions) return false;
  if (subdivisions.length === 0) return state === NO_STATE_CODE;
  return subdivisions.some((s) => s.code === state);
}
