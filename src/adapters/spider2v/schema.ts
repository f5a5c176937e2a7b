// Spider2-V task files (`examples/<tool>/<id>/<id>.json`): OSWorld's shape plus tags, action_number, counterpart,
// and their own step and getter types.
import { z } from 'zod';
import { osworldTaskSchema } from '../osworld/schema.ts';
import { stringList } from '../../task/schema-parts.ts';

export const spider2vTaskSchema = osworldTaskSchema.extend({
  tags: stringList.optional(),
  action_number: z.number({ error: 'expected the number of actions (a number)' }).int().nonnegative().optional(),
  counterpart: z.string().optional(),
});
