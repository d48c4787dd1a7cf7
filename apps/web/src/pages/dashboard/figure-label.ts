/**
 * A dashboard figure's label: the overline's line height (2.66, meant for one line) left a gap inside labels that
 * wrap, such as "Einsatzbereite / Dateien" beside the icon.
 */
export const figureLabelSx = { display: 'block', lineHeight: 1.5, mb: 1 } as const;
