import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Whole } from '../../renderer/src/screens/impact/ImpactParts.js';

describe('codes and cell references in the LCA impact texts', () => {
  it('keeps each word with a hyphen on one line and wraps at spaces only', () => {
    const html = renderToStaticMarkup(createElement(Whole, { text: 'silo E-SILO-1; rows silo-items!2, bom!4' }));
    expect(html).toBe(
      'silo <span class="nowrap">E-SILO-1;</span> rows <span class="nowrap">silo-items!2,</span> bom!4',
    );
  });
});
