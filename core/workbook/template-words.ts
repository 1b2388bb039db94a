/**
 * The words of a template in the user's language: the Instructions sheet, the header notes (what a field means,
 * what it expects, what blank means) and the dropdowns' and number checks' messages. The field names, sheet
 * names and list values stay as they are in every language: they are the format (what the reader reads).
 *
 * English is the registry's own text (each column's description, each sheet's purpose); German is kept here as
 * data, keyed by that English text, so a column shared by several sheets (`action`, `truck_km`) is translated
 * once. test/workbook/template-lang.test.ts checks every description and purpose has its German text.
 */
import type { Locale } from '../names.js';
import type { ColumnSpec } from './columns.js';
import { expectation } from './columns.js';
import type { SheetDef } from './sheet-def.js';
import { CLEAR_MARKER } from './types.js';

export type TemplateLang = Locale;
export const TEMPLATE_LANGS = ['en', 'de'] as const satisfies readonly TemplateLang[];

const ACTION_EN =
  'What to do with the row: blank or upsert = create or update; create = only if absent; update = only if present; delete = delete the entity with this external_id (the other cells are not used); ignore = skip the row.';
const ACTION_DE =
  'Was mit der Zeile geschehen soll: leer oder upsert = anlegen oder ändern; create = nur anlegen, wenn noch nicht vorhanden; update = nur ändern, wenn vorhanden; delete = den Eintrag mit dieser external_id löschen (die übrigen Zellen werden nicht gelesen); ignore = Zeile überspringen.';
const CHILD_ACTION_EN = 'blank or upsert = the row is part of its owner; ignore = skip the row.';
const CHILD_ACTION_DE =
  'leer oder upsert = die Zeile gehört zu ihrem übergeordneten Eintrag; ignore = Zeile überspringen.';

