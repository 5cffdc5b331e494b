import { describe, expect, it } from 'vitest';
import { TRACER_NAMES } from '../../core/index';
import { createNodeTracer } from './tracers';

describe('createNodeTracer', () => {
  it('makes a declared tracer by name, which reports that name', async () => {
    expect((await createNodeTracer('bkt')).info.name).toBe('bkt');
  });

  it('refuses an unknown name with UNKNOWN_TRACER naming the declared tracers', async () => {
    await expect(createNodeTracer('dkt')).rejects.toMatchObject({ code: 'UNKNOWN_TRACER', message: `unknown tracer "dkt" (tracers: ${TRACER_NAMES.join(', ')})` });
  });
});
