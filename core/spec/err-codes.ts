/**
 * The error catalog of API v2 as data: every err_code the spec lists under "All codes the platform can emit",
 * grouped exactly as the spec groups them, each with a one-line explanation and, where one is clear, what the
 * user should do — in English and German (the UI is bilingual). Shared by the sandbox, the client, the UI and
 * reports. Clients branch on err_code, never on msg.
 *
 * Not in this catalog (separate, disjoint sets): the blocker codes on LCA results (sandbox/lca.ts
 * BLOCKER_CODES) and the client's own codes for failures that never reached the service (CLIENT_ERROR_CODES
 * below). The spec's codes may grow: an unknown code is kept verbatim, treated as non-retryable and shown to
 * the operator (see explainErrCode in core/api/errors.ts).
 */

export const ERR_CODE_GROUPS = [
  'General',
  'Declarations and EPDs',
  'Plants',
  'LCA and products',
  'Material properties',
  'Accounts and companies',
  'Composites, plant inputs and outputs',
  'Suppliers, silos, instances, prechain',
  'Import, materials and processes',
  'Data translation',
  'Packaging declarations',
  'Addresses and transport',
  'Security and licensing',
] as const;
export type ErrCodeGroup = (typeof ERR_CODE_GROUPS)[number];

/**
 * How a client treats a code, whatever HTTP status it arrives with: errors are classified by err_code first
 * (docs/api-assumptions.md row 28 — any code may come with any of 403/409/422); the status decides only for a
 * code outside this catalog. The client adds 'network' (no answer) and 'unknown'.
 */
export const ERR_CODE_CLASSES = [
  'auth',
  'permission',
  'conflict',
  'validation',
  'daily_limit',
  'entitlement',
  'server',
] as const;
export type ErrCodeClass = (typeof ERR_CODE_CLASSES)[number];

/**
 * The codes whose class is not 'validation' (the default: the service refused the request's content or the
 * state it refers to). 'conflict' = the entity exists already, is in use, or another operation is in flight.
 */
const CLASS_OF: Readonly<Record<Exclude<ErrCodeClass, 'validation'>, readonly string[]>> = {
  auth: ['err_not_authenticated'],
  permission: [
    'err_permission_denied',
    'err_plant_no_access',
    'err_reauthentication_required',
    'err_two_factor_required',
    'err_program_operator_not_entitled',
  ],
  conflict: [
    'err_external_id_exists',
    'err_prechain_product_exists',
    'err_supplier_product_in_recipe',
    'err_supplier_product_in_silo',
    'err_supplier_in_use',
    'err_supplier_plant_in_use',
    'err_silo_in_use',
    'err_silo_name_exists',
    'err_composite_name_exists',
    'err_composite_used_in_supplier_products',
    'err_product_instance_in_recipe',
    'err_prechain_product_in_recipe',
    'err_product_has_declarations',
    'err_product_instance_has_declarations',
    'err_product_already_exists',
    'err_user_exists',
    'err_epd_document_already_exists',
    'err_ccf_exists',
    'err_inies_sworn_statement_exists',
    'err_ppwr_declaration_exists',
    'err_ppwr_declaration_editable_exists',
    'err_elementary_already_allowed_for_product',
    'err_elementary_request_idempotency_conflict',
    'err_lca_update_not_queued',
  ],
  daily_limit: ['err_svc_daily_limit_reached'],
  entitlement: ['err_entitlement_limit_reached'],
  server: ['err_not_defined'],
};

export interface ErrCodeInfo {
  code: string;
  group: ErrCodeGroup;
  /** How a client treats it, whatever the HTTP status (classification by err_code first). */
  classification: ErrCodeClass;
  /** One line, English. */
  explanation: string;
  explanation_de: string;
  /** What the user should do, where that is clear. */
  action?: string;
  action_de?: string;
  /** Whether trying the same request again later can succeed without changing anything. */
  retryable: boolean;
}

type Row = readonly [code: string, en: string, de: string, action?: string, actionDe?: string, retryable?: boolean];

