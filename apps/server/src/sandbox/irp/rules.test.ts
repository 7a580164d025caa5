import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { schemaProblems, type Inv01 } from './inv-01';
import { documentDay, financialYear, irnOf, irpTime, ruleProblems } from './rules';
import { SANDBOX_IRP_ISSUER, createIrpSigner, qrPayload } from './signing';
import { validInvoice } from '../../test/inv-01';

const invoice = () => validInvoice();

/** 15:30 on 1 June 2026 in India. */
const NOW = new Date('2026-06-01T10:00:00.000Z');
const codes = (problems: { ErrorCode: string }[]) => problems.map((p) => p.ErrorCode);

describe('the IRN', () => {
  it("is the SHA-256 of NIC's own example string", () => {
    const example = {
      SellerDtls: { Gstin: '01AAAAA9999A19N' },
      DocDtls: { Typ: 'INV' as const, No: 'ABC01234', Dt: '12/12/2019' },
    };
    expect(irnOf(example, documentDay('12/12/2019')!)).toBe(
      '353c2677715ae97aa876a37262a38381a75c1d1184f6a803f703bb395971925f',
    );
    const lower = { ...example, DocDtls: { ...example.DocDtls, No: 'abc01234' } };
    expect(irnOf(lower, documentDay('12/12/2019')!)).toBe(
      irnOf(example, documentDay('12/12/2019')!),
    );
  });

  it('takes the financial year from April to March', () => {
    expect(financialYear(documentDay('03/01/2020')!)).toBe('2019-20');
    expect(financialYear(documentDay('31/03/2026')!)).toBe('2025-26');
    expect(financialYear(documentDay('01/04/2026')!)).toBe('2026-27');
    expect(financialYear(documentDay('01/04/2099')!)).toBe('2099-00');
  });

  it('is dated in India Standard Time', () => {
    expect(irpTime(NOW)).toBe('2026-06-01 15:30:00');
  });
});

describe('INV-01 1.1', () => {
  it('takes a complete invoice', () => {
    expect(schemaProblems(invoice())).toEqual([]);
  });

  const bad: [string, (d: ReturnType<typeof invoice>) => void, RegExp][] = [
    [
      'no seller',
      (d) => Reflect.deleteProperty(d, 'SellerDtls'),
      /must have required property 'SellerDtls'/,
    ],
    [
      'another version',
      (d) => Reflect.set(d, 'Version', '1.0'),
      /schema: Version must be equal to constant/,
    ],
    [
      'an unknown document type',
      (d) => Reflect.set(d.DocDtls, 'Typ', 'BIL'),
      /schema: DocDtls\.Typ .*INV, CRN, DBN/,
    ],
    [
      'a number starting with 0',
      (d) => (d.DocDtls.No = '0001'),
      /schema: DocDtls\.No must match pattern/,
    ],
    ['an ISO date', (d) => (d.DocDtls.Dt = '2026-06-01'), /schema: DocDtls\.Dt must match pattern/],
    [
      'a PIN of five digits',
      (d) => (d.SellerDtls.Pin = 56010),
      /schema: SellerDtls\.Pin must be >= 100000/,
    ],
    ['no lines', (d) => (d.ItemList = []), /schema: ItemList must NOT have fewer than 1 items/],
    [
      'letters for an HSN',
      (d) => (d.ItemList[0]!.HsnCd = 'ABCD'),
      /schema: ItemList\.0\.HsnCd must match pattern/,
    ],
    [
      'a field it does not define',
      (d) => Reflect.set(d, 'Remarks', 'x'),
      /must NOT have additional properties \(Remarks\)/,
    ],
    [
      'a lower-case GSTIN',
      (d) => (d.BuyerDtls.Gstin = '27aapfu0939f1zv'),
      /schema: BuyerDtls\.Gstin must match pattern/,
    ],
    [
      'a total as text',
      (d) => Reflect.set(d.ValDtls, 'TotInvVal', '1770'),
      /schema: ValDtls\.TotInvVal must be number/,
    ],
  ];
  it.each(bad)('refuses %s with code 2140, naming the field', (_name, spoil, message) => {
    const document = invoice();
    spoil(document);
    const problems = schemaProblems(document);
    expect(codes(problems)).toContain('2140');
    expect(new Set(codes(problems))).toEqual(new Set(['2140']));
    expect(problems.map((p) => p.ErrorMessage)).toContainEqual(expect.stringMatching(message));
  });
});

