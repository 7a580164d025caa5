/**
 * Where each of the contract's response schemas that the API modules check answers against lives.
 * Each contract module is loaded by `import()` when an answer of it is first checked, so that zod
 * and the schemas stay out of the first load, and a screen evaluates only the modules it uses,
 * each in a task of its own, instead of the whole contract in one long task.
 */
const contractModules = {
  activity: () => import('@portal/contract/activity'),
  auth: () => import('@portal/contract/auth'),
  'auto-renewal': () => import('@portal/contract/auto-renewal'),
  billing: () => import('@portal/contract/billing'),
  'coming-up': () => import('@portal/contract/coming-up'),
  consents: () => import('@portal/contract/consents'),
  dashboard: () => import('@portal/contract/dashboard'),
  exports: () => import('@portal/contract/exports'),
  invoices: () => import('@portal/contract/invoices'),
  notifications: () => import('@portal/contract/notifications'),
  orders: () => import('@portal/contract/orders'),
  passkeys: () => import('@portal/contract/passkeys'),
  payments: () => import('@portal/contract/payments'),
  plans: () => import('@portal/contract/plans'),
  plugins: () => import('@portal/contract/plugins'),
  preferences: () => import('@portal/contract/preferences'),
  privacy: () => import('@portal/contract/privacy'),
  profile: () => import('@portal/contract/profile'),
  security: () => import('@portal/contract/security'),
  'two-factor': () => import('@portal/contract/two-factor'),
};

export const schemaHomes = {
  ActivityFeedResponseSchema: 'activity',
  ChangePasswordResponseSchema: 'auth',
  CodeMailStatusResponseSchema: 'auth',
  ForgotPasswordResponseSchema: 'auth',
  LogoutResponseSchema: 'auth',
  RefreshTokenResponseSchema: 'auth',
  ResendVerificationResponseSchema: 'auth',
  ResetPasswordResponseSchema: 'auth',
  Verify2faResponseSchema: 'auth',
  AutoRenewalResponseSchema: 'auto-renewal',
  BillingDetailsResponseSchema: 'billing',
  SaveBillingDetailsResponseSchema: 'billing',
  ComingUpResponseSchema: 'coming-up',
  ConsentDetailResponseSchema: 'consents',
  ConsentHistoryResponseSchema: 'consents',
  ConsentListResponseSchema: 'consents',
  ConsentStatusResponseSchema: 'consents',
  DeleteConsentResponseSchema: 'consents',
  ConsentChangeResponseSchema: 'consents',
  DashboardCountersResponseSchema: 'dashboard',
  ExportLinkResponseSchema: 'exports',
  InvoiceListResponseSchema: 'invoices',
  MarkNotificationsSeenResponseSchema: 'notifications',
  NotificationsResponseSchema: 'notifications',
  CheckStatusResponseSchema: 'orders',
  CreateOrderResponseSchema: 'orders',
  OrderHistoryResponseSchema: 'orders',
  AddPasskeyResponseSchema: 'passkeys',
  PasskeyListResponseSchema: 'passkeys',
  PasskeyOptionsResponseSchema: 'passkeys',
  RemovePasskeyResponseSchema: 'passkeys',
  RenamePasskeyResponseSchema: 'passkeys',
  CreatePaymentResponseSchema: 'payments',
  PlansResponseSchema: 'plans',
  PluginsResponseSchema: 'plugins',
  EndOtherSessionsResponseSchema: 'security',
  EndSessionByLinkResponseSchema: 'security',
  EndSessionResponseSchema: 'security',
  LastSignInResponseSchema: 'security',
  SessionsResponseSchema: 'security',
  SignInHistoryResponseSchema: 'security',
  DisableTwoFactorResponseSchema: 'two-factor',
  DismissInvitationResponseSchema: 'two-factor',
  EnableTwoFactorResponseSchema: 'two-factor',
  TwoFactorSetupResponseSchema: 'two-factor',
  TwoFactorStatusResponseSchema: 'two-factor',
  NotificationPreferencesResponseSchema: 'preferences',
  PrivacyMessageResponseSchema: 'privacy',
  NomineeResponseSchema: 'privacy',
  GrievancesResponseSchema: 'privacy',
  GrievanceRecordedResponseSchema: 'privacy',
  CorrectionsResponseSchema: 'privacy',
  PrivacyNoticeResponseSchema: 'privacy',
  CorrectionRecordedResponseSchema: 'privacy',
  DataExportResponseSchema: 'privacy',
  DataExportRequestedResponseSchema: 'privacy',
  UserSchema: 'profile',
} as const satisfies Record<string, keyof typeof contractModules>;

export type SchemaName = keyof typeof schemaHomes;
type HomeOf<K extends SchemaName> = Awaited<
  ReturnType<(typeof contractModules)[(typeof schemaHomes)[K]]>
>;
export type ResponseSchemaOf<K extends SchemaName> = HomeOf<K>[K & keyof HomeOf<K>];

/** The schema of the given name, from its contract module. */
export async function loadResponseSchema<K extends SchemaName>(
  name: K,
): Promise<ResponseSchemaOf<K>> {
  const home = (await contractModules[schemaHomes[name]]()) as Record<string, unknown>;
  return home[name] as ResponseSchemaOf<K>;
}
