/** Deutsche Oberflächentexte: dieselben Schlüssel wie en.ts. */
import type { Messages } from './en.js';
import { deIssues } from './issues-de.js';
import { deScreens } from './de-screens.js';
import { deFields } from './fields-de.js';
import { deWords } from './words-de.js';
import { deImpact } from './impact-de.js';

export const de: Messages = {
  'app.skipToContent': 'Zum Inhalt springen',
  'nav.label': 'Hauptnavigation',
  'nav.connection': 'Verbindung',
  'nav.templates': 'Vorlagen',
  'nav.import': 'Import',
  'nav.jobs': 'Aufträge',
  'nav.export': 'Export',
  'nav.lca': 'Ökobilanz',

  'prefs.language': 'Sprache',
  'prefs.languageSystem': 'Wie das System',
  'prefs.theme': 'Farben',
  'prefs.themeSystem': 'Wie das System',
  'prefs.themeLight': 'Hell',
  'prefs.themeDark': 'Dunkel',

  'common.loading': 'Wird geladen …',
  'common.save': 'Speichern',
  'common.cancel': 'Abbrechen',
  'common.delete': 'Löschen',
  'common.edit': 'Bearbeiten',
  'common.dismiss': 'Schließen',

  'connection.intro':
    'Wählen Sie, wohin Supply Loader Ihre Daten sendet. Die eingebaute Sandbox ist eine lokale Kopie des Dienstes mit Demodaten – so können Sie alles ohne Konto ausprobieren.',
  'connection.profiles': 'Verbindungsprofile',
  'connection.newProfile': 'Neues Profil',
  'connection.editProfile': 'Profil „{name}“ bearbeiten',
  'connection.builtIn': 'eingebaut',
  'connection.active': 'aktiv',
  'connection.use': 'Verwenden',
  'connection.useProfileNamed': 'Profil {name} verwenden',
  'connection.editProfileNamed': 'Profil {name} bearbeiten',
  'connection.sandboxNotRunning': 'Sandbox läuft nicht',
  'connection.noKey': 'Kein API-Schlüssel',
  'connection.noKeyHint':
    'Das Profil „{name}“ hat noch keinen API-Schlüssel. Wählen Sie „Bearbeiten“ und geben Sie einen ein, um zu sehen, was er darf.',
  'connection.profileName': 'Profilname',
  'connection.baseUrl': 'Basis-URL',
  'connection.apiKey': 'API-Schlüssel',
  'connection.keyKeepPlaceholder': 'Gespeichert: {masked} – leer lassen, um ihn zu behalten',
  'connection.keyHintEncrypted':
    'Der Schlüssel wird mit dem Schlüsselbund des Systems verschlüsselt und nie wieder angezeigt.',
  'connection.keyRefusedNotSaved':
    'Nichts wurde gespeichert: Der Dienst hat diesen Schlüssel abgelehnt. Schlüssel und Basis-URL prüfen, dann erneut speichern.',
  'connection.keyHintFile':
    'Im Browsermodus liegt der Schlüssel in einer Datei, die nur Ihr Benutzer lesen kann; er ist nicht verschlüsselt.',
  'connection.removeKey': 'Gespeicherten Schlüssel entfernen',
  'connection.deleteConfirm': 'Das Profil „{name}“ und seinen gespeicherten Schlüssel löschen?',
  'connection.keysBasicText':
    'Es wurde kein Schlüsselbund des Systems gefunden (Linux „basic_text“): Gespeicherte API-Schlüssel sind nur verschleiert, nicht verschlüsselt. Wer Ihre Dateien lesen kann, könnte sie wiederherstellen.',
  'connection.keysPlainFile':
    'Der Browsermodus speichert API-Schlüssel in einer Datei, die nur Ihr Benutzerkonto lesen kann. Sie ist nicht verschlüsselt; die Desktop-App verschlüsselt mit dem Schlüsselbund.',
  'connection.keysUnavailable':
    'Der Schlüsselbund des Systems ist nicht verfügbar, daher können keine API-Schlüssel gespeichert werden.',

  'profileForm.nameRequired': 'Geben Sie dem Profil einen Namen.',
  'profileForm.urlInvalid':
    'Geben Sie eine Adresse ein, die mit https:// (oder http://) beginnt, z. B. https://api.example.com.',
  'profileForm.urlCredentials': 'Lassen Sie Benutzername und Passwort aus der Adresse weg.',
  'profileForm.keyFormat':
    'Ein API-Schlüssel hat die Form svc-<Schlüssel-ID>-<Geheimnis>. Kopieren Sie ihn vollständig aus Einstellungen › Integrationen › API-Schlüssel.',
  'profileForm.keyRequired': 'Geben Sie den API-Schlüssel ein.',

  'sandbox.title': 'Eingebaute Sandbox',
  'sandbox.explain':
    'Das Profil „Sandbox“ spricht mit einer lokalen Umsetzung der API v2, die in Supply Loader läuft, mit Demodaten eines Zement-, Beton- und Gipsherstellers.',
  'sandbox.state': 'Zustand',
  'sandbox.state.stopped': 'Angehalten',
  'sandbox.state.starting': 'Startet …',
  'sandbox.state.running': 'Läuft',
  'sandbox.state.failed': 'Start fehlgeschlagen',
  'sandbox.reset': 'Demodaten zurücksetzen',
  'sandbox.resetConfirm':
    'Sandbox zurücksetzen? Alles darin Angelegte wird gelöscht und die Demodaten werden wiederhergestellt.',
  'sandbox.resetNow': 'Jetzt zurücksetzen',
  'sandbox.resetDone': 'Die Demodaten wurden wiederhergestellt.',

  'keyCheck.title': 'Was der Dienst zum Schlüssel von „{name}“ sagt',
  'keyCheck.checking': 'Wird geprüft …',
  'keyCheck.again': 'Erneut prüfen',
  'keyCheck.use': 'Diese Verbindung verwenden',
  'app.activeConnection': 'Aktive Verbindung',
  'keyCheck.keyId': 'Schlüssel-ID',
  'keyCheck.manufacturer': 'Hersteller',
  'keyCheck.expires': 'Läuft ab',
  'keyCheck.noExpiry': 'Kein Ablaufdatum angegeben',
  'keyCheck.scopes': 'Berechtigungen',
  'keyCheck.granted': 'erteilt',
  'keyCheck.notGranted': 'nicht erteilt',
  'keyCheck.plants': 'Erreichbare Werke ({count})',
  'keyCheck.noPlants':
    'Der Schlüssel erreicht derzeit kein Werk: Nichts an einem Werk kann damit gelesen oder geschrieben werden.',
  'keyCheck.plantCode': 'Werkscode',
  'keyCheck.plantName': 'Name',
  'keyCheck.plantId': 'Dienst-ID',
  'keyCheck.plantsUnreadable': 'Der Schlüssel darf keine Werke lesen (view:plants), daher werden nur die IDs gezeigt.',
  'keyCheck.allScopes': 'Der Schlüssel hat alle Berechtigungen, die Import, Ökobilanz und Export brauchen.',
  'keyCheck.missingTitle':
    'Dem Schlüssel fehlen Berechtigungen, die Ihre Aufträge brauchen; der Dienst würde diese Anfragen ablehnen (403):',
  'keyCheck.neededFor': 'Benötigt für: {jobs}.',
  'keyCheck.expired': 'Der Schlüssel ist am {at} abgelaufen. Bitten Sie einen Kontoinhaber um einen neuen.',
  'keyCheck.expiring': 'Der Schlüssel läuft bald ab ({at}). Bitten Sie rechtzeitig einen Kontoinhaber um einen neuen.',

  'job.import': 'Import',
  'job.lca': 'Ökobilanz',
  'job.export': 'Export',

  'scope.view:plants': 'Werke lesen',
  'scope.view:processes': 'Produktionsprozesse und Produktionsmengen lesen',
  'scope.edit:processes': 'Produktionsmengen schreiben',
  'scope.view:materials':
    'Lieferanten, Lieferantenwerke, Lieferantenprodukte, Silos, Verbundstoffe und Vorkettenprodukte lesen',
  'scope.edit:materials':
    'Lieferanten, Lieferantenwerke, Lieferantenprodukte, Silos und Vorkettenprodukte anlegen, ändern und löschen',
  'scope.view:products': 'Produktinstanzen und ihre Ökobilanz-Ergebnisse lesen',
  'scope.edit:products': 'Produktinstanzen anlegen, ändern und löschen sowie eine Ökobilanz berechnen',
  'scope.view:recipes': 'Stücklisten und die Aufschlüsselung der Wirkungen nach Quelle lesen',
  'scope.edit:recipes': 'Stücklisten schreiben',

  'templates.intro':
    'Hier beginnen: eine Excel-Vorlage herunterladen, mit Ihren Lieferanten- und Rezepturdaten füllen und dann importieren. Jedes Blatt ist eine Art von Objekt; Zeile 1 enthält die Feldnamen, und jede Kopfzelle erklärt ihr Feld.',
  'templates.prefillTitle': 'Referenzdaten',
  'templates.prefill': 'Werke, Materialcodes und Produkte aus der aktiven Verbindung vorausfüllen ({profile})',
  'templates.prefillHint':
    'Trägt die Werke und Materialcodes des Dienstes in die Zuordnungsblätter ein und fügt ein Blatt „products“ mit den Artikelnummern hinzu, damit Sie Codes beim Ausfüllen nachschlagen können.',
  'templates.combinedTitle': 'Onboarding-Arbeitsmappe (alle Blätter)',
  'templates.combinedText':
    'Eine Arbeitsmappe mit allen Blättern in Onboarding-Reihenfolge und einem Blatt „Instructions“. Empfohlen für den ersten Import.',
  'templates.downloadCombined': 'Onboarding-Arbeitsmappe herunterladen',
  'templates.perSheetTitle': 'Ein Blatt je Arbeitsmappe',
  'templates.perSheetText': 'Zum Aktualisieren einer Datenart, z. B. der diesjährigen Silo-Einkaufsmengen.',
  'templates.sheet': 'Blatt',
  'templates.contents': 'Inhalt',
  'templates.download': 'Herunterladen',
  'templates.downloadSheet': 'Vorlage für das Blatt {sheet} herunterladen',
  'templates.preparing': 'Wird erstellt …',
  'templates.downloaded': '{file} heruntergeladen ({size}).',
  'templates.prefilledWith': 'Vorausgefüllt mit {plants} Werken, {materials} Materialcodes und {products} Produkten.',
  'templates.skipped': 'Die {part} wurden ausgelassen: Der Schlüssel darf sie nicht lesen.',
  'templates.part.plants': 'Werke',
  'templates.part.materials': 'Materialcodes',
  'templates.part.products': 'Produkte',

  'sheet.supplier-companies': 'Ihre Lieferanten (Unternehmen).',
  'sheet.supplier-plants': 'Die Werke Ihrer Lieferanten, jeweils einem Lieferanten zugeordnet.',
  'sheet.supplier-products':
    'Die Materialien, die Sie einkaufen: Materialart, Ihr Werk, das Lieferantenwerk, Transportweg und Eigenschaften.',
  'sheet.hazardous-substances': 'Gefahrstoffe von Lieferantenprodukten nach CAS-Nummer und Massenanteil.',
  'sheet.silos': 'Silos an Ihren Werken, die gleichartige Lieferantenprodukte zusammenführen.',
  'sheet.silo-items': 'Was in jedes Silo geht: Lieferantenprodukte mit ihren jährlichen Einkaufsmengen.',
  'sheet.product-instances': 'Ihre Produkte, wie sie an einem Werk über einen Zeitraum von Jahren hergestellt werden.',
  'sheet.prechain-products': 'Produktinstanzen, die an einem Ihrer Werke als Vorprodukt eingesetzt werden.',
  'sheet.bom': 'Stücklisten: die Bestandteile jeder Produktinstanz mit ihrer Masse.',
  'sheet.plants': 'Zuordnung Ihrer Werkscodes zu den Werken des Dienstes.',
  'sheet.materials': 'Zuordnung Ihrer Materialcodes zu den Materialarten des Dienstes.',
  'sheet.production':
    'Produktionsmengen je Produktinstanz und Jahr, in der Einheit des Produkts (für die Ökobilanz nötig).',

  'error.invalid_input': 'Einige Werte sind ungültig.',
  'error.unknown_procedure': 'Die App hat eine Anfrage gesendet, die diese Version nicht kennt.',
  'error.forbidden': 'Die Anfrage wurde abgelehnt.',
  'error.not_found': 'Nicht gefunden.',
  'error.unavailable': 'Derzeit nicht verfügbar.',
  'error.api_error': 'Der Dienst hat die Anfrage abgelehnt.',
  'error.network_error': 'Der Dienst ist nicht erreichbar.',
  'error.internal': 'In Supply Loader ist etwas schiefgelaufen.',
  'error.unknownCode': 'Ein Fehlercode, den diese Version noch nicht kennt. Der Dienst meldete: {message}',
  'error.errCodeTitle': 'Fehlercode des Dienstes',

  // Bildschirme Import, Aufträge, Export und Ökobilanz
  ...deScreens,
  // Meldungen der Prüfung und Probleme des Probelaufs, nach Code
  ...deIssues,
  // Eingegebene Zahlen
  ...deWords,
  ...deImpact,
  ...deFields,
};
