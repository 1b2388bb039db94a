/** `supply-loader me`: what the key may do right now (/v2/me), with plant codes. */
import { runContext } from '../shared/context.js';
import { expectPositionals } from '../shared/args.js';
import { EXIT, type CliCommand } from '../shared/types.js';

export const meCommand: CliCommand = {
  name: 'me',
  summary: 'Show the key (masked), its manufacturer, effective scopes and reachable plants',
  usage: 'supply-loader me [--json]',
  options: {},
  needsConnection: true,
  async run(_values, positionals, ctx) {
    expectPositionals(positionals, [], 'me');
    const rc = runContext(ctx);
    const me = await ctx.client.me({ signal: ctx.signal });
    const plantCodes = new Map<string, string>();
    for await (const p of ctx.client.plants.walk({}, { signal: ctx.signal })) {
      plantCodes.set(p.id, p.external_id ?? p.name ?? p.id);
    }
    const plants = me.plant_ids.map((id) => ({ id, code: plantCodes.get(id) ?? null }));
    if (ctx.json) {
      ctx.stdout(
        `${JSON.stringify(
          {
            base_url: ctx.baseUrl,
            key: ctx.maskedKey,
            key_source: rc.keySource,
            manufacturer_id: me.manufacturer_id,
            api_key_id: me.api_key_id,
            owner_profile_id: me.owner_profile_id,
            scopes: me.scopes,
            plants,
          },
          null,
          2,
        )}\n`,
      );
      return EXIT.ok;
    }
    ctx.stdout(
      [
        `service:      ${ctx.baseUrl}`,
        `key:          ${ctx.maskedKey} (from ${rc.keySource})`,
        `manufacturer: ${me.manufacturer_id}`,
        `scopes:       ${me.scopes.length ? [...me.scopes].sort().join(', ') : '(none)'}`,
        `plants:       ${plants.length ? plants.map((p) => p.code ?? p.id).join(', ') : '(none: the key reaches no plant)'}`,
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  },
};
