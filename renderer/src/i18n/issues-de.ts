/** Deutsche Texte der Prüfung und der Probelauf-Probleme: dieselben Schlüssel und Platzhalter wie issues-en.ts. */
import type { enIssues } from './issues-en.js';

export const deIssues: Record<keyof typeof enIssues, string> = {
  // ------------------------------------------------ was in eine Zelle gehört ({expected})
  'expect.code': 'ein Code (Text, höchstens {maxLength} Zeichen, ohne Zeilenumbruch)',
  'expect.text': 'ein Text (höchstens {maxLength} Zeichen)',
  'expect.uuid': 'eine ID des Dienstes (UUID wie 123e4567-e89b-12d3-a456-426614174000)',
  'expect.country': 'ein Ländercode nach ISO 3166 Alpha-2 (DE, AT, FR …)',
  'expect.enum': 'einer der Werte {allowed}',
  'expect.year': 'eine Jahreszahl (ganze Zahl {min}–{max})',
  'expect.integer': 'eine ganze Zahl{range}',
  'expect.decimal': 'eine Zahl{range}{unit}',
  'expect.unit': ' in {unit}',
  'expect.range.fromTo': ' von {min} bis {max}',
  'expect.range.gtLe': ' größer als {min} und ≤ {max}',
  'expect.range.gt': ' größer als {min}',
  'expect.range.min': ' ≥ {min}',
  'expect.range.max': ' ≤ {max}',
  'issue.gotSuffix': ' (eingetragen: {got})',
  'issue.hintSuffix': ' (meinten Sie {hint}?)',
  'issue.causeSuffix': ' (weil {cause} unbekannt ist)',

  // ------------------------------------------------ die Datei
  'issue.file_not_found': 'Die Datei existiert nicht oder lässt sich nicht öffnen.',
  'issue.file_not_found.not_a_file': 'Der Pfad ist keine Datei.',
  'issue.file_empty': 'Die Datei ist leer (0 Byte); sie ist keine Arbeitsmappe.',
  'issue.file_too_large':
    'Die Datei ist {size} groß; erlaubt sind höchstens {limit}. Teilen Sie die Daten auf mehrere Arbeitsmappen auf.',
  'issue.not_a_zip': 'Das ist keine Excel-Arbeitsmappe (.xlsx): Die Datei hat nicht das .xlsx-Format (ZIP).',
  'issue.csv_renamed':
    'Das ist eine Textdatei (CSV) mit der Endung {ext}, keine Excel-Arbeitsmappe. Benennen Sie sie in .csv um (Supply Loader liest CSV-Dateien) oder öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“.',
  'issue.csv_renamed.no_extension':
    'Das ist eine Textdatei (CSV) ohne Dateiendung, keine Excel-Arbeitsmappe. Benennen Sie sie in .csv um (Supply Loader liest CSV-Dateien) oder öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“.',
  'issue.not_a_zip.unknown':
    'Diese Datei kann Supply Loader nicht lesen: Sie ist weder eine Excel-Arbeitsmappe (.xlsx, .xls, .ods) noch eine Textdatei (CSV).',
  'issue.file_too_large.legacy':
    'Die Datei ist {size} groß; eine {ext}-Datei wird bis {limit} gelesen. Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“ oder exportieren Sie die Daten als .csv.',
  'issue.legacy_xls.unreadable':
    'Diese {ext}-Datei lässt sich nicht lesen ({detail}). Öffnen Sie sie in Excel oder LibreOffice und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“ oder exportieren Sie die Daten als .csv.',
  'issue.legacy_xls':
    'Das ist eine Excel-Datei im alten Format (.xls) oder ein anderes Office-Dokument, keine .xlsx-Arbeitsmappe. Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“.',
  'issue.password_protected':
    'Die Arbeitsmappe ist kennwortgeschützt. Entfernen Sie das Kennwort in Excel und speichern Sie sie erneut.',
  'issue.password_protected.encrypted':
    'Die Arbeitsmappe ist kennwortgeschützt (verschlüsselt). Öffnen Sie sie in Excel, entfernen Sie das Kennwort (Datei → Informationen → Arbeitsmappe schützen) und speichern Sie sie erneut.',
  'issue.password_protected.zip':
    'Die Datei ist verschlüsselt (kennwortgeschütztes ZIP-Archiv). Speichern Sie sie in Excel erneut ohne Kennwort.',
  'issue.other_format':
    'Das ist keine .xlsx-Arbeitsmappe. Öffnen Sie die Datei in Excel und speichern Sie sie als .xlsx.',
  'issue.other_format.xml2003':
    'Das ist eine Datei im Format „XML-Kalkulationstabelle 2003“, keine .xlsx-Arbeitsmappe. Öffnen Sie sie in Excel und speichern Sie sie als .xlsx.',
  'issue.other_format.html':
    'Das ist eine Webseite (HTML) mit der Endung .xlsx, keine Arbeitsmappe. Öffnen Sie sie in Excel und speichern Sie sie als .xlsx.',
  'issue.other_format.html_page':
    'Das ist eine Webseite (HTML), keine Excel-Arbeitsmappe. Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“ oder exportieren Sie die Daten als .csv.',
  'issue.other_format.slk':
    'Das ist eine SYLK-Datei (Symbolic Link, .slk), keine Excel-Arbeitsmappe (.xlsx). Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“ oder als „CSV UTF-8“.',
  'issue.other_format.dif':
    'Das ist eine DIF-Datei (Data Interchange Format, .dif), keine Excel-Arbeitsmappe (.xlsx). Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“ oder als „CSV UTF-8“.',
  'issue.other_format.ods':
    'Das ist eine OpenDocument-Tabelle (.ods), keine .xlsx-Arbeitsmappe. Speichern Sie sie als „Excel 2007-365 (.xlsx)“.',
  'issue.other_format.xlsb':
    'Das ist eine binäre Excel-Arbeitsmappe (.xlsb). Öffnen Sie sie in Excel und speichern Sie sie als „Excel-Arbeitsmappe (.xlsx)“.',
  'issue.corrupt_zip': 'Die Datei ist beschädigt: Sie lässt sich nicht als .xlsx-Datei (ZIP) entpacken ({detail}).',
  'issue.not_a_workbook':
    'Die Datei ist ein ZIP-Archiv, aber keine Excel-Arbeitsmappe (xl/workbook.xml fehlt). Öffnen Sie sie in Excel und speichern Sie sie als .xlsx.',
  'issue.not_a_workbook.office': 'Das ist eine Word- oder PowerPoint-Datei, keine Excel-Arbeitsmappe.',
  'issue.zip_bomb': 'Die Datei wird beim Entpacken größer als erlaubt; sie wird als mögliche ZIP-Bombe abgelehnt.',
  'issue.zip_bomb.entries':
    'Die Datei besteht aus mehr als {limit} Teilen – das kommt bei einer Arbeitsmappe nie vor. Sie wird als unsicher abgelehnt.',
  'issue.zip_bomb.ratio':
    'Der Teil {part} würde beim Entpacken {ratio}-mal so groß wie gespeichert (erlaubt sind {limit}:1). Die Datei wird als mögliche ZIP-Bombe abgelehnt.',
  'issue.zip_bomb.total':
    'Die Datei wäre entpackt {size} groß; erlaubt sind höchstens {limit}. Teilen Sie die Daten auf mehrere Arbeitsmappen auf.',
  'issue.zip_bomb.size_mismatch':
    'Der Teil {part} ist entpackt anders groß, als die Datei angibt; die Datei wird als unsicher abgelehnt (ZIP-Bombe oder beschädigte Datei).',
  'issue.xml_entity':
    'Die Datei enthält in {part} eine XML-Dokumenttyp-Deklaration (DOCTYPE/ENTITY). Excel schreibt so etwas nie; die Datei wird als unsicher abgelehnt.',
  'issue.too_many_rows':
    'Das Tabellenblatt „{sheet}“ hat mehr als {limit} Datenzeilen (die Grenze je Tabellenblatt). Teilen Sie die Daten auf mehrere Arbeitsmappen auf.',
  'issue.no_known_sheet':
    'Die Arbeitsmappe enthält kein Tabellenblatt von Supply Loader. Erwartet werden Tabellenblätter namens {known} (verwenden Sie eine Vorlage aus Supply Loader).',
  'issue.sheet_unreadable':
    'Das Tabellenblatt „{sheet}“ lässt sich nicht lesen: Seine Daten fehlen in der Datei. Öffnen Sie die Datei in Excel und speichern Sie sie erneut.',
  'issue.unreadable':
    'Die Arbeitsmappe lässt sich nicht lesen, sie scheint beschädigt ({detail}). Öffnen Sie sie in Excel und speichern Sie sie erneut.',
  'issue.unreadable.part':
    'Der Teil {part} der Datei beginnt nicht wie ein XML-Teil von Excel; die Datei wird abgelehnt.',

  // ------------------------------------------------ Tabellenblätter und Spaltenköpfe
  'issue.unknown_sheet':
    'Das Tabellenblatt „{sheet}“ gehört nicht zu Supply Loader und wird nicht gelesen. Bekannte Tabellenblätter: {known}.',
  'issue.sheet_name_normalised':
    'Das Tabellenblatt „{sheet}“ wird als {registryName} gelesen; benennen Sie es in „{registryName}“ um.',
  'issue.duplicate_sheet':
    'Das Tabellenblatt „{sheet}“ ist ein zweites Blatt {registryName} (das erste heißt „{first}“); fassen Sie alle Zeilen in einem Tabellenblatt zusammen.',
  'issue.hidden_sheet':
    'Das Tabellenblatt „{sheet}“ ist ausgeblendet; seine Zeilen werden trotzdem gelesen und importiert.',
  'issue.missing_header': 'Die Pflichtspalte {field} fehlt in Zeile 1 (fügen Sie sie hinzu, z. B. in {cell}).',
  'issue.missing_header.empty': 'Zeile 1 muss die Feldnamen enthalten; die Pflichtspalte {field} fehlt.',
  'issue.duplicate_header': 'Die Spalte {field} kommt zweimal vor ({firstCell} und {cell}); behalten Sie nur eine.',
  'issue.misnamed_column':
    'Die Spalte „{header}“ ist kein Feld von {sheetName}: Ist „{hint}“ gemeint? Benennen Sie die Überschrift um (oder ordnen Sie sie in einer Spaltenzuordnung zu bzw. führen Sie sie unter „ignore“); bis dahin sind die Zeilen dieses Blatts gesperrt.',
  'issue.no_data_rows':
    'Keine Datenzeilen: Unter der Überschrift keines Blatts ist eine Zeile ausgefüllt. Es würde nichts importiert.',
  'issue.source_without_sheet':
    'Bei der Datei „{source}“ ist unklar, welches Blatt sie füllt: Benennen Sie sie nach einem Blatt (z. B. supplier-products.csv) oder geben Sie eine Spaltenzuordnung an, deren „source“ zu ihr passt.',
  'issue.other_format.pdf':
    'Dies ist ein PDF-Dokument, keine Arbeitsmappe und keine CSV-Datei. Exportieren Sie die Daten aus ihrer Quelle als .xlsx oder .csv.',
  'issue.other_format.image': 'Dies ist ein Bild ({kind}), keine Arbeitsmappe und keine CSV-Datei.',
  'issue.other_format.archive':
    'Dies ist ein komprimiertes Archiv ({kind}), keine Arbeitsmappe. Entpacken Sie es und wählen Sie die .xlsx- oder .csv-Datei darin.',
  'issue.unknown_column': 'Die Spalte „{header}“ ist kein Feld von {sheetName} und wird nicht gelesen.',
  'issue.unknown_column.hint':
    'Die Spalte „{header}“ ist kein Feld von {sheetName} und wird nicht gelesen. Meinten Sie {hint}?',
  'issue.header_normalised':
    'Der Spaltenkopf „{header}“ wird als {field} gelesen; schreiben Sie ihn genau als {field}.',
  'issue.data_without_header':
    'Die Spalte {column} enthält Daten, aber in Zeile 1 keinen Feldnamen; sie wird nicht gelesen.',
  'issue.merged_cell':
    'Die Zellen {range} sind über {fields} verbunden; heben Sie die Verbindung auf und füllen Sie jede Zeile aus.',

  // ------------------------------------------------ Zellen
  'issue.formula_error': '{field}: Die Zelle zeigt den Fehler {error}.',
  'issue.formula_error.value': '{field}: Die Zelle enthält einen Fehlerwert.',
  'issue.formula_error.formula': '{field}: Die Formel {formula} ergibt einen Fehlerwert (#BEZUG!, #DIV/0!, #NV …).',
  'issue.formula_error.formulaShown':
    '{field}: Die Formel {formula} ergibt den Fehler {error}; korrigieren Sie sie oder tragen Sie den Wert ein.',
  'issue.formula_without_result':
    '{field}: Für die Formel {formula} ist kein Ergebnis gespeichert; öffnen und speichern Sie die Datei in Excel oder tragen Sie den Wert ein.',
  'issue.wrong_type': '{field}: Erwartet wird {expected}; in der Zelle steht {got}.',
  'issue.number_as_text_ambiguous':
    '{field}: Der Text {text} kann {small} oder {large} bedeuten (Dezimal- oder Tausendertrennzeichen?); tragen Sie die Zahl selbst ein ({small} oder {large}).',
  'issue.number_as_text_imprecise':
    '{field}: Excel hat {text} als Zahl gespeichert und dabei womöglich Ziffern verändert; formatieren Sie die Spalte als Text und geben Sie den Wert erneut ein.',
  'issue.date_as_year':
    '{field}: Die Zelle enthält das Datum {date}, wo eine Jahreszahl hingehört; verwendet wird das Jahr {year}.',
  'issue.date_in_text_column':
    '{field}: Excel hat die Eingabe in das Datum {date} umgewandelt; formatieren Sie die Spalte als Text und geben Sie den Wert erneut ein.',
  'issue.percent_format': '{field}: Die Zelle ist als Prozent formatiert ({value} %); gelesen wird {value}.',
  'issue.required': '{field} ist ein Pflichtfeld, aber die Zelle ist leer.',
  'issue.not_allowed': '{field}: Erwartet wird {expected}; in der Zelle steht {got}.',
  'issue.out_of_range': '{field}: Erwartet wird {expected}; in der Zelle steht {got}.',
  'issue.too_long': '{field} ist {length} Zeichen lang; erlaubt sind höchstens {max}.',
  'issue.control_characters':
    '{field} enthält Steuerzeichen (Zeilenumbrüche, Tabulatoren oder unsichtbare Zeichen); entfernen Sie sie.',
  'issue.clear_required': '{field} ist ein Pflichtfeld und kann nicht mit #CLEAR geleert werden.',
  'issue.rule': 'Regel des Dienstes nicht erfüllt: {rule}',
  'issue.missing_column':
    'Die Spalte {field} fehlt in Zeile {headerRow}, und diese Zeile braucht sie: fügen Sie die Spalte {field} hinzu (z. B. in {headerCell}) oder markieren Sie die Zeile mit {rowAction}.',
  'issue.delete_cells_unused': 'Eine Löschzeile verwendet nur „{label:external_id}“; nicht verwendet: {fields}',
  'issue.rule.err_invalid_secondary_percentage_range': '{ruleField} muss zwischen 0 und 100 liegen.',
  'issue.rule.err_invalid_moisture_content_range': '{ruleField} muss zwischen 0 und 100 liegen.',
  'issue.rule.err_invalid_lifetime_years': '{ruleField} muss größer als 0 sein.',
  'issue.rule.err_not_valid.cas_number': '{got} ist keine CAS-Nummer (z. B. 7732-18-5).',
  'issue.rule.err_not_valid.mass_share': '{ruleField} ist ein Anteil: größer als 0 und höchstens 1.',
  'issue.rule.err_not_valid.mass_kg': '{ruleField} muss größer als 0 sein.',
  'issue.rule.err_not_valid.produced_to': '{ruleField} darf nicht vor „{label:produced_from}“ liegen.',
  'issue.rule.err_not_valid.category':
    '{ruleField} (elementary oder composite) muss angegeben werden, wenn {label:material_type_id} gesetzt ist.',

  // ------------------------------------------------ über Zeilen und Tabellenblätter hinweg
  'issue.duplicate_key':
    '{key} kommt {count}-mal in {sheetName} vor (Zeilen {rows}); jeder Wert darf nur einmal vorkommen.',
  'issue.duplicate_bom_component':
    '{componentType} {component} steht zweimal in der Stückliste von {instance} (zuerst in Zeile {firstRow}); eine Stückliste enthält jede Komponente nur einmal – fassen Sie die Massen in einer Zeile zusammen.',
  'issue.silo_item_plant':
    'Das Lieferantenprodukt {product} gehört zum Werk {productPlant}, das Silo {silo} zum Werk {siloPlant}: Ein Silo enthält nur Lieferantenprodukte seines eigenen Werks.',
  'issue.silo_item_material':
    'Das Lieferantenprodukt {product} hat den Materialcode {material}, anders als die übrigen Einträge des Silos: Alle Lieferantenprodukte eines Silos müssen dieselbe Materialart haben.',
  'issue.silo_item_no_supplier_plant':
    'Beim Lieferantenprodukt {product} (supplier-products, Zeile {productRow}) fehlt {label:supplier_plant_external_id}: Der Dienst lehnt einen Siloeintrag ohne Lieferantenwerk ab; tragen Sie es ein.',
  'issue.code_unknown': '{field}: Den Code „{value}“ gibt es weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.plant':
    '{field}: Der Werkscode „{value}“ steht weder im Blatt plants noch in den Zuordnungen des Profils noch unter den Werken, die dieser API-Schlüssel sieht.',
  'issue.code_unknown.material':
    '{field}: Der Materialcode „{value}“ steht weder im Blatt materials noch in den Zuordnungen des Profils noch unter den Elementaren und Composites des Dienstes.',
  'issue.code_unknown.product': '{field}: Im Dienst gibt es kein Produkt mit der Artikelnummer „{value}“.',
  'issue.code_unknown.supplier_company':
    '{field}: Kein Lieferant mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.supplier_plant':
    '{field}: Kein Lieferantenwerk mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.supplier_product':
    '{field}: Kein Lieferantenprodukt mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.silo':
    '{field}: Kein Silo mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.product_instance':
    '{field}: Keine Produktinstanz mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.code_unknown.prechain_product':
    '{field}: Kein Vorkettenprodukt mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'issue.too_many_issues':
    '{count} weitere Meldungen ({errors} Fehler, {warnings} Warnungen) sind in dieser Liste nicht aufgeführt.',

  // ------------------------------------------------ Probleme des Probelaufs ohne Code der Prüfung (nach Art)
  'problem.validation': 'Prüfung',
  'problem.unresolved': 'Unbekannter Code',
  'problem.dependency_blocked': 'Hängt von einer blockierten Zeile ab',
  'problem.preflight': 'API-Schlüssel',
  'problem.conflict': 'Im Dienst geändert',
  'problem.rule': 'Regel des Dienstes',
  'problem.unreadable': 'Nicht lesbar',
  'problem.duplicate': 'Doppelt',

  // ------------------------------------------------ Probleme des Planers (PLAN_PROBLEM_CODES) und Gruppentitel
  'plan.reference_blocked':
    '{field} „{value}“ verweist auf {target} {targetCode} ({targetSheet}, Zeile {targetRow}); diese Zeile ist blockiert.',
  'plan.reference_blocked.row':
    '{field} „{value}“ verweist auf {targetSheet}, Zeile {targetRow}; diese Zeile ist blockiert.',
  'plan.reference_unknown':
    '{field}: Kein Eintrag vom Typ {entity} mit dem Code „{value}“ ({label:external_id}), weder in dieser Arbeitsmappe noch im Dienst.',
  'plan.plant_unknown':
    '{field}: Der Werkscode „{value}“ steht weder im Blatt plants noch in den Zuordnungen des Profils noch unter den Werken, die dieser API-Schlüssel sieht (der Schlüssel erreicht das Werk womöglich nicht).',
  'plan.material_unknown':
    '{field}: Der Materialcode „{value}“ steht weder im Blatt materials noch in den Zuordnungen des Profils noch unter den Elementaren und Composites des Dienstes.',
  'plan.product_unknown':
    '{field}: Im Dienst gibt es kein Produkt mit der Artikelnummer „{value}“ (Produkte werden in der Weboberfläche angelegt).',
  'plan.service_unreadable': '{field}: {what} konnten nicht vom Dienst gelesen werden: {detail}',
  'plan.service_unreadable.permission':
    '{field}: {what} konnten nicht vom Dienst gelesen werden (dem Schlüssel fehlt die Berechtigung dafür): {detail}',
  'plan.duplicate_external_id':
    '{label:external_id} „{value}“ kommt in {sheet} mehrfach vor (zuerst in {firstSheet}, Zeile {firstRow}).',
  'plan.duplicate_external_id.elsewhere':
    '{label:external_id} „{value}“ kommt in {sheet} mehrfach vor (zuerst in einer anderen Zeile).',
  'plan.no_owner_code': 'Die Zeile hat keinen Code, dem sie zugeordnet werden kann.',
  'plan.not_on_service': '{entity} {value} ist nicht im Dienst vorhanden.',
  'plan.silo_without_items': 'Das Silo {value} braucht mindestens einen Eintrag im Blatt silo-items.',
  'plan.silo_rule': 'Das Lieferantenprodukt {value} verletzt eine Silo-Regel des Dienstes ({errCode}).',
  'plan.silo_rule.no_items': 'Ein Silo braucht mindestens einen Eintrag ({errCode}).',
  'plan.silo_rule.twice': 'Das Lieferantenprodukt {value} kommt mehrfach vor ({errCode}).',
  'plan.silo_rule.not_found': 'Das Lieferantenprodukt {value} wurde nicht gefunden ({errCode}).',
  'plan.silo_rule.other_plant': 'Das Lieferantenprodukt {value} gehört nicht zum Werk des Silos ({errCode}).',
  'plan.silo_rule.no_supplier_plant': 'Das Lieferantenprodukt {value} hat kein Lieferantenwerk ({errCode}).',
  'plan.silo_rule.material': 'Alle Lieferantenprodukte eines Silos müssen dieselbe Materialart haben ({errCode}).',
  'plan.snapshot_conflict':
    'Diese Zeile wurde aus dem Dienst exportiert und der Eintrag hat sich seitdem geändert: Exportieren Sie erneut (oder leeren Sie die Zelle _snapshot, um mit den aktuellen Daten zu vergleichen).',
  'plan.snapshot_conflict.changed':
    'Diese Zeile wurde aus dem Dienst exportiert und der Eintrag wurde seit dem Export im Dienst geändert: Exportieren Sie erneut (oder leeren Sie die Zelle _snapshot, um mit den aktuellen Daten zu vergleichen).',
  'plan.snapshot_conflict.deleted':
    'Diese Zeile wurde aus dem Dienst exportiert und der Eintrag wurde seit dem Export im Dienst gelöscht: Exportieren Sie erneut (oder leeren Sie die Zelle _snapshot, um mit den aktuellen Daten zu vergleichen).',
  'plan.snapshot_conflict.unreadable':
    'Diese Zeile wurde aus dem Dienst exportiert und der Eintrag konnte nicht gelesen werden: Exportieren Sie erneut (oder leeren Sie die Zelle _snapshot, um mit den aktuellen Daten zu vergleichen).',
  'plan.missing_scope': 'Dem API-Schlüssel fehlt die Berechtigung {scope}, um {entities} zu {action}.',
  'plan.plant_unreachable': 'Der API-Schlüssel erreicht das Werk {plant} nicht.',
  'plan.key_unusable': 'API-Schlüssel: {detail}',
  'plan.row_rule': 'Regel: {detail}',
  'plan.row_rule.outside_period': 'Das Jahr {year} liegt außerhalb des Produktionszeitraums der Instanz ({from}–{to}).',
  'plan.row_rule.outside_period_open': 'Das Jahr {year} liegt vor dem Produktionszeitraum der Instanz (ab {from}).',
  // was eine Rücknahme nicht sendet: seit dem Auftrag im Dienst geändert, oder vom Auftrag nicht festgehalten
  'plan.snapshot_conflict.undo_instance_deleted': 'Die Produktinstanz wurde seit Auftrag {jobId} im Dienst gelöscht.',
  'plan.snapshot_conflict.undo_figures_changed':
    'Die Produktionsmengen von {years} wurden seit Auftrag {jobId} im Dienst geändert.',
  'plan.snapshot_conflict.undo_bom_changed': 'Die Stückliste wurde seit Auftrag {jobId} im Dienst geändert.',
  'plan.snapshot_conflict.undo_changed': 'Seit Auftrag {jobId} im Dienst geändert: {fields}',
  'plan.snapshot_conflict.undo_deleted': 'Seit Auftrag {jobId} im Dienst gelöscht.',
  'plan.snapshot_conflict.undo_code_taken':
    'Seit Auftrag {jobId} wurde im Dienst ein anderer Eintrag mit dem Code „{value}“ ({label:external_id}) angelegt (ID {id}).',
  'plan.row_rule.undo_figures_added':
    'Die Produktionsmengen von {years} hat Auftrag {jobId} hinzugefügt; sie werden nicht zurückgenommen: Der Dienst setzt Jahre, er kann keines wieder entfernen.',
  'plan.row_rule.undo_bom_not_recorded':
    'Die Stückliste vor Auftrag {jobId} wurde nicht festgehalten: Sie kann nicht wiederhergestellt werden.',
  'plan.row_rule.undo_children_not_recorded':
    'Stückliste und Produktionsmengen von {value} wurden nicht festgehalten, bevor Auftrag {jobId} die Instanz löschte: Die Instanz wird ohne sie neu angelegt.',
  'plan.row_has_errors': 'Die Zeile hat Fehler (siehe Prüfbericht).',
  'plan.in_use':
    '{entity} {value} wird noch verwendet von {users}: zuerst diese Verwendung entfernen (oder sie in diesem Import mit löschen).',
  'plan.mirror_cap':
    'Der Abgleich von {sheet} würde {count} Einträge löschen, mehr als die Obergrenze von {cap} Löschungen je Import: es wird nichts gelöscht.',
  'entity.supplier_company': 'Lieferant',
  'entity.supplier_plant': 'Lieferantenwerk',
  'entity.supplier_product': 'Lieferantenprodukt',
  'entity.silo': 'Silo',
  'entity.product_instance': 'Produktinstanz',
  'entity.prechain_product': 'Vorkettenprodukt',
  'entity.bom': 'Stückliste',
  'entities.supplier_company': 'Lieferanten',
  'entities.supplier_plant': 'Lieferantenwerke',
  'entities.supplier_product': 'Lieferantenprodukte',
  'entities.silo': 'Silos',
  'entities.product_instance': 'Produktinstanzen',
  'entities.prechain_product': 'Vorkettenprodukte',
  'entities.bom': 'Stücklisten',
  'verb.create': 'anlegen',
  'verb.update': 'ändern',
  'verb.replace': 'ersetzen',
  'resource.supplier_companies': 'Lieferanten',
  'resource.supplier_plants': 'Lieferantenwerke',
  'resource.supplier_products': 'Lieferantenprodukte',
  'resource.silos': 'Silos',
  'resource.product_instances': 'Produktinstanzen',
  'resource.prechain_products': 'Vorkettenprodukte',
  'resource.products': 'Produkte',
  'resource.plants': 'Werke',
  'resource.material_types_elementaries': 'Materialarten (Elementare)',
  'resource.material_types_composites': 'Materialarten (Composites)',
  'issueGroup.file_not_found': 'Datei nicht gefunden',
  'issueGroup.file_empty': 'Leere Datei',
  'issueGroup.file_too_large': 'Datei zu groß',
  'issueGroup.not_a_zip': 'Keine .xlsx-Datei',
  'issueGroup.csv_renamed': 'CSV-Datei mit .xlsx-Namen',
  'issueGroup.legacy_xls': 'Altes Excel-Format (.xls)',
  'issueGroup.password_protected': 'Passwortgeschützt',
  'issueGroup.other_format': 'Anderes Dateiformat',
  'issueGroup.corrupt_zip': 'Beschädigte Datei',
  'issueGroup.not_a_workbook': 'Keine Excel-Arbeitsmappe',
  'issueGroup.zip_bomb': 'Unsichere Datei (Zip-Bombe)',
  'issueGroup.xml_entity': 'Unsichere XML-Deklaration',
  'issueGroup.too_many_rows': 'Zu viele Zeilen',
  'issueGroup.no_known_sheet': 'Kein Supply-Loader-Tabellenblatt',
  'issueGroup.sheet_unreadable': 'Tabellenblatt nicht lesbar',
  'issueGroup.unreadable': 'Arbeitsmappe nicht lesbar',
  'issueGroup.unknown_sheet': 'Unbekanntes Tabellenblatt',
  'issueGroup.sheet_name_normalised': 'Blattname abweichend gelesen',
  'issueGroup.duplicate_sheet': 'Tabellenblatt doppelt',
  'issueGroup.hidden_sheet': 'Ausgeblendetes Tabellenblatt',
  'issueGroup.missing_header': 'Fehlende Spalte',
  'issueGroup.duplicate_header': 'Spalte doppelt',
  'issueGroup.unknown_column': 'Unbekannte Spalte',
  'issueGroup.misnamed_column': 'Falsch benannte Spalte',
  'issueGroup.no_data_rows': 'Keine Datenzeilen',
  'issueGroup.source_without_sheet': 'Datei ohne Blatt',
  'issueGroup.header_normalised': 'Spaltenname abweichend gelesen',
  'issueGroup.data_without_header': 'Daten ohne Spaltennamen',
  'issueGroup.merged_cell': 'Verbundene Zellen',
  'issueGroup.formula_error': 'Formelfehler',
  'issueGroup.formula_without_result': 'Formel ohne Ergebnis',
  'issueGroup.wrong_type': 'Falscher Werttyp',
  'issueGroup.number_as_text_ambiguous': 'Mehrdeutige Zahl als Text',
  'issueGroup.number_as_text_imprecise': 'Von Excel veränderte Zahl',
  'issueGroup.date_as_year': 'Datum statt Jahreszahl',
  'issueGroup.date_in_text_column': 'Text in Datum umgewandelt',
  'issueGroup.percent_format': 'Prozentformat',
  'issueGroup.required': 'Pflichtwert fehlt',
  'issueGroup.not_allowed': 'Wert nicht zulässig',
  'issueGroup.out_of_range': 'Wert außerhalb des Bereichs',
  'issueGroup.too_long': 'Text zu lang',
  'issueGroup.control_characters': 'Steuerzeichen',
  'issueGroup.clear_required': 'Pflichtwert geleert',
  'issueGroup.rule': 'Regel des Dienstes',
  'issueGroup.missing_column': 'Spalte fehlt für eine Zeile',
  'issueGroup.delete_cells_unused': 'Zellen von Löschzeilen nicht verwendet',
  'issueGroup.duplicate_key': 'Doppelter Code',
  'issueGroup.duplicate_bom_component': 'Komponente doppelt in Stückliste',
  'issueGroup.silo_item_plant': 'Siloeintrag eines anderen Werks',
  'issueGroup.silo_item_material': 'Siloeintrag mit anderem Material',
  'issueGroup.silo_item_no_supplier_plant': 'Siloeintrag ohne Lieferantenwerk',
  'issueGroup.code_unknown': 'Unbekannter Code',
  'issueGroup.too_many_issues': 'Weitere Meldungen ausgelassen',
};