describe('the checks beyond the schema', () => {
  const check = (document: Inv01, now = NOW, largeSupplier = false) =>
    ruleProblems(document, now, { largeSupplier });

  it('pass a correct invoice, and totals within a rupee', () => {
    expect(check(invoice())).toEqual([]);
    const rounded = invoice();
    rounded.ValDtls.AssVal = 1499.01;
    rounded.ValDtls.TotInvVal = 1769.9;
    expect(check(rounded)).toEqual([]);
  });

  it('refuse totals more than a rupee out', () => {
    const taxable = invoice();
    taxable.ValDtls.AssVal = 1498.5;
    expect(codes(check(taxable))).toContain('2182');
    const total = invoice();
    total.ValDtls.TotInvVal = 1771.5;
    expect(codes(check(total))).toEqual(['2189']);
    const rounded = invoice();
    rounded.ValDtls.RndOffAmt = 0.4;
    rounded.ValDtls.TotInvVal = 1770.4;
    expect(check(rounded)).toEqual([]);
  });

  it('refuse a GSTIN whose check character is wrong, wherever it is', () => {
    const document = invoice();
    document.BuyerDtls.Gstin = '27AAPFU0939F1ZW';
    const [problem, ...rest] = check(document);
    expect(rest).toEqual([]);
    expect(problem).toEqual({
      ErrorCode: '2140',
      ErrorMessage: expect.stringContaining('BuyerDtls.Gstin'),
    });
    document.BuyerDtls.Gstin = 'URP';
    expect(check(document)).toEqual([]);
  });

  it("refuse a date in India's future, and one that is no date", () => {
    const tomorrow = invoice();
    tomorrow.DocDtls.Dt = '02/06/2026';
    expect(codes(check(tomorrow))).toEqual(['2163']);
    // 19:00 UTC is half past midnight of 2 June in India
    expect(check(tomorrow, new Date('2026-06-01T19:00:00.000Z'))).toEqual([]);
    const none = invoice();
    none.DocDtls.Dt = '31/02/2026';
    expect(check(none)[0]!.ErrorMessage).toMatch(/DocDtls\.Dt 31\/02\/2026 is no date/);
  });

  it('refuse a document of 30 days or more from a large supplier only', () => {
    const late = invoice();
    // as 1 November may be reported until 30 November: 3 May until 1 June
    late.DocDtls.Dt = '03/05/2026';
    expect(check(late, NOW, true)).toEqual([]);
    late.DocDtls.Dt = '02/05/2026';
    expect(check(late, NOW, true)[0]!.ErrorMessage).toMatch(/older than 30 days/);
    expect(check(late, NOW, false)).toEqual([]);
  });
});

describe("the sandbox IRP's signatures", () => {
  it('sign a QR code that its served key verifies, carrying the documented set', async () => {
    const signer = await createIrpSigner();
    const document = invoice();
    const payload = qrPayload(document, 'f'.repeat(64), irpTime(NOW));
    const jws = await signer.sign(payload);
    const { payload: claims, protectedHeader } = await jwtVerify(
      jws,
      createLocalJWKSet(signer.keys),
      {
        issuer: SANDBOX_IRP_ISSUER,
      },
    );
    expect(protectedHeader.alg).toBe('RS256');
    expect(JSON.parse(claims.data as string)).toEqual({
      SellerGstin: '29AAGCL1234M1ZA',
      BuyerGstin: '27AAPFU0939F1ZV',
      DocNo: 'INV/2026/0001',
      DocTyp: 'INV',
      DocDt: '01/06/2026',
      TotInvVal: 1770,
      ItemCnt: 2,
      MainHsnCode: '997331',
      Irn: 'f'.repeat(64),
      IrnDt: '2026-06-01 15:30:00',
    });

    const other = await createIrpSigner();
    await expect(jwtVerify(jws, createLocalJWKSet(other.keys))).rejects.toThrow();
  });

  it('name the line of the highest taxable value as the main HSN', () => {
    const document = invoice();
    document.ItemList[1]!.AssAmt = 2000;
    expect(qrPayload(document, 'f'.repeat(64), '').MainHsnCode).toBe('998314');
  });
});