const ROWS: Record<ErrCodeGroup, readonly Row[]> = {
  General: [
    [
      'err_svc_daily_limit_reached',
      'The daily request limit of this account is used up.',
      'Das tägliche Anfragelimit dieses Kontos ist aufgebraucht.',
      'Continue tomorrow or ask the service provider for a higher limit.',
      'Morgen fortsetzen oder beim Anbieter ein höheres Limit anfragen.',
      true,
    ],
    [
      'err_not_defined',
      'The service reported an error it does not describe further.',
      'Der Dienst meldete einen nicht näher beschriebenen Fehler.',
      'Try again later; if it persists, contact support with the time of the error.',
      'Später erneut versuchen; bei Wiederholung den Support mit dem Zeitpunkt kontaktieren.',
      true,
    ],
    [
      'err_not_found',
      'The referenced entity does not exist or is not visible to this key.',
      'Das referenzierte Objekt existiert nicht oder ist für diesen Schlüssel nicht sichtbar.',
      'Check the id or code; it may have been deleted.',
      'ID oder Code prüfen; das Objekt wurde eventuell gelöscht.',
    ],
    [
      'err_not_valid',
      'The request is not valid (a field, a filter, a cursor or a limit is wrong).',
      'Die Anfrage ist ungültig (Feld, Filter, Cursor oder Limit fehlerhaft).',
      'Correct the highlighted value and send again.',
      'Den markierten Wert korrigieren und erneut senden.',
    ],
    [
      'err_not_authenticated',
      'The API key is missing, malformed, unknown, revoked or expired.',
      'Der API-Schlüssel fehlt, ist fehlerhaft, unbekannt, widerrufen oder abgelaufen.',
      'Enter a valid API key (Settings, Integrations, API Keys).',
      'Einen gültigen API-Schlüssel eintragen (Einstellungen, Integrationen, API-Schlüssel).',
    ],
    [
      'err_permission_denied',
      'The API key lacks the permission (scope) for this operation.',
      'Dem API-Schlüssel fehlt die Berechtigung (Scope) für diesen Vorgang.',
      'Ask an account owner for a key with the needed scope.',
      'Einen Kontoinhaber um einen Schlüssel mit dem nötigen Scope bitten.',
    ],
  ],
  'Declarations and EPDs': [
    [
      'err_declaration_not_completed',
      'The declaration is not completed yet.',
      'Die Deklaration ist noch nicht abgeschlossen.',
      'Complete the declaration first.',
      'Zuerst die Deklaration abschließen.',
    ],
    [
      'err_declaration_not_regenerable',
      'This declaration cannot be generated again.',
      'Diese Deklaration kann nicht erneut erzeugt werden.',
    ],
    [
      'err_epd_document_already_exists',
      'An EPD document already exists for this product.',
      'Für dieses Produkt existiert bereits ein EPD-Dokument.',
    ],
    [
      'err_invalid_product_ids',
      'One or more product ids are not valid for this request.',
      'Eine oder mehrere Produkt-IDs sind für diese Anfrage ungültig.',
      'Check the selected products.',
      'Die ausgewählten Produkte prüfen.',
    ],
    [
      'err_generate_products_limit',
      'Too many products were selected for one generation.',
      'Zu viele Produkte für eine Erzeugung ausgewählt.',
      'Select fewer products.',
      'Weniger Produkte auswählen.',
    ],
    [
      'err_epd_unusable',
      'The EPD cannot be used here.',
      'Die EPD kann hier nicht verwendet werden.',
      'Choose another EPD.',
      'Eine andere EPD wählen.',
    ],
    [
      'err_epd_service',
      'The EPD service failed.',
      'Der EPD-Dienst ist fehlgeschlagen.',
      'Try again later.',
      'Später erneut versuchen.',
      true,
    ],
    [
      'err_not_ready_for_epd',
      'The product is not ready for an EPD yet.',
      'Das Produkt ist noch nicht bereit für eine EPD.',
      'Complete the product data and LCA first.',
      'Zuerst Produktdaten und Ökobilanz vervollständigen.',
    ],
    ['err_declaration_not_exists', 'The declaration does not exist.', 'Die Deklaration existiert nicht.'],
    [
      'err_declaration_not_under_review',
      'The declaration is not under review.',
      'Die Deklaration befindet sich nicht in Prüfung.',
    ],
  ],
  Plants: [
    [
      'err_plant_missing_product_category',
      'The plant has no product category.',
      'Dem Werk fehlt eine Produktkategorie.',
      "Set the plant's product categories in the web interface.",
      'Die Produktkategorien des Werks in der Weboberfläche festlegen.',
    ],
    [
      'err_plant_incomplete_address',
      "The plant's address is incomplete.",
      'Die Adresse des Werks ist unvollständig.',
      'Complete the address in the web interface.',
      'Die Adresse in der Weboberfläche vervollständigen.',
    ],
    [
      'err_plant_incomplete_company_fields',
      "The plant's company fields are incomplete.",
      'Die Unternehmensangaben des Werks sind unvollständig.',
      'Complete them in the web interface.',
      'In der Weboberfläche vervollständigen.',
    ],
    [
      'err_plant_categories_not_covering_processes',
      "The plant's categories do not cover its production processes.",
      'Die Kategorien des Werks decken seine Produktionsprozesse nicht ab.',
      'Adjust categories or processes in the web interface.',
      'Kategorien oder Prozesse in der Weboberfläche anpassen.',
    ],
    [
      'err_plant_categories_not_covering_active_products',
      "The plant's categories do not cover its active products.",
      'Die Kategorien des Werks decken seine aktiven Produkte nicht ab.',
      'Adjust categories in the web interface.',
      'Kategorien in der Weboberfläche anpassen.',
    ],
    ['err_plant_invalid_category_id', 'A plant category id is not valid.', 'Eine Kategorie-ID des Werks ist ungültig.'],
    [
      'err_plant_custom_electricity_mix_not_allowed',
      'A custom electricity mix is not allowed for this plant.',
      'Ein eigener Strommix ist für dieses Werk nicht erlaubt.',
    ],
    [
      'err_plant_electricity_mix_mismatch',
      "The plant's electricity mix does not match its electricity data.",
      'Der Strommix des Werks passt nicht zu seinen Stromdaten.',
    ],
    [
      'err_plant_negative_electricity_values',
      'The plant has negative electricity values.',
      'Das Werk hat negative Stromwerte.',
      'Correct the electricity values.',
      'Die Stromwerte korrigieren.',
    ],
    [
      'err_plant_electricity_without_mix',
      'Electricity is entered without an electricity mix.',
      'Strom ist ohne Strommix erfasst.',
      'Choose an electricity mix for the plant.',
      'Einen Strommix für das Werk wählen.',
    ],
    [
      'err_electricity_plant_production_mismatch',
      "The electricity data does not match the plant's production.",
      'Die Stromdaten passen nicht zur Produktion des Werks.',
    ],
    [
      'err_plant_not_found',
      'The plant does not exist.',
      'Das Werk existiert nicht.',
      'Check the plant code or id.',
      'Werkscode oder ID prüfen.',
    ],
    [
      'err_plant_no_access',
      'The API key cannot reach this plant.',
      'Der API-Schlüssel hat keinen Zugriff auf dieses Werk.',
      'Use a key with access to the plant, or ask an owner to grant it.',
      'Einen Schlüssel mit Zugriff auf das Werk verwenden oder den Zugriff beim Inhaber anfragen.',
    ],
    [
      'err_multiple_plants',
      'More than one plant matches where only one is allowed.',
      'Mehr als ein Werk passt, obwohl nur eines erlaubt ist.',
    ],
  ],
  'LCA and products': [
    [
      'err_lca_mass_balance',
      'The LCA mass balance does not close.',
      'Die Massenbilanz der Ökobilanz geht nicht auf.',
      'Check BOM masses against the product mass.',
      'Stücklistenmassen mit der Produktmasse abgleichen.',
    ],
    [
      'err_lca_allocation_data_incomplete',
      'Allocation data for the LCA is incomplete.',
      'Allokationsdaten für die Ökobilanz sind unvollständig.',
      'Complete the allocation data of the plant.',
      'Die Allokationsdaten des Werks vervollständigen.',
    ],
    [
      'err_lca_production_output_mismatch',
      'The production output does not match the LCA inputs.',
      'Die Produktionsmenge passt nicht zu den Ökobilanz-Eingaben.',
    ],
    [
      'err_product_mass_larger_than_recipe_mass',
      'The product mass is larger than the mass of its BOM.',
      'Die Produktmasse ist größer als die Masse der Stückliste.',
      'Check the BOM masses.',
      'Die Stücklistenmassen prüfen.',
    ],
    [
      'err_product_category_not_allowed_at_plant',
      'This product category is not allowed at the plant.',
      'Diese Produktkategorie ist im Werk nicht erlaubt.',
    ],
    [
      'err_water_not_scoped_but_wastewater_is_scoped',
      'Wastewater is in scope but water is not.',
      'Abwasser ist erfasst, Wasser aber nicht.',
    ],
    [
      'err_more_wastewater_than_water',
      'More wastewater than water is entered.',
      'Es ist mehr Abwasser als Wasser erfasst.',
      'Correct the water figures.',
      'Die Wasserwerte korrigieren.',
    ],
    ['err_project_no_products', 'The project has no products.', 'Das Projekt enthält keine Produkte.'],
    [
      'err_invalid_product_quantity',
      'The product quantity is not valid.',
      'Die Produktmenge ist ungültig.',
      'Enter a positive quantity.',
      'Eine positive Menge eingeben.',
    ],
    ['err_duplicate_product', 'The product appears more than once.', 'Das Produkt kommt mehrfach vor.'],
    [
      'err_product_missing_gwp_total',
      'The product has no GWP-total value.',
      'Dem Produkt fehlt der GWP-total-Wert.',
      'Run the LCA first.',
      'Zuerst die Ökobilanz berechnen.',
    ],
    [
      'err_elementary_deactivated',
      'The material type (elementary) is deactivated.',
      'Der Materialtyp (Elementary) ist deaktiviert.',
      'Map the material to an active material type.',
      'Das Material einem aktiven Materialtyp zuordnen.',
    ],
    [
      'err_product_missing_supplier',
      'A material of the product has no supplier.',
      'Einem Material des Produkts fehlt ein Lieferant.',
      'Assign a supplier plant to the supplier product.',
      'Dem Lieferantenprodukt ein Lieferantenwerk zuordnen.',
    ],
    [
      'err_lca_update_not_queued',
      'An LCA recompute is already in progress for this product instance.',
      'Für diese Produktinstanz läuft bereits eine Ökobilanz-Neuberechnung.',
      'Wait until it has finished, then start again.',
      'Warten, bis sie beendet ist, dann neu starten.',
      true,
    ],
  ],
  'Material properties': [
    [
      'err_material_not_hazardous',
      'Hazardous substances are given for a material that is not hazardous.',
      'Gefahrstoffe sind für ein nicht gefährliches Material angegeben.',
      'Remove the hazardous substances.',
      'Die Gefahrstoffe entfernen.',
    ],
    [
      'err_material_no_limited_lifetime',
      'A lifetime is given for a material without a limited lifetime.',
      'Eine Lebensdauer ist für ein Material ohne begrenzte Lebensdauer angegeben.',
      'Leave lifetime_years empty.',
      'lifetime_years leer lassen.',
    ],
    [
      'err_invalid_lifetime_years',
      'The lifetime in years is not valid.',
      'Die Lebensdauer in Jahren ist ungültig.',
      'Enter a positive number of years.',
      'Eine positive Anzahl Jahre eingeben.',
    ],
    [
      'err_invalid_secondary_percentage_range',
      'The secondary (recycled) percentage is outside 0–100.',
      'Der Sekundäranteil liegt außerhalb von 0–100.',
      'Enter a value from 0 to 100.',
      'Einen Wert von 0 bis 100 eingeben.',
    ],
    [
      'err_secondary_percentage_not_customizable',
      'The secondary percentage cannot be set for this material.',
      'Der Sekundäranteil kann für dieses Material nicht gesetzt werden.',
      'Leave secondary_percentage empty.',
      'secondary_percentage leer lassen.',
    ],
    [
      'err_moisture_content_not_bio_based',
      'A moisture content is given for a material that is not bio-based.',
      'Ein Feuchtegehalt ist für ein nicht biobasiertes Material angegeben.',
      'Leave moisture_content_percentage empty.',
      'moisture_content_percentage leer lassen.',
    ],
    [
      'err_invalid_moisture_content_range',
      'The moisture content is outside 0–100.',
      'Der Feuchtegehalt liegt außerhalb von 0–100.',
      'Enter a value from 0 to 100.',
      'Einen Wert von 0 bis 100 eingeben.',
    ],
  ],
  'Accounts and companies': [
    [
      'err_no_manufacturer',
      'No manufacturer account belongs to this request.',
      'Zu dieser Anfrage gehört kein Herstellerkonto.',
    ],
    [
      'err_company_setup_required',
      'The company setup is not complete.',
      'Die Unternehmenseinrichtung ist nicht abgeschlossen.',
      'Finish the company setup in the web interface.',
      'Die Unternehmenseinrichtung in der Weboberfläche abschließen.',
    ],
    [
      'err_wrong_email_domain',
      'The e-mail address has a domain not allowed for this account.',
      'Die E-Mail-Adresse hat eine für dieses Konto nicht erlaubte Domain.',
    ],
    ['err_user_exists', 'The user already exists.', 'Der Benutzer existiert bereits.'],
    [
      'err_inviter_email_not_found',
      "The inviting user's e-mail was not found.",
      'Die E-Mail des einladenden Benutzers wurde nicht gefunden.',
    ],
  ],
  'Composites, plant inputs and outputs': [
    [
      'err_composite_used_in_supplier_products',
      'The composite is used by supplier products.',
      'Der Verbundstoff wird von Lieferantenprodukten verwendet.',
      'Change those supplier products first.',
      'Zuerst diese Lieferantenprodukte ändern.',
    ],
    [
      'err_composite_name_exists',
      'A composite with this name already exists.',
      'Ein Verbundstoff mit diesem Namen existiert bereits.',
      'Choose another name.',
      'Einen anderen Namen wählen.',
    ],
    [
      'err_plant_io_invalid_field',
      'A plant input/output field is not valid.',
      'Ein Ein-/Ausgabefeld des Werks ist ungültig.',
    ],
    [
      'err_plant_io_field_not_switchable',
      'This plant input/output field cannot be switched.',
      'Dieses Ein-/Ausgabefeld des Werks kann nicht umgeschaltet werden.',
    ],
    [
      'err_plant_io_value_not_scoped',
      'A value is given for a plant input/output that is not in scope.',
      'Ein Wert ist für eine nicht erfasste Werks-Ein-/Ausgabe angegeben.',
    ],
    [
      'err_field_is_plant_level',
      'This field is set at plant level, not here.',
      'Dieses Feld wird auf Werksebene gesetzt, nicht hier.',
    ],
    [
      'err_negative_io_value',
      'An input/output value is negative.',
      'Ein Ein-/Ausgabewert ist negativ.',
      'Enter a value of 0 or more.',
      'Einen Wert ab 0 eingeben.',
    ],
    ['err_invalid_packaging_material', 'The packaging material is not valid.', 'Das Verpackungsmaterial ist ungültig.'],
    [
      'err_plant_io_mixed_allocation_groups',
      'Plant inputs/outputs mix allocation groups.',
      'Werks-Ein-/Ausgaben mischen Allokationsgruppen.',
    ],
    [
      'err_inies_sworn_statement_exists',
      'An INIES sworn statement already exists.',
      'Eine INIES-Erklärung existiert bereits.',
    ],
  ],
  'Suppliers, silos, instances, prechain': [
    [
      'err_supplier_in_use',
      'The supplier company is still in use.',
      'Das Lieferantenunternehmen wird noch verwendet.',
      'Remove its supplier plants and products first.',
      'Zuerst seine Lieferantenwerke und -produkte entfernen.',
    ],
    [
      'err_supplier_plant_in_use',
      'The supplier plant is still in use.',
      'Das Lieferantenwerk wird noch verwendet.',
      'Reassign or remove the supplier products using it.',
      'Die zugehörigen Lieferantenprodukte umhängen oder entfernen.',
    ],
    [
      'err_supplier_product_in_recipe',
      'The supplier product is used in a BOM and cannot be deleted.',
      'Das Lieferantenprodukt wird in einer Stückliste verwendet und kann nicht gelöscht werden.',
      'Remove it from the BOMs first.',
      'Zuerst aus den Stücklisten entfernen.',
    ],
    [
      'err_supplier_product_in_silo',
      'The supplier product is used in a silo and cannot be deleted.',
      'Das Lieferantenprodukt wird in einem Silo verwendet und kann nicht gelöscht werden.',
      'Remove it from the silo first.',
      'Zuerst aus dem Silo entfernen.',
    ],
    [
      'err_supplier_product_missing_supplier_plant',
      'A supplier product in the silo has no supplier plant.',
      'Ein Lieferantenprodukt im Silo hat kein Lieferantenwerk.',
      'Set the supplier plant of that supplier product.',
      'Das Lieferantenwerk dieses Lieferantenprodukts setzen.',
    ],
    [
      'err_silo_in_use',
      'The silo is still in use.',
      'Das Silo wird noch verwendet.',
      'Remove it from the BOMs first.',
      'Zuerst aus den Stücklisten entfernen.',
    ],
    [
      'err_silo_name_exists',
      'A silo with this name already exists.',
      'Ein Silo mit diesem Namen existiert bereits.',
      'Choose another name.',
      'Einen anderen Namen wählen.',
    ],
    [
      'err_elementary_unknown_matching',
      'The material type could not be matched.',
      'Der Materialtyp konnte nicht zugeordnet werden.',
      'Check the material code mapping.',
      'Die Zuordnung des Materialcodes prüfen.',
    ],
    [
      'err_product_document_not_deletable',
      'The product document cannot be deleted.',
      'Das Produktdokument kann nicht gelöscht werden.',
    ],
    ['err_product_has_declarations', 'The product has declarations.', 'Das Produkt hat Deklarationen.'],
    [
      'err_product_instance_in_recipe',
      'The product instance is used in a BOM.',
      'Die Produktinstanz wird in einer Stückliste verwendet.',
      'Remove it from the BOMs first.',
      'Zuerst aus den Stücklisten entfernen.',
    ],
    [
      'err_product_instance_has_declarations',
      'The product instance has declarations.',
      'Die Produktinstanz hat Deklarationen.',
    ],
    [
      'err_prechain_product_in_recipe',
      'The prechain product is used in a BOM.',
      'Das Vorkettenprodukt wird in einer Stückliste verwendet.',
      'Remove it from the BOMs first.',
      'Zuerst aus den Stücklisten entfernen.',
    ],
    [
      'err_prechain_product_exists',
      'A prechain product for this instance already exists at this plant.',
      'Für diese Instanz existiert in diesem Werk bereits ein Vorkettenprodukt.',
      'Use the existing prechain product.',
      'Das vorhandene Vorkettenprodukt verwenden.',
    ],
    [
      'err_prechain_circular_reference',
      'The prechain product would create a circular reference.',
      'Das Vorkettenprodukt würde einen Zirkelbezug erzeugen.',
      'Break the cycle between the product instances.',
      'Den Kreis zwischen den Produktinstanzen auflösen.',
    ],
    [
      'err_ccf_exists',
      'A corporate carbon footprint already exists.',
      'Ein Unternehmens-CO2-Fußabdruck existiert bereits.',
    ],
    [
      'err_ccf_not_completed',
      'The corporate carbon footprint is not completed.',
      'Der Unternehmens-CO2-Fußabdruck ist nicht abgeschlossen.',
    ],
    [
      'err_external_id_exists',
      'An active entity of this type already carries this external_id.',
      'Ein aktives Objekt dieses Typs trägt diese external_id bereits.',
      'Use another code, or update the existing entity.',
      'Einen anderen Code verwenden oder das vorhandene Objekt aktualisieren.',
    ],
  ],
  'Import, materials and processes': [
    [
      'err_bulk_upload_invalid_file',
      'The uploaded file is not valid.',
      'Die hochgeladene Datei ist ungültig.',
      'Use the template file.',
      'Die Vorlagendatei verwenden.',
    ],
    [
      'err_material_type_not_found',
      'The material type does not exist.',
      'Der Materialtyp existiert nicht.',
      'Check the material code.',
      'Den Materialcode prüfen.',
    ],
    [
      'err_material_type_not_configured',
      'The material type is not configured for this account.',
      'Der Materialtyp ist für dieses Konto nicht eingerichtet.',
    ],
    [
      'err_unit_not_allowed_for_material',
      'This unit is not allowed for the material.',
      'Diese Einheit ist für das Material nicht erlaubt.',
      'Choose a unit that fits the material type.',
      'Eine zum Materialtyp passende Einheit wählen.',
    ],
    [
      'err_production_process_not_found',
      'The production process does not exist.',
      'Der Produktionsprozess existiert nicht.',
    ],
    [
      'err_multiple_production_processes',
      'More than one production process matches.',
      'Mehr als ein Produktionsprozess passt.',
    ],
    [
      'err_process_plant_mismatch',
      'The production process belongs to another plant.',
      'Der Produktionsprozess gehört zu einem anderen Werk.',
    ],
    [
      'err_material_process_incompatible',
      'The material does not fit the production process.',
      'Das Material passt nicht zum Produktionsprozess.',
    ],
    [
      'err_composite_not_allowed_in_recipe',
      'A composite is not allowed in this BOM.',
      'Ein Verbundstoff ist in dieser Stückliste nicht erlaubt.',
    ],
    [
      'err_elementary_not_allowed_in_recipe',
      'This material type is not allowed in this BOM.',
      'Dieser Materialtyp ist in dieser Stückliste nicht erlaubt.',
    ],
    [
      'err_elementary_already_allowed_for_product',
      'The material type is already allowed for the product.',
      'Der Materialtyp ist für das Produkt bereits erlaubt.',
    ],
    [
      'err_elementary_request_idempotency_conflict',
      'A material type request conflicts with an earlier one.',
      'Eine Materialtyp-Anfrage widerspricht einer früheren.',
    ],
    ['err_product_type_no_recipe', 'This product type has no BOM.', 'Dieser Produkttyp hat keine Stückliste.'],
    [
      'err_product_mass_not_set',
      'The product mass is not set.',
      'Die Produktmasse ist nicht gesetzt.',
      'Set the product mass in the web interface.',
      'Die Produktmasse in der Weboberfläche setzen.',
    ],
    [
      'err_required_cell_empty',
      'A required cell is empty.',
      'Eine Pflichtzelle ist leer.',
      'Fill in the cell.',
      'Die Zelle ausfüllen.',
    ],
    ['err_product_already_exists', 'The product already exists.', 'Das Produkt existiert bereits.'],
    ['err_multiple_products', 'More than one product matches.', 'Mehr als ein Produkt passt.'],
    [
      'err_linked_product_type_mismatch',
      'The linked product has another product type.',
      'Das verknüpfte Produkt hat einen anderen Produkttyp.',
    ],
    [
      'err_tech_spec_not_recognized',
      'A technical specification is not recognized.',
      'Eine technische Spezifikation wird nicht erkannt.',
    ],
    [
      'err_recipe_incomplete',
      'The BOM is incomplete.',
      'Die Stückliste ist unvollständig.',
      'Add the missing components.',
      'Die fehlenden Komponenten ergänzen.',
    ],
    [
      'err_orphan_row',
      'A row refers to nothing it can belong to.',
      'Eine Zeile gehört zu keinem Objekt.',
      "Check the row's reference columns.",
      'Die Referenzspalten der Zeile prüfen.',
    ],
    [
      'err_duplicate_tech_spec',
      'A technical specification appears twice.',
      'Eine technische Spezifikation kommt doppelt vor.',
    ],
    ['err_empty_sheet', 'A sheet is empty.', 'Ein Tabellenblatt ist leer.'],
    ['err_no_products', 'No products were found.', 'Es wurden keine Produkte gefunden.'],
    [
      'err_tech_spec_invalid_value',
      'A technical specification has an invalid value.',
      'Eine technische Spezifikation hat einen ungültigen Wert.',
    ],
  ],
  'Data translation': [
    [
      'err_dtp_service',
      'The data translation service failed.',
      'Der Datenübersetzungsdienst ist fehlgeschlagen.',
      'Try again later.',
      'Später erneut versuchen.',
      true,
    ],
    [
      'err_data_translation_wrong_step',
      'The data translation is not at the step this request needs.',
      'Die Datenübersetzung steht nicht im dafür nötigen Schritt.',
    ],
    [
      'err_data_translation_invalid_plant_mapping',
      'The plant mapping of the data translation is not valid.',
      'Die Werkszuordnung der Datenübersetzung ist ungültig.',
    ],
    [
      'err_data_translation_unresolved_reference',
      'The data translation has an unresolved reference.',
      'Die Datenübersetzung hat eine ungelöste Referenz.',
    ],
    [
      'err_data_translation_incomplete',
      'The data translation is incomplete.',
      'Die Datenübersetzung ist unvollständig.',
    ],
    [
      'err_data_translation_material_not_available',
      'A material of the data translation is not available.',
      'Ein Material der Datenübersetzung ist nicht verfügbar.',
    ],
    [
      'err_recycled_content_proof_missing',
      'Proof of recycled content is missing.',
      'Der Nachweis des Recyclinganteils fehlt.',
      'Upload the proof document.',
      'Das Nachweisdokument hochladen.',
    ],
  ],
  'Packaging declarations': [
    [
      'err_ppwr_declaration_exists',
      'A packaging declaration already exists.',
      'Eine Verpackungsdeklaration existiert bereits.',
    ],
    [
      'err_ppwr_declaration_editable_exists',
      'An editable packaging declaration already exists.',
      'Eine bearbeitbare Verpackungsdeklaration existiert bereits.',
    ],
    [
      'err_ppwr_declaration_frozen',
      'The packaging declaration is frozen.',
      'Die Verpackungsdeklaration ist eingefroren.',
    ],
    [
      'err_ppwr_doc_number_unavailable',
      'The packaging document number is not available.',
      'Die Dokumentnummer der Verpackung ist nicht verfügbar.',
    ],
    [
      'err_ppwr_variant_mass_invalid',
      "The packaging variant's mass is not valid.",
      'Die Masse der Verpackungsvariante ist ungültig.',
    ],
    [
      'err_ppwr_variant_dimension_invalid',
      "The packaging variant's dimension is not valid.",
      'Die Abmessung der Verpackungsvariante ist ungültig.',
    ],
    [
      'err_ppwr_variant_material_repeated',
      'A material is repeated in the packaging variant.',
      'Ein Material wiederholt sich in der Verpackungsvariante.',
    ],
    [
      'err_ppwr_variant_material_type',
      "The packaging variant's material type is not valid.",
      'Der Materialtyp der Verpackungsvariante ist ungültig.',
    ],
    [
      'err_ppwr_invalid_field_key',
      'A packaging declaration field key is not valid.',
      'Ein Feldschlüssel der Verpackungsdeklaration ist ungültig.',
    ],
    [
      'err_ppwr_supplier_request_not_packaging_manufacturer',
      'The requested supplier is not a packaging manufacturer.',
      'Der angefragte Lieferant ist kein Verpackungshersteller.',
    ],
    [
      'err_ppwr_supplier_request_pending',
      'A supplier request is already pending.',
      'Eine Lieferantenanfrage ist bereits offen.',
    ],
    [
      'err_ppwr_supplier_request_not_pending',
      'The supplier request is not pending.',
      'Die Lieferantenanfrage ist nicht offen.',
    ],
    [
      'err_ppwr_field_not_requested',
      'This field was not requested from the supplier.',
      'Dieses Feld wurde beim Lieferanten nicht angefragt.',
    ],
    [
      'err_ppwr_document_limit_reached',
      'The packaging document limit is reached.',
      'Das Limit für Verpackungsdokumente ist erreicht.',
    ],
    [
      'err_ppwr_generation_not_packaging_manufacturer',
      'Only a packaging manufacturer can generate this declaration.',
      'Nur ein Verpackungshersteller kann diese Deklaration erzeugen.',
    ],
    [
      'err_ppwr_declaration_incomplete',
      'The packaging declaration is incomplete.',
      'Die Verpackungsdeklaration ist unvollständig.',
    ],
    ['err_ppwr_invalid_signatory', 'The signatory is not valid.', 'Der Unterzeichner ist ungültig.'],
    [
      'err_ppwr_invitation_send_failed',
      'The invitation could not be sent.',
      'Die Einladung konnte nicht gesendet werden.',
      'Try again later.',
      'Später erneut versuchen.',
      true,
    ],
    [
      'err_ppwr_supplier_link_placeholder_missing',
      'The supplier link placeholder is missing in the text.',
      'Der Platzhalter für den Lieferantenlink fehlt im Text.',
    ],
    [
      'err_ppwr_supplier_subject_missing',
      'The subject of the supplier message is missing.',
      'Der Betreff der Lieferantennachricht fehlt.',
    ],
    [
      'err_ppwr_supplier_email_missing',
      "The supplier's e-mail address is missing.",
      'Die E-Mail-Adresse des Lieferanten fehlt.',
    ],
    [
      'err_ppwr_verification_code_limit',
      'Too many verification codes were requested.',
      'Zu viele Bestätigungscodes wurden angefordert.',
      'Wait before requesting another code.',
      'Vor einem neuen Code etwas warten.',
    ],
    [
      'err_ppwr_verification_code_send_failed',
      'The verification code could not be sent.',
      'Der Bestätigungscode konnte nicht gesendet werden.',
      'Try again later.',
      'Später erneut versuchen.',
      true,
    ],
    ['err_ppwr_email_not_verified', 'The e-mail address is not verified.', 'Die E-Mail-Adresse ist nicht bestätigt.'],
    ['err_ppwr_attestation_required', 'An attestation is required.', 'Eine Bestätigung ist erforderlich.'],
    [
      'err_ppwr_document_not_deletable',
      'The packaging document cannot be deleted.',
      'Das Verpackungsdokument kann nicht gelöscht werden.',
    ],
    [
      'err_proof_document_limit',
      'The number of proof documents is at its limit.',
      'Die Anzahl der Nachweisdokumente ist am Limit.',
    ],
    [
      'err_proof_size_limit',
      'The proof document is too large.',
      'Das Nachweisdokument ist zu groß.',
      'Upload a smaller file.',
      'Eine kleinere Datei hochladen.',
    ],
  ],
  'Addresses and transport': [
    [
      'err_supplier_address_country_only',
      'The supplier address has only a country.',
      'Die Lieferantenadresse enthält nur ein Land.',
      'Add the city for a transport distance.',
      'Für eine Transportentfernung die Stadt ergänzen.',
    ],
    ['err_supplier_address_ignored', 'The supplier address was ignored.', 'Die Lieferantenadresse wurde ignoriert.'],
    [
      'err_supplier_address_not_found',
      'The supplier address could not be found.',
      'Die Lieferantenadresse wurde nicht gefunden.',
      "Check the supplier plant's address.",
      'Die Adresse des Lieferantenwerks prüfen.',
    ],
    [
      'err_transport_distance_unresolved',
      'The transport distance could not be determined.',
      'Die Transportentfernung konnte nicht ermittelt werden.',
      'Enter the distances per modality in km.',
      'Die Entfernungen je Verkehrsträger in km eintragen.',
    ],
    [
      'err_transport_route_unavailable',
      'No transport route is available right now.',
      'Derzeit ist keine Transportroute verfügbar.',
      'Try again later or enter the distances.',
      'Später erneut versuchen oder die Entfernungen eintragen.',
      true,
    ],
    [
      'err_transport_missing_coordinates',
      'Coordinates for the transport route are missing.',
      'Koordinaten für die Transportroute fehlen.',
    ],
    [
      'err_transport_no_route',
      'There is no route between the two places.',
      'Zwischen den beiden Orten gibt es keine Route.',
      'Enter the distances per modality in km.',
      'Die Entfernungen je Verkehrsträger in km eintragen.',
    ],
    [
      'err_transport_same_address',
      'Origin and destination of the transport are the same.',
      'Start und Ziel des Transports sind gleich.',
    ],
  ],
  'Security and licensing': [
    ['err_reauthentication_required', 'The user must sign in again.', 'Der Benutzer muss sich erneut anmelden.'],
    [
      'err_two_factor_required',
      'Two-factor authentication is required.',
      'Zwei-Faktor-Authentifizierung ist erforderlich.',
    ],
    [
      'err_entitlement_limit_reached',
      'A licensed amount (users, plants, product instances or published EPDs) is used up.',
      'Eine lizenzierte Menge (Benutzer, Werke, Produktinstanzen oder veröffentlichte EPDs) ist aufgebraucht.',
      'Free some of that dimension or upgrade the licence.',
      'In dieser Dimension Platz schaffen oder die Lizenz erweitern.',
    ],
    [
      'err_program_operator_not_entitled',
      'The program operator is not entitled to this.',
      'Der Programmbetreiber ist hierzu nicht berechtigt.',
    ],
    [
      'err_self_upgrade_not_offered',
      'A self-service upgrade is not offered.',
      'Ein Upgrade per Selbstbedienung wird nicht angeboten.',
    ],
    ['err_self_upgrade_request_required', 'An upgrade request is required.', 'Eine Upgrade-Anfrage ist erforderlich.'],
    [
      'err_self_upgrade_limit_changed',
      'The limit changed during the upgrade.',
      'Das Limit hat sich während des Upgrades geändert.',
    ],
    [
      'err_self_upgrade_unavailable',
      'The self-service upgrade is unavailable.',
      'Das Upgrade per Selbstbedienung ist nicht verfügbar.',
    ],
    ['err_self_upgrade_in_progress', 'An upgrade is already in progress.', 'Ein Upgrade läuft bereits.'],
  ],
};

