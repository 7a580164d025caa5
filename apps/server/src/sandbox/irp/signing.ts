import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Inv01 } from './inv-01';
import { mainHsnCode } from './rules';

/**
 * Who signs: the real IRP writes "NIC"; the sandbox its own name, so that nothing it signed
 * passes for a registered e-invoice.
 */
export const SANDBOX_IRP_ISSUER = 'Portal sandbox IRP';

/** What the signed QR code carries, the IRP's documented set. */
export interface QrPayload {
  SellerGstin: string;
  BuyerGstin: string;
  DocNo: string;
  DocTyp: string;
  DocDt: string;
  TotInvVal: number;
  ItemCnt: number;
  MainHsnCode: string;
  Irn: string;
  IrnDt: string;
}

export function qrPayload(document: Inv01, irn: string, irnDate: string): QrPayload {
  return {
    SellerGstin: document.SellerDtls.Gstin,
    BuyerGstin: document.BuyerDtls.Gstin,
    DocNo: document.DocDtls.No,
    DocTyp: document.DocDtls.Typ,
    DocDt: document.DocDtls.Dt,
    TotInvVal: document.ValDtls.TotInvVal,
    ItemCnt: document.ItemList.length,
    MainHsnCode: mainHsnCode(document),
    Irn: irn,
    IrnDt: irnDate,
  };
}

/**
 * The sandbox IRP's signing key, made at each start: what it signed before a restart no longer
 * verifies, as befits a sandbox. Each signature is an RS256 JWS whose payload holds the signed
 * JSON as a string in `data`, beside `iss`, the shape the IRP gives its SignedInvoice and
 * SignedQRCode.
 */
export async function createIrpSigner() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return {
    /** The public key as a JWK set, for whoever verifies what the sandbox signed. */
    keys: { keys: [jwk] },
    /** The SignedQRCode of a QrPayload, or the SignedInvoice of a registered document. */
    sign: (content: object) =>
      new SignJWT({ data: JSON.stringify(content), iss: SANDBOX_IRP_ISSUER })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .sign(privateKey),
  };
}

export type IrpSigner = Awaited<ReturnType<typeof createIrpSigner>>;
