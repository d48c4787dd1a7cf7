/**
 * Deterministic synthetic text for the benchmarks: German (and some English) trade-business prose made from a
 * vocabulary of a few thousand words drawn with Zipf-like frequencies, so that full-text search meets realistic term
 * statistics (a few very frequent words, a long tail of rare ones, compounds and inflected forms that the German
 * stemmer folds together). The same seed always gives the same text.
 */

/** mulberry32: a small, fast, seedable PRNG; answers floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export const between = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

function shuffle<T>(r: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const words = (s: string) => s.trim().split(/\s+/);

const DE_FUNCTION = words(`
  der die das und in zu den von mit ist im für auf nicht sich des dem ein eine es bei wird auch an als nach wie
  aus werden oder noch nur so vor zum zur wenn einer einem einen dass über unter durch kann muss sind sollte
  bis dann hier alle sowie jedoch immer bereits etwa mindestens ohne gegen zwischen beim vom`);

const DE_NOUNS = words(`
  Heizung Anlage Pumpe Kessel Brenner Leitung Rohr Ventil Filter Druck Temperatur Wasser Speicher Regler Fühler
  Thermostat Heizkörper Fußboden Kreislauf Vorlauf Rücklauf Wärme Kälte Luft Abgas Schornstein Kamin Gas Öl Strom
  Zähler Sicherung Kabel Schalter Steckdose Leuchte Lampe Verteiler Klemme Schutz Erdung Spannung Leistung Motor
  Antrieb Steuerung Sensor Display Taste Menü Fehler Störung Meldung Wartung Inspektion Prüfung Reinigung Montage
  Demontage Einbau Ausbau Austausch Reparatur Ersatzteil Dichtung Schraube Mutter Flansch Muffe Bogen Winkel
  Kupfer Stahl Edelstahl Kunststoff Messing Gummi Dämmung Isolierung Wand Decke Boden Dach Fenster Tür Keller
  Raum Bad Küche Dusche Wanne Waschbecken Armatur Spülung Abfluss Siphon Zulauf Ablauf Kunde Auftrag Angebot
  Rechnung Termin Monteur Meister Geselle Lehrling Kollege Firma Betrieb Werkstatt Lager Fahrzeug Werkzeug
  Bohrer Säge Zange Hammer Messgerät Protokoll Bericht Formular Liste Tabelle Preis Kosten Stunde Woche Monat
  Jahr Garantie Gewährleistung Vorschrift Norm Richtlinie Sicherheit Gefahr Hinweis Anleitung Handbuch Kapitel
  Abschnitt Seite Beispiel Zeichnung Plan Maß Länge Breite Höhe Durchmesser Gewicht Menge Stück Paket Lieferung
  Bestellung Lieferant Hersteller Modell Typ Serie Nummer Version Software Netzwerk Verbindung Kommunikation
  Energie Verbrauch Effizienz Solar Photovoltaik Wechselrichter Batterie Wallbox Lüftung Klima Kühlung Feuchte
  Schimmel Kondensat Frost Sommer Winter Betriebsart Nachtabsenkung Zeitprogramm Kennlinie Sollwert Istwert`);

const DE_VERBS = words(`
  prüfen prüft geprüft reinigen reinigt gereinigt wechseln wechselt gewechselt einstellen stellt eingestellt
  montieren montiert demontieren demontiert anschließen schließt angeschlossen messen misst gemessen öffnen
  öffnet geöffnet schließen geschlossen entlüften entlüftet befüllen befüllt entleeren entleert tauschen tauscht
  getauscht dokumentieren dokumentiert melden meldet gemeldet beachten beachtet beachten abschalten schaltet
  abgeschaltet einschalten eingeschaltet starten startet gestartet überprüfen überprüft ersetzen ersetzt
  bestellen bestellt liefern liefert geliefert berechnen berechnet verlegen verlegt dämmen gedämmt abdichten
  abgedichtet festziehen angezogen lösen löst gelöst warten wartet gewartet erneuern erneuert`);

const DE_ADJECTIVES = words(`
  neu alt groß klein hoch niedrig warm kalt heiß dicht undicht defekt sauber verschmutzt korrekt falsch sicher
  gefährlich elektrisch thermisch hydraulisch automatisch manuell digital analog jährlich monatlich wöchentlich
  täglich regelmäßig sofort zulässig maximal minimal zentral dezentral vorhanden notwendig wichtig einfach
  schwierig schnell langsam leise laut trocken feucht stabil flexibel kompatibel geeignet zugelassen`);

const EN_FUNCTION = words(`
  the of and to a in is for on that with as by be are it at from or this an not can should must will if when
  all before after into each any also only more than then there which`);

const EN_NOUNS = words(`
  heating system pump boiler burner pipe valve filter pressure temperature water tank controller sensor
  thermostat radiator floor circuit flow return heat air exhaust chimney gas oil power meter fuse cable switch
  socket light distribution terminal protection grounding voltage motor drive control display button menu error
  fault message maintenance inspection test cleaning installation removal replacement repair part seal screw
  nut flange copper steel plastic insulation wall ceiling roof window door basement room bathroom kitchen shower
  customer order quote invoice appointment technician workshop vehicle tool drill device report form list table
  price cost hour week month year warranty regulation standard safety hazard note manual chapter section page
  example drawing plan length width height diameter weight quantity delivery supplier manufacturer model type
  serial number version software network connection energy consumption efficiency solar inverter battery
  ventilation cooling humidity condensate frost summer winter schedule setpoint`);

const EN_VERBS = words(`
  check checks checked clean cleans cleaned replace replaces replaced adjust adjusts adjusted install installs
  installed connect connects connected measure measures measured open opens opened close closes closed vent
  fill drain swap document report switch start starts started order deliver calculate seal tighten loosen`);

const EN_ADJECTIVES = words(`
  new old large small high low warm cold hot tight leaking defective clean dirty correct wrong safe dangerous
  electric thermal hydraulic automatic manual digital annual monthly weekly daily regular immediate permitted
  maximum minimum central necessary important simple quick slow quiet dry damp stable compatible suitable`);

/** German nouns as compounds' first parts ("Heizungs-", "Pumpen-"), lower-cased for the second part. */
function linkingForm(noun: string): string {
  if (/(ung|heit|keit|ion|tät)$/.test(noun)) return `${noun}s`;
  if (/e$/.test(noun)) return `${noun}n`;
  return noun;
}