function build(): Map<string, ErrCodeInfo> {
  const classOf = new Map<string, ErrCodeClass>();
  for (const [cls, codes] of Object.entries(CLASS_OF) as [ErrCodeClass, readonly string[]][])
    for (const code of codes) {
      if (classOf.has(code)) throw new Error(`err-codes: ${code} has two classes`);
      classOf.set(code, cls);
    }
  const m = new Map<string, ErrCodeInfo>();
  for (const group of ERR_CODE_GROUPS) {
    for (const [code, explanation, explanation_de, action, action_de, retryable] of ROWS[group]) {
      if (m.has(code)) throw new Error(`err-codes: ${code} listed twice`);
      const info: ErrCodeInfo = {
        code,
        group,
        classification: classOf.get(code) ?? 'validation',
        explanation,
        explanation_de,
        retryable: retryable ?? false,
      };
      if (action) info.action = action;
      if (action_de) info.action_de = action_de;
      m.set(code, Object.freeze(info));
    }
  }
  for (const code of classOf.keys())
    if (!m.has(code)) throw new Error(`err-codes: classified code ${code} is not in the catalog`);
  return m;
}

/** Every err_code of the spec, by code. */
export const ERR_CODES: ReadonlyMap<string, ErrCodeInfo> = build();

/** The catalog as a list, in the spec's group order. */
export const ERR_CODE_LIST: readonly ErrCodeInfo[] = [...ERR_CODES.values()];

