/**
 * The whole renderer ↔ main surface, snapshotted (as Insomnia's services-invoke-surface test): procedure names
 * with the JSON Schema of their input and output, and the event payloads. Adding or widening anything changes
 * the snapshot and so shows in review. Update deliberately with `npx vitest run test/ipc/surface.test.ts -u`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { events, procedures } from '../../core/ipc/contract.js';
import { EVENT_NAMES, PROCEDURE_NAMES } from '../../core/contract/names.js';

function surface() {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(procedures).sort()) {
    const def = procedures[name as keyof typeof procedures];
    out[`procedure ${name}`] = {
      summary: def.summary,
      input: z.toJSONSchema(def.input, { io: 'input' }),
      output: z.toJSONSchema(def.output),
    };
  }
  for (const name of Object.keys(events).sort()) {
    out[`event ${name}`] = z.toJSONSchema(events[name as keyof typeof events]);
  }
  return out;
}

describe('IPC surface', () => {
  it('names the same procedures and events as the preload allowlist', () => {
    expect(Object.keys(procedures).sort()).toEqual([...PROCEDURE_NAMES].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('matches the reviewed snapshot', async () => {
    await expect(JSON.stringify(surface(), null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/ipc-surface.json');
  });

  it('never carries an API key in an output or event', () => {
    const text = JSON.stringify(
      Object.fromEntries(Object.entries(procedures).map(([n, d]) => [n, z.toJSONSchema(d.output)])),
    ).toLowerCase();
    expect(text).not.toMatch(/"apikey"|"api_key"|"secret"|"ownerkey"|"owner_key"/);
  });
});
