import {
  AddPasskeyRequestSchema,
  AddPasskeyResponseSchema,
  ErrorResponseSchema,
  IdParamsSchema,
  PasskeyListResponseSchema,
  PasskeySignInOptionsRequestSchema,
  PasskeyOptionsRequestSchema,
  PasskeyOptionsResponseSchema,
  RemovePasskeyRequestSchema,
  RemovePasskeyResponseSchema,
  RenamePasskeyRequestSchema,
  RenamePasskeyResponseSchema,
  Verify2faResponseSchema,
  VerifyPasskeyRequestSchema,
  passkeyMessages,
  passkeyPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { createAccessTokens } from '../auth/access-token';
import { signedIn, signInErrors } from '../auth/routes';
import { passkeyOptionsForSignIn, verifyPasskeyLogin } from './passkey-sign-in';
import {
  addPasskey,
  listPasskeys,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from './service';

const security = [{ bearer: [] }];
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
};
const tags = ['security'];

export async function passkeyRoutes(app: App) {
  const { deps } = app;
  const tokens = createAccessTokens(deps.secrets.jwt, deps.clock);

  app.get(
    passkeyPaths.list,
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "The customer's passkeys, with the recovery codes left",
        security,
        response: { 200: PasskeyListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: passkeyMessages.listed,
      data: await listPasskeys(deps, request.auth.customerId),
    }),
  );

  app.post(
    passkeyPaths.registrationOptions,
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary:
          'After the password: the options for navigator.credentials.create, with a challenge good for five minutes',
        security,
        body: PasskeyOptionsRequestSchema,
        response: { 200: PasskeyOptionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: passkeyMessages.optionsReady,
      data: {
        ...(await registrationOptions(deps, request.auth.customerId, request.body.password)),
      },
    }),
  );

  app.post(
    passkeyPaths.add,
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary:
          "Adds the browser's new passkey; the account's first second step beyond e-mail answers ten recovery codes, once",
        security,
        body: AddPasskeyRequestSchema,
        response: { 200: AddPasskeyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const added = await addPasskey(deps, request.auth.customerId, request.body);
      const message = added.recoveryCodes ? passkeyMessages.addedWithCodes : passkeyMessages.added;
      return { success: true as const, message, data: added };
    },
  );

  app.patch(
    passkeyPaths.rename,
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "Renames one of the customer's passkeys",
        security,
        params: IdParamsSchema,
        body: RenamePasskeyRequestSchema,
        response: { 200: RenamePasskeyResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      message: passkeyMessages.renamed,
      data: {
        passkey: await renamePasskey(
          deps,
          request.auth.customerId,
          request.params.id,
          request.body.name,
        ),
      },
    }),
  );

  app.post(
    passkeyPaths.remove,
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "After the password: removes one of the customer's passkeys",
        security,
        params: IdParamsSchema,
        body: RemovePasskeyRequestSchema,
        response: { 200: RemovePasskeyResponseSchema, ...errors },
      },
    },
    async (request) => {
      await removePasskey(deps, request.auth.customerId, request.params.id, request.body.password);
      return { success: true as const, message: passkeyMessages.removed };
    },
  );

  app.post(
    passkeyPaths.signInOptions,
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign-in step two with a passkey: the options for navigator.credentials.get, for this sign-in',
        security: [],
        body: PasskeySignInOptionsRequestSchema,
        response: { 200: PasskeyOptionsResponseSchema, ...signInErrors },
      },
    },
    async (request) => ({
      success: true as const,
      message: passkeyMessages.signInOptions,
      data: { ...(await passkeyOptionsForSignIn(deps, request.body.tempToken, request.ip)) },
    }),
  );

  app.post(
    passkeyPaths.verify,
    {
      schema: {
        tags: ['auth'],
        summary: "Sign-in step two with a passkey's signature; sets the refresh cookie",
        security: [],
        body: VerifyPasskeyRequestSchema,
        response: { 200: Verify2faResponseSchema, ...signInErrors },
      },
    },
    async (request, reply) =>
      signedIn(
        reply,
        await verifyPasskeyLogin(deps, tokens, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        }),
        deps.clock.now(),
      ),
  );
}
