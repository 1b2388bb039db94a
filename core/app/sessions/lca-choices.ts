/** What the LCA screen offers to choose from: products with instances, plants and instance codes (reads only). */
import type { ApiClient } from '../../api/index.js';

/** Products with instances, plants and instance codes to choose from (one walk each; reads only). */
export async function lcaOptions(client: ApiClient) {
  const products: { article: string; name: string; instances: number }[] = [];
  for await (const p of client.products.walk({ limit: 200 })) {
    const n = Array.isArray(p.product_instance_ids) ? p.product_instance_ids.length : 0;
    if (p.external_id && n > 0) products.push({ article: p.external_id, name: p.name, instances: n });
  }
  let plantsReadable = true;
  const plants: { code: string; name: string | null }[] = [];
  try {
    for await (const p of client.plants.walk({ limit: 200 }))
      if (p.external_id) plants.push({ code: p.external_id, name: p.name ?? null });
  } catch (e) {
    if ((e as { status?: number }).status !== 403) throw e;
    plantsReadable = false;
  }
  const instances: { externalId: string; name: string | null }[] = [];
  let instancesTruncated = false;
  for await (const i of client.productInstances.walk({ limit: 200 })) {
    if (!i.external_id) continue;
    if (instances.length >= 2000) {
      instancesTruncated = true;
      break;
    }
    instances.push({ externalId: i.external_id, name: i.name ?? null });
  }
  const byText = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  products.sort((a, b) => byText(a.article, b.article));
  plants.sort((a, b) => byText(a.code, b.code));
  instances.sort((a, b) => byText(a.externalId, b.externalId));
  return { products, plants, plantsReadable, instances, instancesTruncated };
}