function germanInflections(noun: string): string[] {
  if (/e$/.test(noun)) return [`${noun}n`];
  if (/(ung|heit|keit)$/.test(noun)) return [`${noun}en`];
  if (/(er|el|en)$/.test(noun)) return [`${noun}s`];
  return [`${noun}e`, `${noun}s`];
}

export interface Language {
  name: 'german' | 'english';
  /** Words by rank: function words first, then content words in a seeded random order. */
  vocabulary: string[];
  /** Content words only (no function words), by rank: what headings and questions are made of. */
  content: string[];
  functionWords: string[];
  questionWords: string[];
}

function buildGerman(r: Random, compounds: number): Language {
  const nouns = [...DE_NOUNS];
  const content = new Set<string>([...nouns, ...nouns.flatMap(germanInflections), ...DE_VERBS]);
  for (const a of DE_ADJECTIVES) for (const ending of ['', 'e', 'en', 'er']) content.add(a + ending);
  let guard = 0;
  const wanted = content.size + compounds;
  while (content.size < wanted && guard++ < compounds * 20) {
    const first = pick(r, nouns);
    const second = pick(r, nouns);
    if (first === second) continue;
    const word = linkingForm(first) + second.toLowerCase();
    content.add(word);
    if (r() < 0.3) content.add(germanInflections(word)[0]!);
  }
  const ranked = shuffle(r, [...content]);
  return {
    name: 'german',
    vocabulary: [...DE_FUNCTION, ...ranked],
    content: ranked,
    functionWords: DE_FUNCTION,
    questionWords: ['Wie', 'Wann', 'Warum', 'Welche', 'Wo', 'Was', 'Wie oft', 'Womit', 'Wer'],
  };
}

