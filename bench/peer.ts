/**
 * The consents page written plainly, the way a typical team would write it: Express 5, `pg`,
 * `jsonwebtoken`, a count(*) and an OFFSET page query on the portal's own tables, JSON out.
 * It answers `GET /api/user-consents?page=&limit=&userId=&consentStatus=` with the portal's
 * shape, so the two can be compared request for request.
 *
 * Run as its own process: PEER_DATABASE_URL, JWT_SECRET, DATA_ENCRYPTION_KEY; it listens on
 * 127.0.0.1 at a free port and prints `listening <url>`.
 */
import express from 'express';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { createEncryption } from '../apps/server/src/lib/encryption';

const STATUSES = ['Pending', 'Approved', 'Rejected', 'Expired'];

const pool = new pg.Pool({ connectionString: process.env.PEER_DATABASE_URL, max: 10 });
const secret = process.env.JWT_SECRET ?? '';
const encryption = createEncryption(process.env.DATA_ENCRYPTION_KEY ?? '');

interface ConsentRow {
  id: string;
  consent_id: string;
  status: string;
  partner_name: string;
  partner_public_id: string;
  document_key: string | null;
  permissions: string[];
  net_banking_user_id: string | null;
  access_token_enc: string | null;
  access_token_expires_at: Date | null;
  refresh_token_enc: string | null;
  refresh_token_expires_at: Date | null;
  provider_created_at: Date;
  created_at: Date;
  updated_at: Date;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function token(row: ConsentRow, field: 'access' | 'refresh') {
  const value = field === 'access' ? row.access_token_enc : row.refresh_token_enc;
  if (!value) return null;
  try {
    return encryption.decrypt(value, `consent:${row.id}:${field}`);
  } catch {
    return null;
  }
}

function toConsent(row: ConsentRow) {
  return {
    _id: row.id,
    consentId: row.consent_id,
    consentStatus: row.status,
    partnerName: row.partner_name,
    partnerId: row.partner_public_id,
    documentUploaded: row.document_key ? 'Y' : 'N',
    apiList: row.permissions,
    netBankingUserId: row.net_banking_user_id,
    accessToken: token(row, 'access'),
    accessTokenExpiresAt: iso(row.access_token_expires_at),
    refreshToken: token(row, 'refresh'),
    refreshTokenExpiresAt: iso(row.refresh_token_expires_at),
    createdAt: row.created_at.toISOString(),
    consentCreationDate: iso(row.provider_created_at),
    lastUpdated: row.updated_at.toISOString(),
  };
}

function whole(value: unknown, fallback: number, max: number) {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

const app = express();

app.get('/api/user-consents', async (req, res) => {
  const header = req.headers.authorization ?? '';
  let customerId: string;
  try {
    const claims = jwt.verify(header.replace(/^Bearer /i, ''), secret, {
      algorithms: ['HS256'],
      audience: 'customer-portal',
      issuer: 'customer-portal',
    }) as jwt.JwtPayload;
    customerId = String(claims.sub);
  } catch {
    res.status(401).json({ success: false, message: 'Unauthorized access. Please log in.' });
    return;
  }

  const page = whole(req.query.page, 1, 100_000);
  const limit = whole(req.query.limit, 10, 100);
  const status = req.query.consentStatus;
  if (page === null || limit === null) {
    res.status(400).json({ success: false, message: 'page and limit must be positive integers' });
    return;
  }
  if (status !== undefined && !STATUSES.includes(String(status))) {
    res.status(400).json({ success: false, message: 'Unknown consentStatus' });
    return;
  }
  if (req.query.userId !== customerId) {
    res.status(403).json({ success: false, message: 'You can only view your own consents.' });
    return;
  }

  const params: unknown[] = [customerId];
  let where = 'c.customer_id = $1';
  if (status !== undefined) {
    params.push(status);
    where += ' AND c.status = $2';
  }
  const counted = await pool.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM consents c WHERE ${where}`,
    params,
  );
  const rows = await pool.query<ConsentRow>(
    `SELECT c.*, p.name AS partner_name, p.partner_id AS partner_public_id
       FROM consents c JOIN partners p ON p.id = c.partner_ref
      WHERE ${where}
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
    params,
  );
  const total = counted.rows[0]?.total ?? 0;
  res.json({
    success: true,
    data: rows.rows.map(toConsent),
    pagination: { total, page, limit, total_pages: Math.ceil(total / limit) },
  });
});

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    console.log(`listening http://127.0.0.1:${address.port}`);
  }
});
process.on('SIGTERM', () => server.close(() => void pool.end()));
