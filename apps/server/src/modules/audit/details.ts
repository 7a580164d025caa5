import type { ExportKind } from '@portal/contract';

/** Why: the cause of a refusal, or what ended a session. */
export type AuditReason =
  | 'wrong_password'
  | 'wrong_code'
  | 'logout'
  | 'signed_out'
  | 'notice_link'
  | 'reuse'
  /** an operator command refused as the operator's mistake */
  | 'refused'
  /** an operator command that failed otherwise */
  | 'failed';

/**
 * What an event is about, as ids, dates and closed words only: there is no field a secret, a
 * code, a token, a password, an e-mail or a postal address could go into.
 */
export interface AuditDetails {
  reason?: AuditReason;
  sessionId?: string;
  sessionIds?: string[];
  exportId?: string;
  /** An export's kind, as the exports module names it. */
  kind?: ExportKind;
  format?: 'csv' | 'jsonl';
  /** A range of days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  rows?: number;
  recoveryCodes?: number;
  /** How the second factor was proved. */
  with?: 'app_code' | 'recovery_code' | 'passkey';
  passkeyId?: string;
  /** How a password was reset. */
  via?: 'email_link' | 'operator';
  /** An operator command's name, never its arguments. */
  command?: string;
}
