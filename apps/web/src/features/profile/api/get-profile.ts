import { queryOptions, useQuery } from '@tanstack/react-query';
import { authPaths, type User } from '@portal/contract';
import { ApiError, SessionEndedError, api } from '@/lib/http';
import { nextTask } from '@/lib/next-task';
import { responseSchema } from '@/lib/response-schema';

/** The answer arrived but carried no user (spec §8 Profile). */
export class MissingUserError extends Error {
  constructor() {
    super('User data not found in response.');
    this.name = 'MissingUserError';
  }
}

const NOT_AUTHORIZED = 'Not authorized';

const messageOf = (value: unknown) => (value as { message?: unknown } | null)?.message;

async function fetchProfileBody(): Promise<unknown> {
  try {
    return await api.get<unknown>(authPaths.profile);
  } catch (error) {
    // an error answer is treated like a body, so the 'Not authorized' retry covers both
    if (error instanceof ApiError && !(error instanceof SessionEndedError)) {
      if (messageOf(error.body) === NOT_AUTHORIZED) return error.body;
    }
    throw error;
  }
}

/** GET /api/auth/profile; a 'Not authorized' answer is asked again once (spec §7). */
export async function getProfile(): Promise<User> {
  const firstAnswer = fetchProfileBody();
  // asked for a task after the request (see lib/http); a failed load surfaces only if awaited
  const userSchema = nextTask().then(responseSchema('UserSchema'));
  userSchema.catch(() => undefined);
  let body = await firstAnswer;
  if (messageOf(body) === NOT_AUTHORIZED) body = await api.get<unknown>(authPaths.profile);
  const user = (body as { data?: { user?: unknown } } | null)?.data?.user;
  if (!user) throw new MissingUserError();
  const parsed = (await userSchema).safeParse(user);
  if (!parsed.success) throw new ApiError(200, 'Unexpected response', body);
  return parsed.data;
}

export const getProfileQueryOptions = () =>
  queryOptions({ queryKey: ['profile'], queryFn: getProfile });

export const useProfile = () => useQuery(getProfileQueryOptions());
