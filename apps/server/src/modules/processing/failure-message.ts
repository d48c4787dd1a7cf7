import { OCR_NOT_INSTALLED } from './extract/blocks.ts';

/**
 * The locale key of why a file failed: its code's message, but a file that needed OCR where none is installed says
 * how to install it.
 */
export const failureMessageKey = (code: string, detail: string | null) =>
  code === 'FILE_NO_TEXT' && detail === OCR_NOT_INSTALLED ? 'files.ocr.notInstalled' : `errors.${code}`;

/** Failure messages that name limits are shown without them where the limit is not at hand. */
export const FAILURE_VARS = { limitMb: '', freeMb: '' };
