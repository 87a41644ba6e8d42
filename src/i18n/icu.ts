import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The ICU MessageFormat runtime (intl-messageformat), loaded as a lazy chunk with the first
 * non-English catalogue, so English pages never fetch it. Plural categories come from the browser's
 * `Intl.PluralRules` (Arabic: zero, one, two, few, many, other), numbers from `Intl.NumberFormat`.
 */

/** Formats ICU messages for one locale, each message parsed once. */
export interface IcuFormatter {
  /** `message` (ICU MessageFormat) with `values` substituted, in the formatter's locale. */
  format(message: string, values?: Record<string, string | number>): string;
}

/** A formatter for `locale` that caches each parsed message. */
export function createIcuFormatter(locale: string): IcuFormatter {
  const cache = new Map<string, IntlMessageFormat>();
  return {
    format(message, values) {
      let f = cache.get(message);
      if (!f) {
        f = new IntlMessageFormat(message, locale);
        cache.set(message, f);
      }
      return String(f.format(values));
    },
  };
}