function buildEnglish(r: Random): Language {
  const content = new Set<string>([...EN_NOUNS, ...EN_VERBS, ...EN_ADJECTIVES]);
  for (const n of EN_NOUNS) content.add(/(s|x|ch|sh)$/.test(n) ? `${n}es` : `${n}s`);
  for (const a of EN_NOUNS.slice(0, 120))
    for (const b of EN_NOUNS.slice(60, 110)) {
      if (a !== b && r() < 0.12) content.add(`${a}-${b}`);
    }
  const ranked = shuffle(r, [...content]);
  return {
    name: 'english',
    vocabulary: [...EN_FUNCTION, ...ranked],
    content: ranked,
    functionWords: EN_FUNCTION,
    questionWords: ['How', 'When', 'Why', 'Which', 'Where', 'What', 'How often', 'Who'],
  };
}

/** Samples ranks 0..n-1 with probability proportional to 1 / (rank + 1)^s. */
export class Zipf {
  private readonly cumulative: Float64Array;
  readonly n: number;
  constructor(n: number, s = 1.05) {
    this.n = n;
    this.cumulative = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += 1 / (i + 1) ** s;
      this.cumulative[i] = sum;
    }
    for (let i = 0; i < n; i++) this.cumulative[i]! /= sum;
  }
  sample(r: Random): number {
    const x = r();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A source of sentences, paragraphs, headings, tables and questions in one language. */
export class TextSource {
  private readonly all: Zipf;
  private readonly topics: Zipf;
  /** Questions favour the middle of the distribution: people ask about specific things, not about "Anlage". */
  private readonly asked: Zipf;

  readonly lang: Language;
  private readonly r: Random;
  constructor(lang: Language, r: Random) {
    this.lang = lang;
    this.r = r;
    this.all = new Zipf(lang.vocabulary.length, 1.05);
    this.topics = new Zipf(lang.content.length, 0.9);
    this.asked = new Zipf(lang.content.length, 0.6);
  }

  word(): string {
    return this.lang.vocabulary[this.all.sample(this.r)]!;
  }

  private contentWord(dist: Zipf): string {
    return this.lang.content[dist.sample(this.r)]!;
  }

  /** A few extra technical tokens: part numbers, amounts, measures. */
  private token(): string {
    const r = this.r;
    switch (between(r, 0, 5)) {
      case 0:
        return `${between(r, 1, 99)},${between(r, 10, 99)} €`;
      case 1:
        return `${between(r, 1, 9)},${between(r, 0, 9)} bar`;
      case 2:
        return `DN ${pick(r, [15, 20, 25, 32, 40, 50])}`;
      case 3:
        return `${between(r, 20, 95)} °C`;
      case 4:
        return `Nr. ${between(r, 1000, 9999)}-${between(r, 10, 99)}`;
      default:
        return `${between(r, 1, 31)}.${between(r, 1, 12)}.${between(r, 2019, 2026)}`;
    }
  }

  sentence(minWords = 6, maxWords = 16): string {
    const n = between(this.r, minWords, maxWords);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.r() < 0.03 ? this.token() : this.word());
    return `${capitalize(out.join(' '))}${this.r() < 0.92 ? '.' : ':'}`;
  }

  /** Sentences up to about `words` words. */
  prose(words: number): string {
    const out: string[] = [];
    let count = 0;
    while (count < words) {
      const s = this.sentence();
      out.push(s);
      count += s.split(' ').length;
    }
    return out.join(' ');
  }

  heading(): string {
    const n = between(this.r, 1, 4);
    return Array.from({ length: n }, () => capitalize(this.contentWord(this.topics))).join(' ');
  }

  table(rows: number, cols: number): string[][] {
    const header = Array.from({ length: cols }, () => capitalize(this.contentWord(this.topics)));
    const body = Array.from({ length: rows }, () =>
      Array.from({ length: cols }, (_, c) =>
        c === cols - 1 ? this.token() : `${capitalize(this.contentWord(this.topics))} ${this.word()}`,
      ),
    );
    return [header, ...body];
  }

  /** A question of 3 to 8 words: a question word and words a reader would look for. */
  question(): string {
    const n = between(this.r, 3, 8);
    const parts = [pick(this.r, this.lang.questionWords)];
    while (parts.length < n) {
      parts.push(this.r() < 0.25 ? pick(this.r, this.lang.functionWords) : this.contentWord(this.asked));
    }
    return `${parts.join(' ')}?`;
  }
}

export function languages(seed = 1, compounds = 1800): { german: Language; english: Language } {
  const r = rng(seed);
  return { german: buildGerman(r, compounds), english: buildEnglish(r) };
}
