import type { FastifyRequest } from 'fastify';
import { PARTNER_API_KEY_HEADER } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import type { Partner } from './schema';
import { partnerForApiKey } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    partner: Partner;
  }
}

/** preHandler for the partner API: a valid, unrevoked key in X-Api-Key, or 401. */
export function createPartnerAuthenticate(app: App) {
  return async function authenticatePartner(request: FastifyRequest) {
    const key = request.headers[PARTNER_API_KEY_HEADER];
    if (typeof key !== 'string' || key.trim() === '') {
      throw new AppError('UNAUTHORIZED', 'An API key is required in the X-Api-Key header');
    }
    const partner = await partnerForApiKey(app.deps.db, app.deps.clock, key.trim());
    if (!partner) throw new AppError('UNAUTHORIZED', 'The API key is not valid');
    request.partner = partner;
  };
}
