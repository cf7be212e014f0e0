import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';

/**
 * The upload panel's batch form: the target prefix. The batch's headers and custom metadata are the shared
 * metadata form (components/metadata-form), with its own form state and the same rules as the editor.
 */
export interface BatchFormValues {
  prefix: string;
}

export function emptyBatchForm(prefix: string): BatchFormValues {
  return { prefix };
}

export const batchFormSchema = z.object({
  // ref §7/§1.3: a key must not start with '/', so neither may the prefix in front of it.
  prefix: z.string().refine((prefix) => !prefix.startsWith('/'), { params: { rule: 'prefix_leading_slash' } }),
});

/** A resolver that keeps the rule id as the error `type`, so the panel shows it in the user's language. */
export const batchFormResolver: Resolver<BatchFormValues> = async (values) => {
  const parsed = batchFormSchema.safeParse(values);
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<BatchFormValues> = {};
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'prefix') errors.prefix ??= { type: 'prefix_leading_slash', message: issue.message };
  }
  return { values: {}, errors };
};
