/** The fault draws: `only.writes` spares reads, and the stall shares the reset's draw (no extra draw per request). */
import { describe, expect, it } from 'vitest';
import { Faults, NO_FAULTS } from '../../sandbox/faults.js';

describe('sandbox faults', () => {
  it('only.writes faults every method but GET', () => {
    const f = new Faults();
    f.configure({ ...NO_FAULTS, error_rate: 1, only: { writes: true } });
    expect(f.decide('GET', '/v2/silos').error).toBe(false);
    for (const m of ['POST', 'PATCH', 'PUT', 'DELETE']) expect(f.decide(m, '/v2/silos').error).toBe(true);
  });

  it('a stall is drawn from the reset draw, above its range: the same seed gives the same other draws', () => {
    const a = new Faults();
    const b = new Faults();
    a.configure({ ...NO_FAULTS, reset_after_commit_rate: 0.3, jitter_ms: 10, seed: 4 });
    b.configure({ ...NO_FAULTS, reset_after_commit_rate: 0.3, stall_after_commit_rate: 0.3, jitter_ms: 10, seed: 4 });
    let stalls = 0;
    for (let i = 0; i < 200; i++) {
      const x = a.decide('POST', '/v2/silos');
      const y = b.decide('POST', '/v2/silos');
      expect(y.delayMs).toBe(x.delayMs);
      expect(y.resetAfterCommit).toBe(x.resetAfterCommit);
      if (y.stallAfterCommit) {
        stalls++;
        expect(y.resetAfterCommit).toBe(false);
      }
    }
    expect(stalls).toBeGreaterThan(20);
  });
});
