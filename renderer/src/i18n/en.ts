/**
 * English UI strings: the reference catalogue. de.ts must have exactly the same keys
 * (checked by the compiler and by test/renderer/i18n.test.ts). `{name}` marks a placeholder.
 */
export const en = {
  'app.skipToContent': 'Skip to content',
  'nav.label': 'Main navigation',
  'nav.connection': 'Connection',
  'nav.templates': 'Templates',
  'nav.import': 'Import',
  'nav.jobs': 'Jobs',
  'nav.export': 'Export',
  'nav.lca': 'LCA',

  'prefs.language': 'Language',
  'prefs.languageSystem': 'As the system',
  'prefs.theme': 'Colours',
  'prefs.themeSystem': 'As the system',
  'prefs.themeLight': 'Light',
  'prefs.themeDark': 'Dark',

  'common.loading': 'Loading…',
  'common.save': 'Save',
  'common.cancel': 'Cancel',
  'common.delete': 'Delete',
  'common.edit': 'Edit',
  'common.dismiss': 'Dismiss',

  'connection.intro':
    'Choose where Supply Loader sends your data. The built-in Sandbox is a local copy of the service with demo data, so you can try everything without an account.',
  'connection.profiles': 'Connection profiles',
  'connection.newProfile': 'New profile',
  'connection.editProfile': 'Edit profile “{name}”',
  'connection.builtIn': 'built-in',
  'connection.active': 'active',
  'connection.use': 'Use',
  'connection.useProfileNamed': 'Use profile {name}',
  'connection.editProfileNamed': 'Edit profile {name}',
  'connection.sandboxNotRunning': 'Sandbox not running',
  'connection.noKey': 'No API key',
  'connection.profileName': 'Profile name',
  'connection.baseUrl': 'Base URL',
  'connection.apiKey': 'API key',
  'connection.keyKeepPlaceholder': 'Stored: {masked} — leave empty to keep it',
  'connection.keyHintEncrypted': 'The key is encrypted with your system keychain and never shown again.',
  'connection.keyHintFile': 'In browser mode the key is kept in a file only your user can read; it is not encrypted.',
  'connection.removeKey': 'Forget the stored key',
  'connection.deleteConfirm': 'Delete the profile “{name}” and its stored key?',
  'connection.keysBasicText':
    'No system keychain was found (Linux “basic_text”): stored API keys are only obfuscated, not encrypted. Anyone who can read your files could recover them.',
  'connection.keysPlainFile':
    'Browser mode keeps API keys in a file readable only by your user account. It is not encrypted; use the desktop app for keychain encryption.',
  'connection.keysUnavailable': 'The system keychain is not available, so API keys cannot be stored.',

  'profileForm.nameRequired': 'Give the profile a name.',
  'profileForm.urlInvalid': 'Enter an address starting with https:// (or http://), e.g. https://api.example.com.',
  'profileForm.urlCredentials': 'Leave user name and password out of the address.',
  'profileForm.keyFormat': 'An API key looks like svc-<key id>-<secret>. Copy it whole from Settings › Integrations › API Keys.',
  'profileForm.keyRequired': 'Enter the API key.',

  'sandbox.title': 'Embedded sandbox',
  'sandbox.explain':
    'The Sandbox profile talks to a local implementation of API v2 that runs inside Supply Loader, loaded with demo data of a cement, concrete and gypsum producer.',
  'sandbox.state': 'State',
  'sandbox.state.stopped': 'Stopped',
  'sandbox.state.starting': 'Starting…',
  'sandbox.state.running': 'Running',
  'sandbox.state.failed': 'Failed to start',
  'sandbox.reset': 'Reset demo data',
  'sandbox.resetConfirm': 'Reset the sandbox? Everything created in it is deleted and the demo data is restored.',
  'sandbox.resetNow': 'Reset now',
  'sandbox.resetDone': 'The demo data has been restored.',

  'templates.intro': 'Download Excel templates for your supplier and recipe data.',

  'coming.title': 'Coming soon',
  'coming.import': 'Import a filled workbook: validation by cell, a dry run against the service, then the run with a per-row report.',
  'coming.jobs': 'The history of your imports with their reports; an interrupted job can be resumed.',
  'coming.export': 'Export any collection from the service to a workbook in the template format.',
  'coming.lca': 'Recompute LCA results, follow their status and export them to Excel.',

  'error.invalid_input': 'Some values are not valid.',
  'error.unknown_procedure': 'The app sent a request this version does not know.',
  'error.forbidden': 'The request was refused.',
  'error.not_found': 'Not found.',
  'error.unavailable': 'Not available right now.',
  'error.api_error': 'The service refused the request.',
  'error.network_error': 'The service could not be reached.',
  'error.internal': 'Something went wrong inside Supply Loader.',
  'error.unknownCode': 'An error code this version does not know yet. The service said: {message}',
  'error.errCodeTitle': 'Error code from the service',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
