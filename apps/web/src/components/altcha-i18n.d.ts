// altcha 3 ships these two translations (they register "fr-fr" and "pt-pt") without their declarations; the ones it
// has are for "altcha/i18n/fr" and "altcha/i18n/pt", which hold no script.
declare module 'altcha/i18n/fr-fr';
declare module 'altcha/i18n/pt-pt';
