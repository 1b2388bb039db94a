/**
 * English texts of the workbook check's issues and the dry run's problems, keyed by the issue's `code` (and a
 * `variant` where one code has several messages): `issue.<code>[.<variant>]`. They say what the core's English
 * `message` says; renderer/src/screens/import/issueText.ts fills them from the issue's `params` plus `{field}`,
 * `{cell}`, `{sheet}`, `{row}` and `{expected}` (worded from the `exp…` params by the `expect.*` texts).
 * issues-de.ts has the same keys and placeholders (test/renderer/i18n.test.ts, test/renderer/issue-text.test.ts).
 */
export const enIssues = {
  // ------------------------------------------------ what a cell should hold ({expected})
  'expect.code': 'a code (text, up to {maxLength} characters, no line breaks)',
  'expect.text': 'text (up to {maxLength} characters)',
  'expect.uuid': 'a service id (UUID like 123e4567-e89b-12d3-a456-426614174000)',
  'expect.country': 'an ISO 3166 alpha-2 country code (DE, AT, FR …)',
  'expect.enum': 'one of {allowed}',
  'expect.year': 'a year (whole number {min}–{max})',
  'expect.integer': 'a whole number{range}',
  'expect.decimal': 'a number{range}{unit}',
  'expect.unit': ' in {unit}',
  'expect.range.fromTo': ' from {min} to {max}',
  'expect.range.gtLe': ' greater than {min} and ≤ {max}',
  'expect.range.gt': ' greater than {min}',
  'expect.range.min': ' ≥ {min}',
  'expect.range.max': ' ≤ {max}',
  'issue.gotSuffix': ' (got {got})',
  'issue.hintSuffix': ' (did you mean {hint}?)',
  'issue.causeSuffix': ' (because {cause} is unknown)',

  // ------------------------------------------------ the file
  'issue.file_not_found': 'The file does not exist or cannot be opened.',
  'issue.file_not_found.not_a_file': 'The path is not a file.',
  'issue.file_empty': 'The file is empty (0 bytes); it is not a workbook.',
  'issue.file_too_large': 'The file is {size}; the limit is {limit}. Split the data into several workbooks.',
  'issue.not_a_zip': 'This is not an Excel workbook (.xlsx): the file is not in the .xlsx (zip) format.',
  'issue.csv_renamed':
    'This is a text (CSV) file with an {ext} name, not an Excel workbook. Rename it to .csv (Supply Loader reads CSV files), or open it in Excel and save it as "Excel Workbook (.xlsx)".',
  'issue.csv_renamed.no_extension':
    'This is a text (CSV) file without a file extension, not an Excel workbook. Name it .csv (Supply Loader reads CSV files), or open it in Excel and save it as "Excel Workbook (.xlsx)".',
  'issue.not_a_zip.unknown':
    'This is not a file Supply Loader reads: it is neither an Excel workbook (.xlsx, .xls, .ods) nor a text (CSV) file.',
  'issue.file_too_large.legacy':
    'The file is {size}; an {ext} file is read up to {limit}. Open it in Excel and save it as "Excel Workbook (.xlsx)", or export the data as .csv.',
  'issue.legacy_xls.unreadable':
    'This {ext} file cannot be read ({detail}). Open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)", or export the data as .csv.',
  'issue.legacy_xls':
    'This is an old-format Excel file (.xls) or another Office document, not an .xlsx workbook. Open it in Excel and save it as "Excel Workbook (.xlsx)".',
  'issue.password_protected': 'The workbook is password-protected. Remove the password in Excel and save it again.',
  'issue.password_protected.encrypted':
    'The workbook is password-protected (encrypted). Open it in Excel, remove the password (File → Info → Protect Workbook) and save it again.',
  'issue.password_protected.zip':
    'The file is encrypted (password-protected zip). Save it again in Excel without a password.',
  'issue.other_format': 'This is not an .xlsx workbook. Open it in Excel and save it as .xlsx.',
  'issue.other_format.xml2003':
    'This is an "XML Spreadsheet 2003" file, not an .xlsx workbook. Open it in Excel and save it as .xlsx.',
  'issue.other_format.html':
    'This is a web page (HTML) saved with an .xlsx name, not a workbook. Open it in Excel and save it as .xlsx.',
  'issue.other_format.html_page':
    'This is a web page (HTML), not an Excel workbook. Open it in Excel and save it as "Excel Workbook (.xlsx)", or export the data as .csv.',
  'issue.other_format.slk':
    'This is a SYLK file (Symbolic Link, .slk), not an Excel workbook (.xlsx). Open it in Excel and save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8".',
  'issue.other_format.dif':
    'This is a DIF file (Data Interchange Format, .dif), not an Excel workbook (.xlsx). Open it in Excel and save it as "Excel Workbook (.xlsx)" or as "CSV UTF-8".',
  'issue.other_format.ods':
    'This is an OpenDocument spreadsheet (.ods), not an .xlsx workbook. Save it as "Excel 2007-365 (.xlsx)".',
  'issue.other_format.xlsb':
    'This is a binary Excel workbook (.xlsb). Open it in Excel and save it as "Excel Workbook (.xlsx)".',
  'issue.corrupt_zip': 'The file is damaged: it cannot be unpacked as an .xlsx (zip) file ({detail}).',
  'issue.not_a_workbook':
    'The file is a zip archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx.',
  'issue.not_a_workbook.office': 'This is a Word or PowerPoint file, not an Excel workbook.',
  'issue.zip_bomb': 'The file unpacks to more than the size limit; it is refused as a possible zip bomb.',
  'issue.zip_bomb.entries': 'The file holds more than {limit} parts; a workbook never does. It is refused as unsafe.',
  'issue.zip_bomb.ratio':
    'The part {part} would unpack to {ratio} times its stored size (limit {limit}:1). The file is refused as a possible zip bomb.',
  'issue.zip_bomb.total':
    'The file would unpack to {size}; the limit is {limit}. Split the data into several workbooks.',
  'issue.zip_bomb.size_mismatch':
    'The part {part} unpacks to a different size than the file declares; the file is refused as unsafe (a zip bomb or a damaged file).',
  'issue.xml_entity':
    'The file contains an XML document type declaration (DOCTYPE/ENTITY) in {part}. Excel never writes one; the file is refused as unsafe.',
  'issue.too_many_rows':
    'Sheet "{sheet}" has more than {limit} data rows (the limit per sheet). Split the data into several workbooks.',
  'issue.no_known_sheet':
    'The workbook has no Supply Loader sheet. Expected sheets named {known} (use a template from Supply Loader).',
  'issue.sheet_unreadable':
    'Sheet "{sheet}" cannot be read: its data is missing from the file. Open the file in Excel and save it again.',
  'issue.unreadable': 'The workbook cannot be read: it looks damaged ({detail}). Open it in Excel and save it again.',
  'issue.unreadable.part': 'The part {part} of the file does not start like an Excel XML part; the file is refused.',

  // ------------------------------------------------ sheets and headers
  'issue.unknown_sheet': 'Sheet "{sheet}" is not a Supply Loader sheet; it is ignored. Known sheets: {known}.',
  'issue.sheet_name_normalised': 'Sheet "{sheet}" is read as {registryName}; rename it to "{registryName}".',
  'issue.duplicate_sheet':
    'Sheet "{sheet}" is a second {registryName} sheet (the first is "{first}"); put all rows into one sheet.',
  'issue.hidden_sheet': 'Sheet "{sheet}" is hidden; its rows are read and imported like the others.',
  'issue.missing_header': 'Required column {field} is missing from row 1 (add it, e.g. at {cell}).',
  'issue.missing_header.empty': 'Row 1 must hold the field names; required column {field} is missing.',
  'issue.duplicate_header': 'Column {field} appears twice ({firstCell} and {cell}); keep one of them.',
  'issue.misnamed_column':
    'Column “{header}” is not a field of {sheetName}: did you mean “{hint}”? Rename the header (or map it in a column mapping, or list it under “ignore”); until then the rows of this sheet are blocked.',
  'issue.no_data_rows':
    'No data rows: the file has no filled row below the header of any sheet. Nothing would be imported.',
  'issue.source_without_sheet':
    'The file "{source}" does not say which sheet it feeds: name it after a sheet (e.g. supplier-products.csv) or give a column mapping whose "source" matches it.',
  'issue.other_format.pdf':
    'This is a PDF document, not an Excel workbook (.xlsx) or CSV file. Export the data from its source as .xlsx or .csv.',
  'issue.other_format.image': 'This is an image ({kind}), not an Excel workbook (.xlsx) or CSV file.',
  'issue.other_format.archive':
    'This is a compressed archive ({kind}), not a workbook. Unpack it and choose the .xlsx or .csv file inside.',
  'issue.unknown_column': 'Column "{header}" is not a field of {sheetName}; it is ignored.',
  'issue.unknown_column.hint': 'Column "{header}" is not a field of {sheetName}; it is ignored. Did you mean {hint}?',
  'issue.header_normalised': 'Header "{header}" is read as {field}; write it exactly as {field}.',
  'issue.data_without_header': 'Column {column} has data but no field name in row 1; it is ignored.',
  'issue.merged_cell': 'Cells {range} are merged over {fields}; unmerge them and fill in every row.',

  // ------------------------------------------------ cells
  'issue.formula_error': '{field}: the cell shows the error {error}',
  'issue.formula_error.value': '{field}: the cell holds an error value',
  'issue.formula_error.formula': '{field}: the formula {formula} gives an error value (#REF!, #DIV/0!, #N/A …)',
  'issue.formula_error.formulaShown':
    '{field}: the formula {formula} gives the error {error}; fix it or type the value',
  'issue.formula_without_result':
    '{field}: the formula {formula} has no saved result; open the file in Excel and save it, or type the value',
  'issue.wrong_type': '{field}: expected {expected}, got {got}',
  'issue.number_as_text_ambiguous':
    '{field}: the text {text} could mean {small} or {large} (a decimal mark or a thousands separator?); type the number itself ({small} or {large})',
  'issue.number_as_text_imprecise':
    '{field}: Excel stored {text} as a number and may have changed its digits; format the column as Text and type it again',
  'issue.date_as_year': '{field}: the cell holds the date {date} where a year belongs; the year {year} is used',
  'issue.date_in_text_column':
    '{field}: Excel turned what was typed into the date {date}; format the column as Text and type it again',
  'issue.percent_format': '{field}: the cell is formatted as a percentage ({value} %); it is read as {value}',
  'issue.required': '{field} is required but the cell is blank',
  'issue.not_allowed': '{field}: expected {expected}, got {got}',
  'issue.out_of_range': '{field}: expected {expected}, got {got}',
  'issue.too_long': '{field} is {length} characters long; at most {max} are allowed',
  'issue.control_characters':
    '{field} contains control characters (line breaks, tabs or invisible characters); remove them',
  'issue.clear_required': '{field} is required: it cannot be cleared with #CLEAR',
  'issue.rule': '{rule}',
  'issue.missing_column':
    'Column {field} is missing from row {headerRow}, and this row needs it: add column {field} (e.g. at {headerCell}), or mark the row {rowAction}.',
  'issue.delete_cells_unused': 'a delete row uses only its {label:external_id}; not used: {fields}',
  'issue.rule.err_invalid_secondary_percentage_range': '{ruleField} must be between 0 and 100',
  'issue.rule.err_invalid_moisture_content_range': '{ruleField} must be between 0 and 100',
  'issue.rule.err_invalid_lifetime_years': '{ruleField} must be greater than 0',
  'issue.rule.err_not_valid.cas_number': '{got} is not a CAS number (e.g. 7732-18-5)',
  'issue.rule.err_not_valid.mass_share': '{ruleField} is a fraction: greater than 0, at most 1',
  'issue.rule.err_not_valid.mass_kg': '{ruleField} must be greater than 0',
  'issue.rule.err_not_valid.produced_to': '{ruleField} must not be before “{label:produced_from}”',
  'issue.rule.err_not_valid.category':
    '{ruleField} (elementary or composite) is required when {label:material_type_id} is given',

  // ------------------------------------------------ across rows and sheets
  'issue.duplicate_key': '{key} appears {count} times in {sheetName} (rows {rows}); each must be unique',
  'issue.duplicate_bom_component':
    '{componentType} {component} appears twice in the BOM of {instance} (first in row {firstRow}); a BOM holds each component once — add the masses into one row',
  'issue.silo_item_plant':
    'Supplier product {product} is at plant {productPlant}, silo {silo} at plant {siloPlant}: a silo holds supplier products of its own plant only',
  'issue.silo_item_material':
    "Supplier product {product} has material {material}, unlike the silo's other items: all supplier products of a silo must have the same material type",
  'issue.silo_item_no_supplier_plant':
    'Supplier product {product} (supplier-products row {productRow}) has no {label:supplier_plant_external_id}: the service refuses a silo item without a supplier plant; fill it in',
  'issue.code_unknown': '{field}: code "{value}" is not in this workbook or on the service',
  'issue.code_unknown.plant':
    '{field}: plant code "{value}" is not in the plants sheet, the profile\'s mappings or among the plants this API key can see',
  'issue.code_unknown.material':
    '{field}: material code "{value}" is not in the materials sheet, the profile\'s mappings or among the service\'s elementaries and composites',
  'issue.code_unknown.product': '{field}: no product with article number "{value}" on the service',
  'issue.code_unknown.supplier_company':
    '{field}: no supplier company with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.code_unknown.supplier_plant':
    '{field}: no supplier plant with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.code_unknown.supplier_product':
    '{field}: no supplier product with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.code_unknown.silo':
    '{field}: no silo with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.code_unknown.product_instance':
    '{field}: no product instance with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.code_unknown.prechain_product':
    '{field}: no prechain product with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'issue.too_many_issues': '{count} more issues ({errors} errors, {warnings} warnings) were left off this list.',

  // ------------------------------------------------ dry-run problems without a workbook issue code (by kind)
  'problem.validation': 'Check',
  'problem.unresolved': 'Unknown code',
  'problem.dependency_blocked': 'Depends on a blocked row',
  'problem.preflight': 'API key',
  'problem.conflict': 'Changed on the service',
  'problem.rule': 'Rule of the service',
  'problem.unreadable': 'Not readable',
  'problem.duplicate': 'Duplicate',

  // ------------------------------------------------ the planner's own problems (PLAN_PROBLEM_CODES) and group titles
  'plan.reference_blocked':
    '{field} "{value}" refers to {target} {targetCode} ({targetSheet} row {targetRow}), which is blocked',
  'plan.reference_blocked.row': '{field} "{value}" refers to {targetSheet} row {targetRow}, which is blocked',
  'plan.reference_unknown':
    '{field}: no {entity} with the code "{value}" ({label:external_id}) in this workbook or on the service',
  'plan.plant_unknown':
    '{field}: plant code "{value}" is not in the plants sheet, the profile\'s mappings or among the plants this API key can see (the key may not reach that plant)',
  'plan.material_unknown':
    '{field}: material code "{value}" is not in the materials sheet, the profile\'s mappings or among the service\'s elementaries and composites',
  'plan.product_unknown':
    '{field}: no product with article number "{value}" on the service (products are created in the web interface)',
  'plan.service_unreadable': '{field}: could not read {what} from the service: {detail}',
  'plan.service_unreadable.permission':
    '{field}: could not read {what} from the service (the key lacks the scope to read them): {detail}',
  'plan.duplicate_external_id':
    '{label:external_id} "{value}" appears more than once in {sheet} (first in {firstSheet} row {firstRow})',
  'plan.duplicate_external_id.elsewhere':
    '{label:external_id} "{value}" appears more than once in {sheet} (first in another row)',
  'plan.no_owner_code': 'the row has no code to attach it to',
  'plan.not_on_service': '{entity} {value} is not on the service',
  'plan.silo_without_items': 'silo {value} needs at least one item in the silo-items sheet',
  'plan.silo_rule': 'supplier product {value} breaks a silo rule of the service ({errCode})',
  'plan.silo_rule.no_items': 'a silo needs at least 1 item ({errCode})',
  'plan.silo_rule.twice': 'supplier product {value} appears more than once ({errCode})',
  'plan.silo_rule.not_found': 'supplier product {value} not found ({errCode})',
  'plan.silo_rule.other_plant': "supplier product {value} is not at the silo's plant ({errCode})",
  'plan.silo_rule.no_supplier_plant': 'supplier product {value} has no supplier plant ({errCode})',
  'plan.silo_rule.material': 'all supplier products of a silo must have the same material type ({errCode})',
  'plan.snapshot_conflict':
    'this row was exported from the service and the entity changed since: export it again (or remove the _snapshot cell to compare with the current data)',
  'plan.snapshot_conflict.changed':
    'this row was exported from the service and the entity changed on the service since the export: export it again (or remove the _snapshot cell to compare with the current data)',
  'plan.snapshot_conflict.deleted':
    'this row was exported from the service and the entity was deleted on the service since the export: export it again (or remove the _snapshot cell to compare with the current data)',
  'plan.snapshot_conflict.unreadable':
    'this row was exported from the service and the entity could not be read: export it again (or remove the _snapshot cell to compare with the current data)',
  'plan.missing_scope': 'the API key lacks the scope {scope}, needed to {action} {entities}',
  'plan.plant_unreachable': 'the API key cannot reach plant {plant}',
  'plan.key_unusable': '{detail}',
  'plan.row_rule': '{detail}',
  'plan.row_rule.outside_period': 'the year {year} lies outside the production period of the instance ({from}–{to})',
  'plan.row_rule.outside_period_open':
    'the year {year} lies before the production period of the instance (from {from})',
  // what an undo does not send: changed on the service since the job, or not recorded by it
  'plan.snapshot_conflict.undo_instance_deleted': 'the product instance was deleted on the service since job {jobId}',
  'plan.snapshot_conflict.undo_figures_changed':
    'the production figures of {years} were changed on the service since job {jobId}',
  'plan.snapshot_conflict.undo_bom_changed': 'the BOM was changed on the service since job {jobId}',
  'plan.snapshot_conflict.undo_changed': 'changed on the service since job {jobId}: {fields}',
  'plan.snapshot_conflict.undo_deleted': 'deleted on the service since job {jobId}',
  'plan.snapshot_conflict.undo_code_taken':
    'another entry with the code "{value}" ({label:external_id}) was created on the service since job {jobId} (id {id})',
  'plan.row_rule.undo_figures_added':
    'the production figures of {years} were added by job {jobId} and are not undone: the service sets years, it cannot take one back',
  'plan.row_rule.undo_bom_not_recorded': 'the BOM before job {jobId} was not recorded: it cannot be put back',
  'plan.row_rule.undo_children_not_recorded':
    'the BOM and production figures of {value} were not recorded before job {jobId} deleted it: the instance is re-created without them',
  'plan.row_has_errors': 'the row has errors (see the validation report)',
  'plan.in_use': '{entity} {value} is still used by {users}: remove that use first (or delete it in this import)',
  'plan.mirror_cap':
    'the mirror of {sheet} would delete {count} entities, more than the limit of {cap} deletes per import: nothing is deleted',
  'entity.supplier_company': 'supplier company',
  'entity.supplier_plant': 'supplier plant',
  'entity.supplier_product': 'supplier product',
  'entity.silo': 'silo',
  'entity.product_instance': 'product instance',
  'entity.prechain_product': 'prechain product',
  'entity.bom': 'BOM',
  'entities.supplier_company': 'supplier companies',
  'entities.supplier_plant': 'supplier plants',
  'entities.supplier_product': 'supplier products',
  'entities.silo': 'silos',
  'entities.product_instance': 'product instances',
  'entities.prechain_product': 'prechain products',
  'entities.bom': 'BOMs',
  'verb.create': 'create',
  'verb.update': 'update',
  'verb.replace': 'replace',
  'resource.supplier_companies': 'supplier companies',
  'resource.supplier_plants': 'supplier plants',
  'resource.supplier_products': 'supplier products',
  'resource.silos': 'silos',
  'resource.product_instances': 'product instances',
  'resource.prechain_products': 'prechain products',
  'resource.products': 'products',
  'resource.plants': 'plants',
  'resource.material_types_elementaries': 'material types (elementaries)',
  'resource.material_types_composites': 'material types (composites)',
  'issueGroup.file_not_found': 'File not found',
  'issueGroup.file_empty': 'Empty file',
  'issueGroup.file_too_large': 'File too large',
  'issueGroup.not_a_zip': 'Not an .xlsx file',
  'issueGroup.csv_renamed': 'CSV file with an .xlsx name',
  'issueGroup.legacy_xls': 'Old Excel format (.xls)',
  'issueGroup.password_protected': 'Password-protected',
  'issueGroup.other_format': 'Other file format',
  'issueGroup.corrupt_zip': 'Damaged file',
  'issueGroup.not_a_workbook': 'Not an Excel workbook',
  'issueGroup.zip_bomb': 'Unsafe file (zip bomb)',
  'issueGroup.xml_entity': 'Unsafe XML declaration',
  'issueGroup.too_many_rows': 'Too many rows',
  'issueGroup.no_known_sheet': 'No Supply Loader sheet',
  'issueGroup.sheet_unreadable': 'Sheet cannot be read',
  'issueGroup.unreadable': 'Workbook cannot be read',
  'issueGroup.unknown_sheet': 'Unknown sheet',
  'issueGroup.sheet_name_normalised': 'Sheet name read differently',
  'issueGroup.duplicate_sheet': 'Sheet appears twice',
  'issueGroup.hidden_sheet': 'Hidden sheet',
  'issueGroup.missing_header': 'Missing column',
  'issueGroup.duplicate_header': 'Column appears twice',
  'issueGroup.unknown_column': 'Unknown column',
  'issueGroup.misnamed_column': 'Misnamed column',
  'issueGroup.no_data_rows': 'No data rows',
  'issueGroup.source_without_sheet': 'File without a sheet',
  'issueGroup.header_normalised': 'Column name read differently',
  'issueGroup.data_without_header': 'Data without a column name',
  'issueGroup.merged_cell': 'Merged cells',
  'issueGroup.formula_error': 'Formula error',
  'issueGroup.formula_without_result': 'Formula without a result',
  'issueGroup.wrong_type': 'Wrong type of value',
  'issueGroup.number_as_text_ambiguous': 'Ambiguous number in text',
  'issueGroup.number_as_text_imprecise': 'Number changed by Excel',
  'issueGroup.date_as_year': 'Date where a year belongs',
  'issueGroup.date_in_text_column': 'Text turned into a date',
  'issueGroup.percent_format': 'Percentage format',
  'issueGroup.required': 'Required value missing',
  'issueGroup.not_allowed': 'Value not allowed',
  'issueGroup.out_of_range': 'Value out of range',
  'issueGroup.too_long': 'Text too long',
  'issueGroup.control_characters': 'Control characters',
  'issueGroup.clear_required': 'Required value cleared',
  'issueGroup.rule': 'Rule of the service',
  'issueGroup.missing_column': 'Column missing for a row',
  'issueGroup.delete_cells_unused': 'Cells of delete rows not used',
  'issueGroup.duplicate_key': 'Duplicate code',
  'issueGroup.duplicate_bom_component': 'Component twice in a BOM',
  'issueGroup.silo_item_plant': 'Silo item of another plant',
  'issueGroup.silo_item_material': 'Silo item of another material',
  'issueGroup.silo_item_no_supplier_plant': 'Silo item without supplier plant',
  'issueGroup.code_unknown': 'Unknown code',
  'issueGroup.too_many_issues': 'More issues left off',
} as const;
