import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const MB = 1024 * 1024;

/** Sizes, dates, durations and shares in the interface language. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return useMemo(() => {
    const megabytes = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const kilobytes = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const fewKilobytes = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
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
      /** Bytes as megabytes with two decimals, e.g. "1.25 MB". */
      mb: (bytes: number) => t('common.megabytes', { value: megabytes.format(bytes / MB) }),
      /** A file's size: in KB below 1 MB (one decimal below 10 KB), else as `mb`, e.g. "512 KB", "1.25 MB". */
      fileSize: (bytes: number) => {
        if (bytes >= MB) return t('common.megabytes', { value: megabytes.format(bytes / MB) });
        const kb = bytes / 1024;
        return t('common.kilobytes', { value: (kb < 10 ? fewKilobytes : kilobytes).format(kb) });
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
