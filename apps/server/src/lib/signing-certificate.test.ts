import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSigningCertificate, signingSettingsProblem } from './signing-certificate';
import { makeP12 } from '../test/invoices';

const run = promisify(execFile);

const PASSWORD = 'p12-pass-Qd47';
const UNFIT = (file: string) =>
  `INVOICE_SIGNING_P12_FILE ${file} must hold an encrypted private key and a certificate whose subject has a common name (CN)`;

let dir: string;
let p12File: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'signing-certificate-'));
  p12File = path.join(dir, 'invoices.p12');
  await makeP12(p12File, '/O=Ledgerline/CN=Ledgerline Invoices', PASSWORD);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('opening the signing certificate', () => {
  it('answers the certificate of its key, with its common name, and every certificate of the file', () => {
    const opened = openSigningCertificate(p12File, PASSWORD);
    expect(opened.commonName).toBe('Ledgerline Invoices');
    expect(opened.certificate.subject.getField('CN').value).toBe('Ledgerline Invoices');
    expect(opened.certificates).toEqual([opened.certificate]);
  });

  it('signs, with Node’s crypto, exactly as forge’s own key signs', async () => {
    const opened = openSigningCertificate(p12File, PASSWORD);
    const forgeKey = forge.pki.privateKeyFromPem(await readFile(`${p12File}.key.pem`, 'utf8'));
    const digest = () => forge.md.sha256.create().update('Invoice INV/26-27/000042');
    const signature = opened.key.sign(digest(), 'RSASSA-PKCS1-V1_5');
    expect(signature).toBe(forgeKey.sign(digest(), 'RSASSA-PKCS1-V1_5'));
    expect(forgeKey.n.equals(opened.key.n)).toBe(true);
  });

  it('refuses the DER certificate given in place of its .p12 as no PKCS#12 file', async () => {
    const file = path.join(dir, 'certificate.der');
    await run('openssl', ['x509', '-in', `${p12File}.cert.pem`, '-outform', 'DER', '-out', file]);
    expect(signingSettingsProblem(file, PASSWORD)).toBe(
      `INVOICE_SIGNING_P12_FILE ${file} is not a PKCS#12 (.p12) file`,
    );
  });

  it('refuses a .p12 that holds the certificate without its private key', async () => {
    const file = path.join(dir, 'no-key.p12');
    await run('openssl', [
      'pkcs12',
      '-export',
      '-nokeys',
      '-in',
      `${p12File}.cert.pem`,
      '-out',
      file,
      '-passout',
      `pass:${PASSWORD}`,
    ]);
    expect(signingSettingsProblem(file, PASSWORD)).toBe(UNFIT(file));
  });

  it('refuses a certificate whose subject has no common name', async () => {
    const file = path.join(dir, 'no-cn.p12');
    await makeP12(file, '/O=Ledgerline', PASSWORD);
    expect(signingSettingsProblem(file, PASSWORD)).toBe(UNFIT(file));
  });

  it('refuses a certificate whose common name is empty', async () => {
    // openssl leaves an empty CN out of the subject; a certificate made elsewhere may hold one
    const key = forge.pki.privateKeyFromPem(await readFile(`${p12File}.key.pem`, 'utf8'));
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date();
    cert.validity.notAfter = new Date(Date.now() + 30 * 86_400_000);
    const subject = [
      { name: 'organizationName', value: 'Ledgerline' },
      { name: 'commonName', value: '' },
    ];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.sign(key, forge.md.sha256.create());
    expect(cert.subject.getField('CN').value).toBe('');
    const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], PASSWORD, { algorithm: 'aes256' });
    const file = path.join(dir, 'empty-cn.p12');
    await writeFile(file, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
    expect(signingSettingsProblem(file, PASSWORD)).toBe(UNFIT(file));
  });

  it('refuses a .p12 whose certificate is not its private key’s', async () => {
    const key = forge.pki.privateKeyFromPem(await readFile(`${p12File}.key.pem`, 'utf8'));
    const other = path.join(dir, 'other.p12');
    await makeP12(other, '/O=Ledgerline/CN=Someone Else', PASSWORD);
    const otherCert = forge.pki.certificateFromPem(await readFile(`${other}.cert.pem`, 'utf8'));
    const p12 = forge.pkcs12.toPkcs12Asn1(key, [otherCert], PASSWORD, { algorithm: 'aes256' });
    const file = path.join(dir, 'mismatched.p12');
    await writeFile(file, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
    expect(signingSettingsProblem(file, PASSWORD)).toBe(UNFIT(file));
  });
});
