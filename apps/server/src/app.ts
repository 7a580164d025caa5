import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { DestinationStream } from 'pino';
import type { AppDeps } from './deps';
import { answerRouterRefusal, registerErrorHandling } from './lib/http-errors';
import { registerNoStoreForApi } from './lib/http-headers';
import { loggerOptions } from './lib/logging';
import { openApiOptions } from './openapi';
import type { App } from './lib/types';
import { createAccessTokens } from './modules/auth/access-token';
import { registerAuthentication } from './modules/auth/authenticate';
import { registerSignInBrowsers } from './modules/auth/browsers';
import { healthRoutes, readinessChecks } from './modules/health/routes';
import { authRoutes } from './modules/auth/routes';
import { passwordRoutes } from './modules/auth/password-routes';
import { pluginRoutes } from './modules/plugins/routes';
import { activityRoutes } from './modules/activity/routes';
import { consentRoutes } from './modules/consents/routes';
import { partnerRoutes } from './modules/partners/routes';
import { sandboxBankRoutes } from './sandbox/bank/routes';
import { SANDBOX_BANK_PREFIX } from './sandbox/bank/settings';
import { planRoutes } from './modules/plans/routes';
import { orderRoutes } from './modules/purchases/order-routes';
import { paymentRoutes } from './modules/purchases/payment-routes';
import { handleSubscriptionEvent } from './modules/auto-renewal/webhooks';
import { receiptRoutes } from './modules/purchases/receipt-routes';
import { invoiceRoutes } from './modules/invoices/routes';
import { billingRoutes } from './modules/billing/routes';
import { autoRenewalRoutes } from './modules/auto-renewal/routes';
import { reminderRoutes } from './modules/reminders/routes';
import { exportRoutes } from './modules/exports/routes';
import { twoFactorRoutes } from './modules/two-factor/routes';
import { passkeyRoutes } from './modules/passkeys/routes';
import { securityRoutes } from './modules/security/routes';
import { preferencesRoutes } from './modules/preferences/routes';
import { privacyRoutes } from './modules/privacy/routes';
import { sandboxGatewayRoutes } from './sandbox/gateway/routes';
import { sandboxIrpRoutes } from './sandbox/irp/routes';
import { SANDBOX_IRP_PREFIX } from './sandbox/irp/settings';
import { registerAfterAnswer } from './lib/after-answer';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  /** Pino logging; tests pass false, or a stream to read what would be logged. */
  logger?: boolean | { stream: DestinationStream };
}

/** Composes the API and the SPA. Never listens: main.ts and tests decide how to serve it. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : loggerOptions(
            config.LOG_LEVEL,
            typeof options.logger === 'object' ? options.logger.stream : undefined,
          ),
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerRouterRefusal,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  registerErrorHandling(app);
  registerNoStoreForApi(app);

  // helmet's middleware made once, at start: @fastify/helmet makes it anew for every request,
  // which took about 7 % of a small route's CPU
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // toasts and dialogs set inline styles at run time
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only means something over TLS; sent below when the request came over https
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });
  await app.register(fastifyCookie);

  deps.metrics.watch({ db: deps.db, queue: deps.queue, readiness: () => readinessChecks(deps) });
  // only where the metrics are served, so that a portal nobody scrapes pays nothing per request
  if (config.METRICS_PORT) app.addHook('onResponse', deps.metrics.countAnswers);

  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerAuthentication(app, {
    tokens: createAccessTokens(deps.secrets.jwt, deps.clock),
    db: deps.db,
    clock: deps.clock,
  });

  registerAfterAnswer(app);
  // before the routes, so that the sign-in route is registered with the hook
  registerSignInBrowsers(app, deps);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(passwordRoutes);
  await app.register(pluginRoutes);
  await app.register(activityRoutes);
  await app.register(consentRoutes);
  await app.register(partnerRoutes);
  await app.register(planRoutes);
  await app.register(orderRoutes);
  await app.register(paymentRoutes, { subscriptionEvents: handleSubscriptionEvent });
  await app.register(receiptRoutes);
  await app.register(invoiceRoutes);
  await app.register(billingRoutes);
  await app.register(autoRenewalRoutes);
  await app.register(securityRoutes);
  await app.register(preferencesRoutes);
  await app.register(privacyRoutes);
  await app.register(reminderRoutes);
  await app.register(exportRoutes);
  await app.register(twoFactorRoutes);
  await app.register(passkeyRoutes);
  if (deps.payments.settings.sandbox) await app.register(sandboxGatewayRoutes);
  if (deps.consents.sandboxBank) {
    await app.register(sandboxBankRoutes(deps.consents.sandboxBank), {
      prefix: SANDBOX_BANK_PREFIX,
    });
  }
  if (deps.eInvoicing?.sandboxIrp) {
    await app.register(sandboxIrpRoutes(deps.eInvoicing.sandboxIrp), {
      prefix: SANDBOX_IRP_PREFIX,
    });
  }

  await registerSpa(app, config.WEB_DIST_DIR);
  return app;
}

/** Hashed build output: a changed file gets a new name, so a copy may be kept for a year. */
const IMMUTABLE_ASSET = /^\/assets\//;
/** Paths that name a file (an extension); a missing one is a 404, never the app. */
const FILE_PATH = /\/[^/]*\.[a-z0-9]+$/i;

/**
 * Serves the built SPA: files precompressed by the build, sent by Accept-Encoding; every other
 * GET or HEAD that is not the API and not a file gets index.html, whatever the Accept header
 * (links from mail, monitors and link checkers send none).
 */
async function registerSpa(app: App, distDir: string) {
  const hasSpa = existsSync(path.join(distDir, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        const relative = '/' + path.relative(distDir, filePath).split(path.sep).join('/');
        reply.header(
          'cache-control',
          IMMUTABLE_ASSET.test(relative) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const servesApp =
      hasSpa &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !FILE_PATH.test(pathname);
    if (servesApp) return reply.sendFile('index.html');
    return reply.code(404).send({
      success: false,
      message: `Route ${request.method} ${pathname} not found`,
    });
  });
}
