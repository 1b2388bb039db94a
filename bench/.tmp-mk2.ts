import { buildDataset, countRows } from '../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../test/fixtures/workbook.js';
const n = Number(process.argv[2]);
const d = buildDataset({ companies: Math.round(n / 100), products: n, silos: 0, instances: 0, prechain: 0 }, 'P' + n);
await writeDataWorkbook(process.argv[3], d);
console.log(countRows(d), Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v!.length])));
