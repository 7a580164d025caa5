/**
 * The contract's schemas that the API modules check answers against. This module is only ever
 * loaded through `import()` (lib/response-schema), so that zod and these schemas stay out of
 * the first load: they arrive in a chunk of their own while the first requests are on their way.
 */
export {
  ActivityFeedResponseSchema,
  ChangePasswordResponseSchema,
  CheckStatusResponseSchema,
  ComingUpResponseSchema,
  ConsentDetailResponseSchema,
  ConsentHistoryResponseSchema,
  ConsentListResponseSchema,
  ConsentStatusResponseSchema,
  CreateOrderResponseSchema,
  CreatePaymentResponseSchema,
  DashboardCountersResponseSchema,
  DeleteConsentResponseSchema,
  EndOtherSessionsResponseSchema,
  EndSessionByLinkResponseSchema,
  EndSessionResponseSchema,
  ForgotPasswordResponseSchema,
  LastSignInResponseSchema,
  LogoutResponseSchema,
  MarkNotificationsSeenResponseSchema,
  NotificationsResponseSchema,
  OrderHistoryResponseSchema,
  PlansResponseSchema,
  PluginsResponseSchema,
  ReconnectConsentResponseSchema,
  RefreshTokenResponseSchema,
  ResendVerificationResponseSchema,
  ResetPasswordResponseSchema,
  SessionsResponseSchema,
  SignInHistoryResponseSchema,
  UserSchema,
  Verify2faResponseSchema,
} from '@portal/contract';