export function errCodeInfo(code: string): ErrCodeInfo | undefined {
  return ERR_CODES.get(code);
}

/**
 * The client's own codes for failures that never produced a service error body (the request was not sent,
 * the connection broke, the answer was not understood). Disjoint from the spec's codes (prefix `client_`),
 * never sent by a server, kept apart so that nothing here looks like a code the spec has.
 */
export const CLIENT_ERROR_CODES = {
  client_network_error: {
    explanation: 'The connection to the service failed before an answer arrived.',
    explanation_de: 'Die Verbindung zum Dienst ist vor einer Antwort abgebrochen.',
    action: 'Check the network and the service address, then try again.',
    action_de: 'Netzwerk und Dienstadresse prüfen, dann erneut versuchen.',
    retryable: true,
  },
  client_timeout: {
    explanation: 'The service did not answer in time.',
    explanation_de: 'Der Dienst hat nicht rechtzeitig geantwortet.',
    action: 'Try again later; raise the timeout if the service is slow.',
    action_de: 'Später erneut versuchen; bei langsamem Dienst das Zeitlimit erhöhen.',
    retryable: true,
  },
  client_service_busy: {
    explanation: 'The service kept answering that it is busy or unavailable (429 or 5xx) without an error body.',
    explanation_de:
      'Der Dienst antwortete wiederholt, er sei ausgelastet oder nicht verfügbar (429 oder 5xx), ohne Fehlerinhalt.',
    action: 'Try again later; if it persists, ask the service operator about its state.',
    action_de: 'Später erneut versuchen; hält es an, den Betreiber des Dienstes nach dessen Zustand fragen.',
    retryable: true,
  },
  client_invalid_response: {
    explanation: 'The service answered with a body this client does not understand.',
    explanation_de: 'Der Dienst antwortete mit einem Inhalt, den dieses Programm nicht versteht.',
    action: 'Report it with the log; the service contract may have changed.',
    action_de: 'Mit dem Protokoll melden; der Vertrag des Dienstes hat sich eventuell geändert.',
    retryable: false,
  },
  client_invalid_request: {
    explanation: 'The data to send is not valid; nothing was sent.',
    explanation_de: 'Die zu sendenden Daten sind ungültig; es wurde nichts gesendet.',
    action: 'Correct the named field.',
    action_de: 'Das genannte Feld korrigieren.',
    retryable: false,
  },
  client_ambiguous_create: {
    explanation: 'A create may or may not have reached the service, and nothing identifies it to check.',
    explanation_de: 'Ein Anlegen hat den Dienst eventuell erreicht, und nichts erlaubt eine Prüfung.',
    action: 'Look the entity up in the service before sending it again.',
    action_de: 'Das Objekt im Dienst suchen, bevor es erneut gesendet wird.',
    retryable: false,
  },
  client_endpoint_unavailable: {
    explanation:
      'The service does not offer this operation through the API (the endpoint answered 404 or 405, or "not found" for an entity that exists).',
    explanation_de:
      'Der Dienst bietet diese Operation über die API nicht an (der Endpunkt antwortete 404 oder 405 oder „nicht gefunden“ für ein vorhandenes Objekt).',
    action: 'Do it in the web interface instead.',
    action_de: 'Stattdessen in der Weboberfläche erledigen.',
    retryable: false,
  },
} as const satisfies Record<
  string,
  { explanation: string; explanation_de: string; action: string; action_de: string; retryable: boolean }
>;
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;
