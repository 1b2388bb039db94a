/** Deutsche Texte der Ökobilanz-Auswirkung eines Auftrags: dieselben Schlüssel wie impact-en.ts. */
import type { enImpact } from './impact-en.js';

export const deImpact: Record<keyof typeof enImpact, string> = {
  'impact.title': 'Auswirkung auf die Ökobilanz',
  'impact.finding': 'Die Produktinstanzen, die dieser Auftrag betrifft, werden gesucht …',
  'impact.notFound': 'Die betroffenen Produktinstanzen konnten nicht ermittelt werden: {reason}',
  'impact.none': 'Dieser Auftrag ändert nichts, woraus die Ökobilanz einer Produktinstanz berechnet wird.',
  'impact.affected': '{n, plural, one {# Produktinstanz ist betroffen} other {# Produktinstanzen sind betroffen}}',
  'impact.byPlant': 'Betroffene Instanzen je Werk',
  'impact.plant': 'Werk',
  'impact.count': 'Instanzen',
  'impact.noPlant': 'kein Werk',
  'impact.instancesTitle': 'Betroffene Instanzen',
  'impact.instance': 'Instanz',
  'impact.causes': 'Was sich ändert',
  'impact.rows': 'Zeilen des Auftrags',
  'impact.created': 'vom Auftrag angelegt',
  'impact.moreInstances':
    '{n, plural, one {# weitere Instanz steht} other {# weitere Instanzen stehen}} im Auftragsordner.',
  'impact.unchecked': 'Nicht geprüft: {what}',
  'impact.recompute': '{n, plural, one {# Instanz} other {# Instanzen}} neu berechnen (etwa {requests} Anfragen)',
  'impact.limitNote':
    'Jede Neuberechnung sendet eine Anfrage lca-update und liest danach ihre Ergebnisse, bis sie fertig ist. Diese Anfragen zählen zum Tageslimit an Anfragen des Dienstes (wie hoch es ist, zeigt der Dienst nicht). Ist das Limit erreicht, hält die Neuberechnung an; was fertig ist, bleibt erhalten, und der Rest kann neu berechnet werden, sobald das Limit zurückgesetzt ist.',
  'impact.progressLabel': 'Neuberechnung der Ökobilanz',
  'impact.progress': 'Die Ökobilanz wird neu berechnet: {done} von {total} Instanzen',
  'impact.starting': 'Die Neuberechnung startet …',
  'impact.stop': 'Neuberechnung anhalten',
  'impact.failed': 'Die Neuberechnung war nicht möglich: {reason}',
  'impact.stopped': 'Die Neuberechnung hielt vor dem Ende an: {reason}',
  'impact.notYet':
    'Die Ökobilanz der betroffenen Instanzen wurde seit diesem Auftrag nicht neu berechnet: Berechnen Sie sie neu, um Vorher → Nachher zu sehen.',
  'impact.tableTitle': 'Vorher → Nachher',
  'impact.indicator': 'Indikator',
  'impact.col.year': 'Jahr',
  'impact.col.module': 'Modul',
  'impact.col.before': 'Vorher',
  'impact.col.after': 'Nachher',
  'impact.col.change': 'Änderung',
  'impact.col.pct': 'Änderung in %',
  'impact.blocked': 'blockiert: {why}',
  'impact.blockedTitle': 'Jahre ohne Ergebnisse',
  'impact.moreRows':
    '{n, plural, one {# weitere Zeile steht} other {# weitere Zeilen stehen}} im Auswirkungsbericht des Auftragsordners (lca-impact.json).',
  'impact.noRows': 'Für diesen Indikator gibt es keine Ergebnisse zum Vergleichen.',
  'impact.attributionTitle': 'Was die Änderung verursacht',
  'impact.attributionFor': 'Änderung von',
  'impact.attributionNone': 'Kein Wert hat sich geändert, es gibt also nichts zuzuordnen.',
  'impact.attributionLabel': 'Änderung von {what} nach Quelle',
  'impact.line.production_figures': 'Produktionsmengen',
  'impact.line.not_attributed': 'Keiner Quelle zugeordnet',
  'impact.noBreakdown': 'Die Ergebnisse enthalten für diese Änderung keine Aufschlüsselung nach Quelle.',
  'impact.needsData': '{instance}: Produktionsmengen fehlen für {years}',
  'impact.notesTitle': 'Hinweise',

  'impact.est.title': 'Geschätzte Änderung',
  'impact.est.tag': 'Schätzung',
  'impact.est.explain':
    'Eine Schätzung aus den aktuellen Ergebnissen und ihrer Aufschlüsselung nach Quelle, kein Ergebnis: Die tatsächliche Änderung steht erst fest, wenn die Ökobilanz nach dem Auftrag neu berechnet ist.',
  'impact.est.reading': 'Die aktuellen Ökobilanz-Ergebnisse der betroffenen Instanzen werden gelesen …',
  'impact.est.kept':
    'Aktuelle Ergebnisse für den Vergleich nach dem Auftrag aufbewahrt: {completed} von {instances} Instanzen.',
  'impact.est.unread': 'Nicht lesbar',
  'impact.est.current': 'Aktuell',
  'impact.est.change': 'Geschätzte Änderung',
  'impact.est.none': 'Keine Änderung ließ sich schätzen.',
  'impact.est.notEstimated': 'Nicht geschätzt',
  'impact.est.more':
    '{n, plural, one {# weitere Schätzung steht} other {# weitere Schätzungen stehen}} im Auftragsordner.',
  'impact.est.after':
    'Nach dem Auftrag bieten seine Ergebnisse an, {n, plural, one {# Instanz} other {# Instanzen}} neu zu berechnen (etwa {requests} Anfragen).',
  'impact.t.changed.create': '{what} wird angelegt: Der Beitrag steht erst nach der Neuberechnung fest.',
  'impact.t.changed.update': '{what} wird geändert: Der neue Beitrag steht erst nach der Neuberechnung fest.',
  'impact.t.changed.delete': '{what} wird gelöscht: Die Änderung steht erst nach der Neuberechnung fest.',
  'impact.t.through': '{what} (über {via})',
  'impact.t.production_changed':
    'Produktionsmengen ändern sich: nicht geschätzt; ihre Wirkung zeigt erst die Neuberechnung.',
  'impact.t.new_instance': 'Eine neue Produktinstanz: Sie hat noch keine Ergebnisse.',
  'impact.t.component_created':
    'Komponente {code} wird von diesem Import angelegt: Ein Beitrag je kg ist nicht bekannt.',
  'impact.t.no_current_per_unit':
    '{year}: keine aktuellen Werte je deklarierter Einheit (blockiert oder ohne Produktionsmenge).',
  'impact.t.no_breakdown':
    '{year}: keine Aufschlüsselung nach Quelle (dem Schlüssel fehlt view:recipes, oder der Dienst lieferte keine).',
  'impact.t.added_without_per_kg':
    '{year}: Komponente {code} kommt hinzu, und keine Aufschlüsselung zeigt ihren Beitrag je kg.',
  'impact.t.no_current_results': 'Keine aktuellen Ergebnisse, aus denen sich schätzen ließe.',
  'impact.t.mass_changed': 'Masse {from} → {to} kg',
  'impact.t.removed': 'aus der Stückliste entfernt',
  'impact.t.added': 'mit {mass} kg hinzugefügt, zum Beitrag je kg aus {from}',
  'impact.t.not_found_after':
    'Produktinstanz {instance}: nach dem Auftrag nicht beim Dienst gefunden; nicht verglichen.',
  'impact.t.no_before':
    'Produktinstanz {instance}: Vor dem Auftrag wurden keine Ergebnisse aufbewahrt; nur Nachher-Werte.',
  'impact.t.not_read_after': 'Produktinstanz {instance}: nach dem Auftrag nicht gelesen; nur Vorher-Werte.',
  'impact.t.unread_before': 'Produktinstanz {instance}: {outcome}',
  'impact.t.read_stopped': 'Das Lesen der aktuellen Ergebnisse wurde angehalten. {why}',
};
