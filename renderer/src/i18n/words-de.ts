/** Deutsche Texte zu eingegebenen Zahlen und Mengenangaben: dieselben Schlüssel wie words-en.ts. */
import type { enWords } from './words-en.js';

export const deWords: Record<keyof typeof enWords, string> = {
  'number.ambiguous': '„{text}“ lässt sich verschieden lesen. Geben Sie die Zahl als {examples} ein.',
  'number.otherMark': '„{text}“ ist keine hier übliche Schreibweise einer Zahl. Geben Sie sie als {examples} ein.',
  'number.notANumber': '„{text}“ ist keine Zahl. Geben Sie sie zum Beispiel als {example} ein.',
  'number.negative': 'Die Menge darf nicht negativ sein.',
  'number.or': ' oder ',
};
