import { useId } from 'react';
import { chooseLang, useLang, useT } from '../i18n/i18n';
import { AUTONYM, LANGS, asLang } from '../i18n/lang';

/**
 * The header's language picker: English, Español, العربية, 中文 (each in its own language and
 * script, with its `lang`, so a screen reader pronounces it right). Choosing one remembers it and
 * writes `?lang=` into the address, so a share link opens in the same language.
 */
export function LanguagePicker() {
  const t = useT();
  const lang = useLang();
  const id = useId();
  return (
    <div className="theme-pick lang-pick">
      <label htmlFor={id}>{t('lang.label')}</label>
      <select id={id} value={lang} data-testid="lang-picker" onChange={(e) => {
        const next = asLang(e.currentTarget.value);
        if (next) void chooseLang(next);
      }}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {AUTONYM[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
