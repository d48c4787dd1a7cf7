import { z } from 'zod';
import { ACTIONS, SUBJECTS } from './subjects.ts';

// Apart from ability.ts, so that building an ability in the browser (at every page's first load) does not need zod.

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);

/** A stored permission rule, as in the roles table and in `userAbilityRules`. */
export const abilityRuleSchema = z.object({
  action: oneOrMany(z.enum(ACTIONS)),
  subject: oneOrMany(z.enum(SUBJECTS)),
  inverted: z.boolean().optional(),
  fields: oneOrMany(z.string()).optional(),
  conditions: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
});
export type AbilityRule = z.infer<typeof abilityRuleSchema>;
