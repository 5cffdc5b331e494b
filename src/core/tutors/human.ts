/**
 * The human tutor ("human"): a person at the Play view holds each turn and acts through the same
 * tool box and turn rules as any agent. Its config is what the trace records about the person:
 * an optional display name (shown as text, never as markup). Nothing is created: a person's turns
 * are held by the Play driver (engine/play.ts), not by a Tutor object.
 */
import { z } from 'zod';
import type { TutorEntry } from './types';
import { SimError } from '../errors';

export const HumanTutorConfigSchema = z
  .object({
    /** Optional display name, e.g. "Ms Rivera". */
    name: z.string().trim().max(80, 'a display name of at most 80 characters').default(''),
  })
  .strict();
export type HumanTutorConfig = z.infer<typeof HumanTutorConfigSchema>;

export const humanTutor: TutorEntry = {
  name: 'human',
  description: 'A person plays the tutor in the Play view, turn by turn, through the same tools as an agent.',
  needs: ['human'],
  configSchema: HumanTutorConfigSchema,
  parseConfig(config) {
    const r = HumanTutorConfigSchema.safeParse(config);
    if (!r.success) throw new SimError('RUN_INVALID', `human tutor config: ${r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`);
    return r.data;
  },
  create() {
    throw new SimError('TUTOR_NOT_AUTOMATED', 'the human tutor is played by a person in the Play view');
  },
};
