/** Deutsche Texte zu eingegebenen Zahlen und den Hinweisen einer Rücknahme und dazu, was einen Eintrag noch verwendet: dieselben Schlüssel wie words-en.ts. */
import type { enWords } from './words-en.js';

export const deWords: Record<keyof typeof enWords, string> = {
  'number.ambiguous': '„{text}“ lässt sich verschieden lesen. Geben Sie die Zahl als {examples} ein.',
  'number.otherMark': '„{text}“ ist keine hier übliche Schreibweise einer Zahl. Geben Sie sie als {examples} ein.',
  'number.notANumber': '„{text}“ ist keine Zahl. Geben Sie sie zum Beispiel als {example} ein.',
  'number.negative': 'Die Menge darf nicht negativ sein.',
  'number.or': ' oder ',

  'undoNote.afterRecreate': 'nachdem {code} neu angelegt ist',
  'undoNote.figuresSetBack': 'Produktionsmengen auf die Werte vor dem Auftrag zurückgesetzt',
  'undoNote.bomPutBack': 'Stückliste wiederhergestellt, wie sie vor dem Auftrag war',
  'undoNote.createdDeleted': 'vom Auftrag angelegt: wird gelöscht',
  'undoNote.createdAlreadyDeleted': 'vom Auftrag angelegt, schon gelöscht: es wird nichts gesendet',
  'undoNote.setBack': 'zurückgesetzt: {fields}',
  'undoNote.recreated':
    'vom Auftrag gelöscht: wird aus der vor dem Löschen gesicherten Kopie neu angelegt, mit neuer ID (vorher {id})',
  'undoNote.figuresPutBack': 'Produktionsmengen wiederhergestellt, wie sie vor dem Auftrag waren',

  'planNote.afterCreate': 'nachdem {label} ({row}) angelegt ist',
  'planNote.row': '{sheet} Zeile {row}',
  'planNote.anotherRow': 'eine andere Zeile',
  'planNote.afterWrittenWithout': 'nachdem {user} ohne den Verweis darauf geschrieben ist',
  'planNote.afterDeleteOf': 'nachdem {label} gelöscht ist',
  'planNote.afterDeleteWithBom': 'nachdem {label} gelöscht ist, und mit ihr {bom}',
  'planNote.createOnlyNotApplied': 'Nur anlegen: Die Unterschiede werden nicht übernommen',
  'planNote.actionCreateExists': 'Aktion „create“: Der Eintrag besteht schon, die Unterschiede werden nicht übernommen',
  'planNote.actionDelete': 'Aktion „delete“',
  'planNote.actionDeleteNotUsed': 'Aktion „delete“ (nur „{idField}“ zählt; nicht verwendet: {fields})',
  'planNote.alreadyAbsent': 'nicht im Dienst: schon entfernt, es wird nichts gesendet',
  'planNote.mirrorNotIn': 'Abgleich: nicht in {sheet}',
  'planNote.bomUnreadable': 'die aktuelle Stückliste ließ sich nicht lesen ({detail}): Sie wird ohne Vergleich ersetzt',
  'planNote.bomCreateOnly': 'Nur anlegen: Die Stückliste weicht von der im Dienst ab, wird aber nicht ersetzt',
  'planNote.figuresUnreadable':
    'die Produktionsmengen im Dienst ließen sich nicht lesen ({detail}): Jedes Jahr wird geschrieben',
  'planNote.futureYear':
    '{year} liegt in der Zukunft: Die Menge wird jetzt geschrieben, die Ökobilanz bleibt gesperrt, bis {year} begonnen hat',
  'planNote.figuresCreateOnly': 'Nur anlegen: Produktionsmengen, die vom Dienst abweichen, werden nicht überschrieben',

  'runNote.dependencyFailed': '{what} ist fehlgeschlagen',
  'runNote.dependencyNotRun': '{what} wurde nicht ausgeführt',
  'runNote.createOnly': 'der Import läuft mit „Nur anlegen“',

  'inUse.bom': 'die Stückliste von Produktinstanz {name}',
  'inUse.writtenByImport': '{user} (von diesem Import geschrieben)',
  'inUse.deleteBlocked': '{user} (dessen Löschen blockiert ist)',
  'results.stillUsedBy': 'Noch verwendet von {users}.',
};