/** German text of every sheet purpose and column description, keyed by the English text of the registry. */
export const GERMAN_TEXT: Readonly<Record<string, string>> = {
  // Sheet purposes
  'Mapping of your plant codes to the plants set up in the web interface. A code not listed here is looked up on the service (plants by code).':
    'Zuordnung Ihrer Werkscodes zu den in der Weboberfläche angelegten Werken. Ein hier nicht aufgeführter Code wird beim Dienst nachgeschlagen (Werke nach Code).',
  'Mapping of your material codes to material types (elementaries or composites). A code not listed here is looked up on the service (elementaries by code).':
    'Zuordnung Ihrer Materialcodes zu Materialtypen (Elementar- oder Verbundmaterialien). Ein hier nicht aufgeführter Code wird beim Dienst nachgeschlagen (Elementarmaterialien nach Code).',
  'Your suppliers. Every supplier plant belongs to one supplier company.':
    'Ihre Lieferanten. Jedes Lieferantenwerk gehört zu einem Lieferanten.',
  'The plants (sites) of your suppliers that materials come from.':
    'Die Werke (Standorte) Ihrer Lieferanten, aus denen Materialien kommen.',
  'Materials you buy: one row per material, supplier plant and your plant. A BOM or a silo refers to them by external_id.':
    'Materialien, die Sie einkaufen: eine Zeile je Material, Lieferantenwerk und eigenem Werk. Eine Stückliste oder ein Silo verweist über die external_id darauf.',
  'Hazardous substances of a supplier product, one row per substance. They are sent with the supplier product.':
    'Gefahrstoffe eines Lieferantenprodukts, eine Zeile je Stoff. Sie werden mit dem Lieferantenprodukt übertragen.',
  'Silos merge supplier products of one material type from several suppliers at one of your plants. Their items are in silo-items.':
    'Silos fassen Lieferantenprodukte eines Materialtyps von mehreren Lieferanten in einem Ihrer Werke zusammen. Ihr Inhalt steht in silo-items.',
  "What goes into each silo: one row per silo, supplier product and year with the yearly purchase amount. A silo needs at least one item; its items must share one material type and the silo's plant. The items of a silo are replaced whole on update.":
    'Was in jedes Silo geht: eine Zeile je Silo, Lieferantenprodukt und Jahr mit der jährlichen Einkaufsmenge. Ein Silo braucht mindestens einen Inhalt; alle Inhalte eines Silos haben denselben Materialtyp und das Werk des Silos. Beim Ändern wird der Inhalt eines Silos als Ganzes ersetzt.',
  'A product made at one of your plants over a span of years. Its recipe is in the bom sheet.':
    'Ein Produkt, das über eine Reihe von Jahren in einem Ihrer Werke hergestellt wird. Seine Rezeptur steht im Blatt bom.',
  'One of your product instances used as an input at one of your plants, with its transport route.':
    'Eine Ihrer Produktinstanzen, die in einem Ihrer Werke als Vorprodukt eingesetzt wird, mit ihrem Transportweg.',
  'The bill of materials of each product instance: one row per component. The rows of an instance are its whole BOM: it replaces the BOM on the service.':
    'Die Stückliste jeder Produktinstanz: eine Zeile je Komponente. Die Zeilen einer Instanz sind ihre ganze Stückliste: sie ersetzt die Stückliste beim Dienst.',
  "Production figures of your product instances: the quantity produced per year, in the product's unit (t, m³ …). The LCA of a past or current year needs its figure; a future year's figure is stored, and the year stays blocked until it arrives. Written through the API (scope edit:processes); a recompute of the LCA uses them.":
    'Produktionsmengen Ihrer Produktinstanzen: die je Jahr hergestellte Menge in der Einheit des Produkts (t, m³ …). Die Ökobilanz eines vergangenen oder laufenden Jahres braucht seine Menge; die Menge eines künftigen Jahres wird gespeichert, und das Jahr bleibt gesperrt, bis sie eintrifft. Geschrieben über die API (Berechtigung edit:processes); eine Neuberechnung der Ökobilanz verwendet sie.',
  'Reference only (ignored on import): the products on the service, so you can look up the article number for product-instances.':
    'Nur zum Nachschlagen (beim Import nicht gelesen): die Produkte beim Dienst, damit Sie die Artikelnummer für product-instances finden.',
  // Column descriptions
  'Your plant code.': 'Ihr Werkscode.',
  'Service id of the plant; blank = look the code up on the service.':
    'ID des Werks beim Dienst; leer = den Code beim Dienst nachschlagen.',
  'Your material code.': 'Ihr Materialcode.',
  'Kind of material type. Required when material_type_id is given.':
    'Art des Materialtyps. Pflicht, wenn material_type_id angegeben ist.',
  'Service id of the elementary or composite; blank = look the code up on the service.':
    'ID des Elementar- oder Verbundmaterials beim Dienst; leer = den Code beim Dienst nachschlagen.',
  'Your code for the supplier company (unique in this sheet).':
    'Ihr Code für den Lieferanten (eindeutig in diesem Blatt).',
  'Name of the supplier company.': 'Name des Lieferanten.',
  'Country of the company, ISO 3166 alpha-2 code (DE, AT, FR …).':
    'Land des Unternehmens, ISO-3166-Alpha-2-Code (DE, AT, FR …).',
  [ACTION_EN]: ACTION_DE,
  [CHILD_ACTION_EN]: CHILD_ACTION_DE,
  'Your code for the supplier plant (unique in this sheet).':
    'Ihr Code für das Lieferantenwerk (eindeutig in diesem Blatt).',
  'Name of the supplier plant.': 'Name des Lieferantenwerks.',
  'external_id of the supplier company the plant belongs to (in supplier-companies or already on the service).':
    'external_id des Lieferanten, zu dem das Werk gehört (in supplier-companies oder schon beim Dienst).',
  'Country of the plant, ISO 3166 alpha-2 code.': 'Land des Werks, ISO-3166-Alpha-2-Code.',
  'City of the plant.': 'Ort des Werks.',
  'Your code for the supplier product (unique in this sheet).':
    'Ihr Code für das Lieferantenprodukt (eindeutig in diesem Blatt).',
  'Name of the supplier product.': 'Name des Lieferantenprodukts.',
  'Your code of the plant that buys the material (mapped in the plants sheet or on the service).':
    'Ihr Code des Werks, das das Material einkauft (zugeordnet im Blatt plants oder beim Dienst).',
  'Your material code: the material type (mapped in the materials sheet or on the service).':
    'Ihr Materialcode: der Materialtyp (zugeordnet im Blatt materials oder beim Dienst).',
  'external_id of the supplier plant the material comes from. Needed if the product goes into a silo.':
    'external_id des Lieferantenwerks, aus dem das Material kommt. Nötig, wenn das Produkt in ein Silo geht.',
  'Unit the material is bought in.': 'Einheit, in der das Material eingekauft wird.',
  'Transport distance by truck from the supplier plant to your gate.':
    'Transportstrecke per Lkw vom Lieferantenwerk bis zu Ihrem Werkstor.',
  'Transport distance by train from the supplier plant to your gate.':
    'Transportstrecke per Bahn vom Lieferantenwerk bis zu Ihrem Werkstor.',
  'Transport distance by ship from the supplier plant to your gate.':
    'Transportstrecke per Schiff vom Lieferantenwerk bis zu Ihrem Werkstor.',
  'Transport distance by barge from the supplier plant to your gate.':
    'Transportstrecke per Binnenschiff vom Lieferantenwerk bis zu Ihrem Werkstor.',
  'Service id of the EPD of the material, if any.': 'ID der EPD des Materials beim Dienst, falls vorhanden.',
  'Lifetime of the material in years (only for materials with a limited lifetime).':
    'Lebensdauer des Materials in Jahren (nur für Materialien mit begrenzter Lebensdauer).',
  'Share of secondary (recycled) material, 0–100. Type 30 for 30 %, not 0.3.':
    'Anteil an Sekundärmaterial (Recycling), 0–100. Für 30 % tippen Sie 30, nicht 0,3.',
  'Moisture content (bio-based materials only), 0–100. Type 12 for 12 %, not 0.12.':
    'Feuchtegehalt (nur biobasierte Materialien), 0–100. Für 12 % tippen Sie 12, nicht 0,12.',
  'external_id of the supplier product that contains the substance.':
    'external_id des Lieferantenprodukts, das den Stoff enthält.',
  'CAS number of the substance, e.g. 7732-18-5.': 'CAS-Nummer des Stoffs, z. B. 7732-18-5.',
  'Mass share of the substance as a fraction: greater than 0, at most 1 (0.05 = 5 %).':
    'Massenanteil des Stoffs als Bruchteil: größer als 0, höchstens 1 (0,05 = 5 %).',
  'Your code for the silo (unique in this sheet).': 'Ihr Code für das Silo (eindeutig in diesem Blatt).',
  'Name of the silo.': 'Name des Silos.',
  'Your code of the plant of the silo.': 'Ihr Code des Werks, in dem das Silo steht.',
  'external_id of the silo.': 'external_id des Silos.',
  'external_id of the supplier product in the silo.': 'external_id des Lieferantenprodukts im Silo.',
  'Year of the purchase volume.': 'Jahr der Einkaufsmenge.',
  'Purchase volume in that year (in the unit of the supplier product).':
    'Einkaufsmenge in diesem Jahr (in der Einheit des Lieferantenprodukts).',
  'Your code for the product instance (unique in this sheet).':
    'Ihr Code für die Produktinstanz (eindeutig in diesem Blatt).',
  'Article number of the product (external_id of a product on the service; see the products sheet).':
    'Artikelnummer des Produkts (external_id eines Produkts beim Dienst; siehe Blatt products).',
  'Your code of the plant that makes it.': 'Ihr Code des Werks, das es herstellt.',
  'First year of production.': 'Erstes Produktionsjahr.',
  'Last year of production; blank = still produced.': 'Letztes Produktionsjahr; leer = wird noch hergestellt.',
  'Name of the instance.': 'Name der Instanz.',
  'Your code for the prechain product (unique in this sheet).':
    'Ihr Code für das Vorprodukt (eindeutig in diesem Blatt).',
  'external_id of the product instance used as the input.':
    'external_id der Produktinstanz, die als Vorprodukt eingesetzt wird.',
  'Your code of the plant that consumes it.': 'Ihr Code des Werks, das es verbraucht.',
  'Transport distance by truck to the consuming plant.': 'Transportstrecke per Lkw bis zum verbrauchenden Werk.',
  'Transport distance by train to the consuming plant.': 'Transportstrecke per Bahn bis zum verbrauchenden Werk.',
  'Transport distance by ship to the consuming plant.': 'Transportstrecke per Schiff bis zum verbrauchenden Werk.',
  'Transport distance by barge to the consuming plant.':
    'Transportstrecke per Binnenschiff bis zum verbrauchenden Werk.',
  'external_id of the product instance whose BOM this row belongs to.':
    'external_id der Produktinstanz, zu deren Stückliste diese Zeile gehört.',
  'What the component is.': 'Was die Komponente ist.',
  'external_id of the supplier product, silo or prechain product (as component_type says).':
    'external_id des Lieferantenprodukts, Silos oder Vorprodukts (wie component_type sagt).',
  'Mass of the component in the product, kg (greater than 0).': 'Masse der Komponente im Produkt, kg (größer als 0).',
  'external_id of the product instance.': 'external_id der Produktinstanz.',
  'Production year (within the instance’s produced_from … produced_to).':
    'Produktionsjahr (innerhalb von produced_from … produced_to der Instanz).',
  "Quantity produced in that year, in the product's unit (0 or more).":
    'In diesem Jahr hergestellte Menge in der Einheit des Produkts (0 oder mehr).',
  'Article number: use it as product_external_id.': 'Artikelnummer: als product_external_id verwenden.',
  'Name of the product.': 'Name des Produkts.',
  'Unit the product is sold in.': 'Einheit, in der das Produkt verkauft wird.',
  'Description.': 'Beschreibung.',
  'Service id of the product.': 'ID des Produkts beim Dienst.',
};

