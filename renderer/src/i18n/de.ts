/** Deutsche Oberflächentexte: dieselben Schlüssel wie en.ts. */
import type { Messages } from './en.js';

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
  'connection.profileName': 'Profilname',
  'connection.baseUrl': 'Basis-URL',
  'connection.apiKey': 'API-Schlüssel',
  'connection.keyKeepPlaceholder': 'Gespeichert: {masked} – leer lassen, um ihn zu behalten',
  'connection.keyHintEncrypted': 'Der Schlüssel wird mit dem Schlüsselbund des Systems verschlüsselt und nie wieder angezeigt.',
  'connection.keyHintFile': 'Im Browsermodus liegt der Schlüssel in einer Datei, die nur Ihr Benutzer lesen kann; er ist nicht verschlüsselt.',
  'connection.removeKey': 'Gespeicherten Schlüssel entfernen',
  'connection.deleteConfirm': 'Das Profil „{name}“ und seinen gespeicherten Schlüssel löschen?',
  'connection.keysBasicText':
    'Es wurde kein Schlüsselbund des Systems gefunden (Linux „basic_text“): Gespeicherte API-Schlüssel sind nur verschleiert, nicht verschlüsselt. Wer Ihre Dateien lesen kann, könnte sie wiederherstellen.',
  'connection.keysPlainFile':
    'Der Browsermodus speichert API-Schlüssel in einer Datei, die nur Ihr Benutzerkonto lesen kann. Sie ist nicht verschlüsselt; die Desktop-App verschlüsselt mit dem Schlüsselbund.',
  'connection.keysUnavailable': 'Der Schlüsselbund des Systems ist nicht verfügbar, daher können keine API-Schlüssel gespeichert werden.',

  'profileForm.nameRequired': 'Geben Sie dem Profil einen Namen.',
  'profileForm.urlInvalid': 'Geben Sie eine Adresse ein, die mit https:// (oder http://) beginnt, z. B. https://api.example.com.',
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
  'sandbox.resetConfirm': 'Sandbox zurücksetzen? Alles darin Angelegte wird gelöscht und die Demodaten werden wiederhergestellt.',
  'sandbox.resetNow': 'Jetzt zurücksetzen',
  'sandbox.resetDone': 'Die Demodaten wurden wiederhergestellt.',

  'templates.intro': 'Excel-Vorlagen für Ihre Lieferanten- und Rezepturdaten herunterladen.',

  'coming.title': 'Folgt in Kürze',
  'coming.import': 'Eine ausgefüllte Arbeitsmappe importieren: Prüfung je Zelle, ein Probelauf gegen den Dienst, dann der Lauf mit einem Bericht je Zeile.',
  'coming.jobs': 'Der Verlauf Ihrer Importe mit ihren Berichten; ein unterbrochener Auftrag kann fortgesetzt werden.',
  'coming.export': 'Jede Sammlung des Dienstes in eine Arbeitsmappe im Vorlagenformat exportieren.',
  'coming.lca': 'Ökobilanz-Ergebnisse neu berechnen, ihren Stand verfolgen und nach Excel exportieren.',

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
};
