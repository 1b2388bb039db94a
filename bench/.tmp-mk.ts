import { buildDataset, countRows, sizeForRows } from '../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../test/fixtures/workbook.js';
const n = Number(process.argv[2]);
const d = buildDataset(sizeForRows(n), 'M' + n);
await writeDataWorkbook(process.argv[3], d);
console.log(countRows(d), Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v!.length])));