/** A registry text (a purpose or a description) in the template's language; English is the registry's own. */
export function registryText(text: string, lang: TemplateLang): string {
  return lang === 'de' ? (GERMAN_TEXT[text] ?? text) : text;
}

/** A number as the language writes it (decimal comma in German), without grouping: 0.05 → "0,05". */
function num(n: number, lang: TemplateLang): string {
  return lang === 'de' ? String(n).replace('.', ',') : String(n);
}

function rangeWordsDe(c: ColumnSpec): string {
  const min = c.min === undefined ? '' : num(c.min, 'de');
  const max = c.max === undefined ? '' : num(c.max, 'de');
  if (c.min !== undefined && c.max !== undefined)
    return c.minExclusive ? ` größer als ${min} und ≤ ${max}` : ` von ${min} bis ${max}`;
  if (c.min !== undefined) return c.minExclusive ? ` größer als ${min}` : ` ≥ ${min}`;
  if (c.max !== undefined) return ` ≤ ${max}`;
  return '';
}

/** What a cell of the column takes, in words of the language. */
export function expectationIn(c: ColumnSpec, lang: TemplateLang): string {
  if (lang === 'en') return expectation(c);
  switch (c.type) {
    case 'code':
      return `ein Code (Text, bis ${c.maxLength ?? 255} Zeichen, ohne Zeilenumbruch)`;
    case 'text':
      return `Text (bis ${c.maxLength ?? 1000} Zeichen)`;
    case 'uuid':
      return 'eine ID des Dienstes (UUID wie 123e4567-e89b-12d3-a456-426614174000)';
    case 'enum':
      if (c.list === 'country') return 'ein ISO-3166-Alpha-2-Ländercode (DE, AT, FR …)';
      return `einer von ${(c.allowed ?? []).join(', ')}`;
    case 'year':
      return `ein Jahr (ganze Zahl ${c.min ?? 1900}–${c.max ?? 2200})`;
    case 'integer':
      return `eine ganze Zahl${rangeWordsDe(c)}`;
    case 'decimal':
      return `eine Zahl${rangeWordsDe(c)}${c.unit ? ` in ${c.unit}` : ''}`;
  }
}

