import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Size units in steps of 1024, with the locale key that names each. */
const SIZE_UNITS = ['kilobytes', 'megabytes', 'gigabytes'] as const;

/** Sizes, dates, durations and shares in the interface language. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return useMemo(() => {
    const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const oneDecimal = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    const dateTime = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
    const precise = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'medium' });
    const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
    const seconds = new Intl.NumberFormat(lang, {
      style: 'unit',
      unit: 'second',
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    });
    const wholeSeconds = new Intl.NumberFormat(lang, { style: 'unit', unit: 'second', unitDisplay: 'short' });
    const minutes = new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
    let languages: Intl.DisplayNames | null = null;
    try {
      languages = new Intl.DisplayNames([lang], { type: 'language' });
    } catch {
      languages = null;
    }
    return {
      /** A count, grouped as the language groups digits ("5.120" in German). */
      number: (value: number) => whole.format(value),
      /**
       * A size in the largest unit that leaves at least 1 (KB, MB, GB; at 1,000 of a unit the next one), one decimal
       * below 10: "2.5 KB", "512 KB", "1.5 MB", "5 GB".
       */
      size: (bytes: number) => {
        let value = Math.max(0, bytes) / 1024;
        let unit = 0;
        while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
          value /= 1024;
          unit++;
        }
        const digits = value < 10 ? oneDecimal : whole;
        return t(`common.${SIZE_UNITS[unit]}`, { value: digits.format(value) });
      },
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** With seconds, for the times of processing steps. */
      preciseDateTime: (iso: string) => precise.format(new Date(iso)),
      /** A share of 0–100 as a percentage, e.g. "45 %". */
      percent: (value: number) => percent.format(value / 100),
      /** Milliseconds as seconds, or minutes and seconds from one minute on. */
      duration: (ms: number) => {
        const s = Math.max(0, ms) / 1000;
        if (s < 60) return seconds.format(s);
        const m = Math.floor(s / 60);
        return `${minutes.format(m)} ${wholeSeconds.format(Math.round(s - m * 60))}`;
      },
      /** A language code (e.g. "de") by its name in the interface language. */
      language: (code: string) => {
        try {
          return languages?.of(code) ?? code;
        } catch {
          return code;
        }
      },
    };
  }, [t, lang]);
}
