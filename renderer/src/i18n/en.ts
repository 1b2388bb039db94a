/**
 * English UI strings: the reference catalogue. de.ts must have exactly the same keys
 * (checked by the compiler and by test/renderer/i18n.test.ts). `{name}` marks a placeholder.
 */
import { enIssues } from './issues-en.js';
import { enScreens } from './en-screens.js';
import { enFields } from './fields-en.js';
import { enWords } from './words-en.js';
import { enImpact } from './impact-en.js';

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
  'connection.noKeyHint': 'The profile “{name}” has no API key yet. Choose Edit and enter one to see what it may do.',
  'connection.profileName': 'Profile name',
  'connection.baseUrl': 'Base URL',
  'connection.apiKey': 'API key',
  'connection.keyKeepPlaceholder': 'Stored: {masked} — leave empty to keep it',
  'connection.keyHintEncrypted': 'The key is encrypted with your system keychain and never shown again.',
  'connection.keyRefusedNotSaved':
    'Nothing was saved: the service refused this key. Check the key and the base URL, then save again.',
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
  'profileForm.keyFormat':
    'An API key looks like svc-<key id>-<secret>. Copy it whole from Settings › Integrations › API Keys.',
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

  'keyCheck.title': 'What the service says about the key of “{name}”',
  'keyCheck.checking': 'Checking…',
  'keyCheck.again': 'Check again',
  'keyCheck.use': 'Use this connection',
  'app.activeConnection': 'Active connection',
  'keyCheck.keyId': 'Key id',
  'keyCheck.manufacturer': 'Manufacturer',
  'keyCheck.expires': 'Expires',
  'keyCheck.noExpiry': 'No expiry given',
  'keyCheck.scopes': 'Scopes',
  'keyCheck.granted': 'granted',
  'keyCheck.notGranted': 'not granted',
  'keyCheck.plants': 'Plants the key reaches ({count})',
  'keyCheck.noPlants': 'The key currently reaches no plants: nothing at a plant can be read or written with it.',
  'keyCheck.plantCode': 'Plant code',
  'keyCheck.plantName': 'Name',
  'keyCheck.plantId': 'Service id',
  'keyCheck.plantsUnreadable': 'The key may not read plants (view:plants), so only the ids are shown.',
  'keyCheck.allScopes': 'The key has every scope that import, LCA and export need.',
  'keyCheck.missingTitle': 'The key lacks scopes your jobs need; the service would refuse those requests (403):',
  'keyCheck.neededFor': 'Needed for: {jobs}.',
  'keyCheck.expired': 'The key expired at {at}. Ask an account owner for a new one.',
  'keyCheck.expiring': 'The key expires soon ({at}). Ask an account owner for a new one in time.',

  'job.import': 'Import',
  'job.lca': 'LCA',
  'job.export': 'Export',

  'scope.view:plants': 'read plants',
  'scope.view:processes': 'read production processes and production figures',
  'scope.edit:processes': 'write production figures',
  'scope.view:materials':
    'read supplier companies, supplier plants, supplier products, silos, composites and prechain products',
  'scope.edit:materials':
    'create, update and delete supplier companies, supplier plants, supplier products, silos and prechain products',
  'scope.view:products': 'read product instances and their LCA results',
  'scope.edit:products': 'create, update and delete product instances, and run an LCA',
  'scope.view:recipes': 'read BOMs and the per-source impact breakdown',
  'scope.edit:recipes': 'write BOMs',

  'templates.intro':
    'Start here: download an Excel template, fill it with your supplier and recipe data, then import it. Each sheet is one kind of entity; row 1 holds the field names and every header cell explains its field.',
  'templates.prefillTitle': 'Reference data',
  'templates.prefill': 'Pre-fill plants, material codes and products from the active connection ({profile})',
  'templates.prefillHint':
    'Adds the plants and material codes of the service to the mapping sheets and a products sheet with the article numbers, so you can look codes up while filling the template.',
  'templates.combinedTitle': 'Onboarding workbook (all sheets)',
  'templates.combinedText':
    'One workbook with every sheet in onboarding order and an Instructions sheet. Recommended for a first import.',
  'templates.downloadCombined': 'Download onboarding workbook',
  'templates.perSheetTitle': 'One sheet per workbook',
  'templates.perSheetText': 'For updating one kind of data, e.g. this year’s silo purchase volumes.',
  'templates.sheet': 'Sheet',
  'templates.contents': 'Contents',
  'templates.download': 'Download',
  'templates.downloadSheet': 'Download the template for sheet {sheet}',
  'templates.preparing': 'Preparing…',
  'templates.downloaded': 'Downloaded {file} ({size}).',
  'templates.prefilledWith': 'Pre-filled with {plants} plants, {materials} material codes and {products} products.',
  'templates.skipped': 'The {part} were left out: the key may not read them.',
  'templates.part.plants': 'plants',
  'templates.part.materials': 'material codes',
  'templates.part.products': 'products',

  'sheet.supplier-companies': 'Your suppliers (companies).',
  'sheet.supplier-plants': 'The plants of your suppliers, each belonging to a supplier company.',
  'sheet.supplier-products':
    'The materials you buy: material type, your plant, the supplier plant, transport route and properties.',
  'sheet.hazardous-substances': 'Hazardous substances of supplier products by CAS number and mass share.',
  'sheet.silos': 'Silos at your plants that merge same-type supplier products.',
  'sheet.silo-items': 'What goes into each silo: supplier products with their yearly purchase amounts.',
  'sheet.product-instances': 'Your products as made at a plant over a period of years.',
  'sheet.prechain-products': 'Product instances used as upstream inputs at one of your plants.',
  'sheet.bom': 'Bills of materials: the components of each product instance with their mass.',
  'sheet.plants': 'Mapping of your plant codes to the service’s plants.',
  'sheet.materials': 'Mapping of your material codes to the service’s material types.',
  'sheet.production': 'Production figures per product instance and year, in the product’s unit (needed by the LCA).',

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

  // Import, Jobs, Export and LCA screens
  ...enScreens,
  // Issues of the workbook check and problems of the dry run, by code
  ...enIssues,
  // Typed numbers
  ...enWords,
  ...enImpact,
  ...enFields,
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