/** The fixed words of a template, per language. */
export interface TemplateWords {
  required: string;
  optional: string;
  referenceOnly: string;
  expected: (what: string) => string;
  /** A cell check's message: what the column takes. */
  checkExpected: (what: string) => string;
  unit: (unit: string) => string;
  mustNotBeBlank: string;
  blankKeeps: string;
  notAllowedTitle: string;
  pickFromList: string;
  notInFile: string;
  tableHeader: readonly [string, string, string, string];
  /** The Instructions sheet's lines before the table of steps. */
  intro: readonly string[];
}

export const TEMPLATE_WORDS: Readonly<Record<TemplateLang, TemplateWords>> = {
  en: {
    required: 'required',
    optional: 'optional',
    referenceOnly: 'Reference only: ignored on import.',
    expected: (what) => `Expected: ${what}.`,
    checkExpected: (what) => `Expected ${what}.`,
    unit: (unit) => `Unit: ${unit}.`,
    mustNotBeBlank: 'Must not be blank.',
    blankKeeps: `Blank = not set (keeps the value on the service). ${CLEAR_MARKER} clears it.`,
    notAllowedTitle: 'Not allowed here',
    pickFromList: 'Pick a value from the dropdown list.',
    notInFile: 'not in this file',
    tableHeader: ['Step', 'Sheet', 'What it does', 'Required columns'],
    intro: [
      'Supply Loader workbook',
      '',
      'One sheet per kind of data. Row 1 of each sheet holds the field names: do not rename them. Columns may be in any order; extra columns you add are ignored (with a warning).',
      'Each header cell has a note: what the field means, whether it is required, its unit and the allowed values. Required headers are orange.',
      `A blank cell means "not set": it never erases a value on the service. To clear a value on the service, write ${CLEAR_MARKER} in the cell.`,
      'Numbers: type them as numbers. Numbers stored as text are accepted ("12.5", "12,5", "1.234,5", "1,234.5"). Percentages are 0–100 (type 30 for 30 %).',
      'Years: type the year (2024). A date is read as its year, with a warning.',
      'Code columns are formatted as Text, so codes like 00123 keep their leading zeros.',
      'Sheets you do not need can be left empty or deleted. Import order follows the steps below; a row may refer to a row of another sheet of the same workbook.',
      '',
      'Step 0 (in the web interface): set up your plants and production processes.',
      '',
    ],
  },
  de: {
    required: 'Pflichtfeld',
    optional: 'optional',
    referenceOnly: 'Nur zum Nachschlagen: wird beim Import nicht gelesen.',
    expected: (what) => `Erwartet: ${what}.`,
    checkExpected: (what) => `Erwartet: ${what}.`,
    unit: (unit) => `Einheit: ${unit}.`,
    mustNotBeBlank: 'Darf nicht leer sein.',
    blankKeeps: `Leer = nicht gesetzt (der Wert beim Dienst bleibt). ${CLEAR_MARKER} löscht ihn.`,
    notAllowedTitle: 'Hier nicht zulässig',
    pickFromList: 'Wählen Sie einen Wert aus der Liste.',
    notInFile: 'nicht in dieser Datei',
    tableHeader: ['Schritt', 'Blatt', 'Wozu es dient', 'Pflichtspalten'],
    intro: [
      'Supply-Loader-Arbeitsmappe',
      '',
      'Ein Blatt je Art von Daten. Zeile 1 jedes Blatts enthält die Feldnamen: benennen Sie sie nicht um, sie bleiben in jeder Sprache gleich. Die Spalten dürfen in beliebiger Reihenfolge stehen; zusätzliche Spalten werden nicht gelesen (mit einer Warnung).',
      'Jede Kopfzelle hat eine Notiz: was das Feld bedeutet, ob es Pflicht ist, seine Einheit und die zulässigen Werte. Pflichtspalten sind orange.',
      `Eine leere Zelle heißt „nicht gesetzt“: sie löscht nie einen Wert beim Dienst. Um einen Wert beim Dienst zu löschen, schreiben Sie ${CLEAR_MARKER} in die Zelle.`,
      'Zahlen: als Zahlen eingeben. Als Text gespeicherte Zahlen werden angenommen („12,5“, „12.5“, „1.234,5“, „1,234.5“). Prozentwerte sind 0–100 (für 30 % tippen Sie 30).',
      'Jahre: das Jahr eingeben (2024). Ein Datum wird als sein Jahr gelesen, mit einer Warnung.',
      'Code-Spalten sind als Text formatiert, damit Codes wie 00123 ihre führenden Nullen behalten.',
      'Blätter, die Sie nicht brauchen, dürfen leer bleiben oder gelöscht werden. Die Importreihenfolge folgt den Schritten unten; eine Zeile darf auf eine Zeile eines anderen Blatts derselben Arbeitsmappe verweisen.',
      '',
      'Schritt 0 (in der Weboberfläche): legen Sie Ihre Werke und Produktionsprozesse an.',
      '',
    ],
  },
};

/** The purpose of a sheet in the template's language. */
export function purposeIn(def: SheetDef, lang: TemplateLang): string {
  return registryText(def.purpose, lang);
}
